import Foundation
import HummingbirdTesting
import Testing

@testable import App

/// The Search tab in each of its states.
@Suite("Snapshots: Search")
struct SearchSnapshotTests {
    @Test("Search: the welcome before any search")
    func welcome() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let page = try await client.get("/search")
                #expect(page.text.contains("Find a film or a show"))
                assertPage(page, named: "search-welcome")
            }
        }
    }

    @Test("Search: a best match with OMDb's details, more films and shows")
    func results() async throws {
        try await TestApp.with(configure: { $0.omdbAPIKey = Fixtures.omdbKey }) { app in
            try await app.test { client in
                let page = try await client.get("/search?q=spider")
                #expect(page.text.contains("Best match") && page.text.contains("David Cronenberg"))
                assertPage(page, named: "search-best-match")
            }
        }
    }

    @Test("Search: the last search, when the tab opens again")
    func lastSearch() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try await app.visitor()
                _ = try await client.get("/search?q=spider", cookie: cookie)
                app.clock.advance(3600)
                let page = try await client.get("/search", cookie: cookie)
                #expect(page.text.contains("Your last search, “spider”"))
                assertPage(page, named: "search-last")
            }
        }
    }

    @Test("Search: offline with no last search, 'No connection'")
    func noConnection() async throws {
        try await TestApp.with(upstream: FakeUpstream { _ throws(UpstreamError) in throw .unreachable("down") }) { app in
            try await app.test { client in
                let page = try await client.get("/search")
                #expect(page.text.contains("No connection"))
                assertPage(page, named: "search-no-connection", status: .serviceUnavailable)
            }
        }
    }

    @Test("Search: iTunes sends an answer that cannot be read")
    func error() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                app.upstream.fail(host: "itunes.test") { _ in UpstreamResponse(status: 200, body: Data("{\"results\":".utf8)) }
                let page = try await client.get("/search?q=midsommar")
                #expect(page.text.contains("The film catalogue sent an answer we couldn’t read.") && page.text.contains(#"role="alert""#))
                assertPage(page, named: "search-error", status: .serviceUnavailable)
            }
        }
    }

    @Test("Search: the message after adding the best match without JavaScript")
    func addedMessage() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try await app.visitor()
                _ = try await client.get("/search?q=Spider", cookie: cookie)
                #expect(try await client.postForm("/library/movies/284910350", [("favorite", "1")], cookie: cookie).status == .seeOther)
                let page = try await client.get("/search?q=Spider&done=added", cookie: cookie)
                #expect(page.text.contains("“Spider”: Added to your Favorites."))
                assertPage(page, named: "search-done-added")
            }
        }
    }
}
