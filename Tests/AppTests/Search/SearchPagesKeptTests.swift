import Foundation
import HummingbirdTesting
import SQLKit
import Testing

@testable import App

/// A search page is kept per person and answer (`SearchController.results`): it must never hide a
/// change of theirs, nor skip a write it stands for.
@Suite("Search pages kept between views")
struct SearchPagesKeptTests {
    /// The page without its sponsored cards, which the frequency cap changes from view to view.
    static func withoutOffers(_ html: String) -> String {
        html.replacing(/<article class="card sponsored-card"[\s\S]*?<\/article>/, with: "")
    }

    @Test("a kept search page gives way to every change of the person's: another search, a removed recent search, a saved title")
    func keptPageFollowsChanges() async throws {
        try await TestApp.with { app in
            let cookie = try await app.visitor() + "; " + TestApp.csrfCookie
            try await app.test { client in
                let spider = try await client.get("/search?q=Spider", cookie: cookie).text
                #expect(SearchHistoryTests.queries(spider) == ["Spider"])
                #expect(try await client.get("/search?q=Spider", cookie: cookie).text == spider, "the same bytes a second time")
                // A search with no films is written to the recent searches only (it is not a last search).
                app.clock.advance(0.5)  // less than a kept page's 2 s
                let nothing = try await client.get("/search?q=Qwxzvbnm", cookie: cookie).text
                #expect(SearchHistoryTests.queries(nothing) == ["Qwxzvbnm", "Spider"])
                app.clock.advance(0.5)  // less than a kept page's 2 s
                var page = try await client.get("/search?q=Spider", cookie: cookie).text
                #expect(SearchHistoryTests.queries(page) == ["Spider", "Qwxzvbnm"], "Spider moves up again: the kept page is not reused")
                let newest = try await app.services.database.sql.raw("SELECT query FROM search_history ORDER BY searched_at DESC LIMIT 1")
                    .first()?.decode(column: "query", as: String.self)
                #expect(newest == "Spider", "and the write it stands for is made")
                // Its own write made that page out of date at once: the next view is kept again.
                #expect(Self.withoutOffers(try await client.get("/search?q=Spider", cookie: cookie).text) == Self.withoutOffers(page))
                // Removing a recent search (the second, Qwxzvbnm: Spider would be written again by its own page).
                let ids = page.matches(of: /action="\/search\/history\/([0-9A-Fa-f-]{36})\/remove"/).map { String($0.1) }
                #expect(ids.count == 2)
                _ = try await client.postForm("/search/history/\(ids[1])/remove", [], cookie: cookie)
                page = try await client.get("/search?q=Spider", cookie: cookie).text
                #expect(SearchHistoryTests.queries(page) == ["Spider"], "the removed search is gone from the next view")
                // Saving the best match shows at once.
                let best = try #require(page.firstMatch(of: /data-movie-id="(\d+)"/).map { String($0.1) })
                #expect(!page.contains(#"aria-pressed="true""#))
                _ = try await client.postForm("/library/movies/\(best)", [("favorite", "1")], cookie: cookie)
                #expect(try await client.get("/search?q=Spider", cookie: cookie).text.contains(#"aria-pressed="true""#))
            }
        }
    }

    @Test("a visitor without a profile gets the kept page too, with the last-search cookie set on every answer")
    func visitorCookieEveryTime() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                for _ in 1...2 {
                    let response = try await client.get("/search?q=Spider", cookie: TestApp.csrfCookie)
                    #expect(response.status == .ok && response.text.contains("Spider"))
                    #expect(response.headers[values: .setCookie].contains { $0.hasPrefix(CookieJar.lastSearch + "=") })
                }
            }
        }
    }
}
