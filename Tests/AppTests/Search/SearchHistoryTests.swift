import Foundation
import HTTPTypes
import HummingbirdTesting
import SQLKit
import Testing

@testable import App

/// "Search history" (Movie Collection specs): a person's last 20 searches, each one re-runnable and
/// removable, with the last one still shown on opening Search.
@Suite("Search history")
struct SearchHistoryTests {
    static func queries(_ html: String) -> [String] {
        html.matches(of: /class="recent-query" href="[^"]*">([^<]*)</).map { String($0.output.1) }
    }

    @Test("each search joins the recent searches, newest first; the same title again moves up instead of repeating; at most 20")
    func recentSearches() async throws {
        try await TestApp.with { app in
            let cookie = try await app.visitor()
            try await app.test { client in
                for title in ["Spider", "Midsommar", "Amélie"] {
                    #expect(
                        try await client.get("/search?q=\(title.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)!)", cookie: cookie)
                            .status == .ok)
                    app.clock.advance(60)
                }
                var page = try await client.get("/search", cookie: cookie).text
                #expect(Self.queries(page) == ["Amélie", "Midsommar", "Spider"])
                // The last search is still shown in full above them.
                #expect(page.contains("Your last search, “Amélie”"))
                #expect(page.contains(#"href="/search?q=Midsommar""#))

                _ = try await client.get("/search?q=SPIDER", cookie: cookie)
                app.clock.advance(60)
                page = try await client.get("/search", cookie: cookie).text
                #expect(Self.queries(page) == ["SPIDER", "Amélie", "Midsommar"])

                // The newest search again within the hour writes nothing: its row keeps its time.
                let times = {
                    try await app.services.database.sql.raw("SELECT searched_at FROM search_history ORDER BY searched_at DESC LIMIT 1").first()?
                        .decode(column: "searched_at", as: Date.self)
                }
                let first = try await times()
                app.clock.advance(60)
                _ = try await client.get("/search?q=spider", cookie: cookie)
                #expect(try await times() == first)
                app.clock.advance(3600)
                _ = try await client.get("/search?q=spider", cookie: cookie)
                #expect(try await times() != first)

                for index in 1...20 {
                    _ = try await client.get("/search?q=title\(index)", cookie: cookie)
                    app.clock.advance(60)
                }
                page = try await client.get("/search", cookie: cookie).text
                let listed = Self.queries(page)
                #expect(listed.count == 20 && listed.first == "title20" && listed.last == "title1")
                let rows = try await app.services.database.sql.raw("SELECT COUNT(*) AS n FROM search_history").first()?
                    .decode(column: "n", as: Int.self)
                #expect(rows == 20)
            }
        }
    }

    static func removeAction(_ html: String) -> String? {
        html.firstMatch(of: /action="(\/search\/history\/[0-9a-f-]+\/remove)"/).map { String($0.output.1) }
    }

    @Test(
        "a recent search can be removed, only by its owner; without a profile nothing is stored (the browser keeps its own); a cross-site link is not recorded"
    )
    func removing() async throws {
        try await TestApp.with { app in
            let cookie = try await app.visitor()
            let other = try await app.visitor()
            try await app.test { client in
                _ = try await client.get("/search?q=Spider", cookie: cookie)
                app.clock.advance(60)
                _ = try await client.get("/search?q=Midsommar", cookie: cookie)
                let page = try await client.get("/search", cookie: cookie).text
                let action = try #require(Self.removeAction(page))

                // Someone else cannot remove it (404), and it stays.
                let refused = try await client.postForm(action, [("return_to", "/search")], cookie: other)
                #expect(refused.status == .notFound)
                #expect(Self.queries(try await client.get("/search", cookie: cookie).text) == ["Midsommar", "Spider"])

                let removed = try await client.postForm(action, [("return_to", "/search")], cookie: cookie)
                #expect(removed.status == .seeOther && removed.headers[.location] == "/search")
                #expect(Self.queries(try await client.get("/search", cookie: cookie).text) == ["Spider"])
                #expect(try await client.postForm(action, [("return_to", "/search")], cookie: cookie).status == .notFound)

                // A search another site linked to is shown but not recorded.
                var headers = HTTPFields()
                headers[.cookie] = cookie
                headers[FetchMetadata.siteHeader] = "cross-site"
                _ = try await client.execute(uri: "/search?q=Parasite", method: .get, headers: headers)
                #expect(Self.queries(try await client.get("/search", cookie: cookie).text) == ["Spider"])

                // Without a profile: no history row; the list is the browser's own (its cookie).
                let anonymous = try await client.get("/search?q=Joker")
                #expect(Self.queries(anonymous.text) == ["Joker"])
                #expect(anonymous.headers[values: .setCookie].contains { $0.hasPrefix(CookieJar.recentSearches + "=") })
            }
            let rows = try await app.services.database.sql.raw("SELECT COUNT(*) AS n FROM search_history").first()?
                .decode(column: "n", as: Int.self)
            #expect(rows == 1)
        }
    }

    @Test("the offline worker keeping an older search in the background neither moves it up nor makes it the last search")
    func backgroundKeep() async throws {
        try await TestApp.with { app in
            let cookie = try await app.visitor()
            try await app.test { client in
                for title in ["Midsommar", "Spider"] {
                    _ = try await client.get("/search?q=\(title)", cookie: cookie)
                    app.clock.advance(60)
                }
                var headers = HTTPFields()
                headers[.cookie] = cookie
                headers[FetchMetadata.siteHeader] = "same-origin"
                headers[FetchMetadata.backgroundKeepHeader] = "1"
                let kept = try await client.execute(uri: "/search?q=Midsommar", method: .get, headers: headers)
                #expect(kept.status == .ok)
                let page = try await client.get("/search", cookie: cookie).text
                #expect(Self.queries(page) == ["Spider", "Midsommar"])
                #expect(page.contains("Your last search, “Spider”"))
            }
        }
    }

    @Test("offline, opening Search still lists the recent searches, and running one again answers from the cache")
    func offline() async throws {
        try await TestApp.with { app in
            let cookie = try await app.visitor()
            try await app.test { client in
                _ = try await client.get("/search?q=Spider", cookie: cookie)
                app.upstream.respond { _ throws(UpstreamError) in throw .unreachable("down") }
                let page = try await client.get("/search", cookie: cookie)
                #expect(page.status == .ok)
                #expect(Self.queries(page.text) == ["Spider"])
                let again = try await client.get("/search?q=Spider", cookie: cookie)
                #expect(again.status == .ok && again.text.contains("Spider"))
            }
        }
    }
}
