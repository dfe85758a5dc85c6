import Foundation
import HummingbirdTesting
import Testing

@testable import App

/// The Movies list and a film's page in each of their states, as whole pages.
@Suite("Snapshots: Movies")
struct MoviesSnapshotTests {
    static let down = FakeUpstream { _ throws(UpstreamError) in throw .unreachable("down") }

    @Test("Movies: a year from iTunes")
    func live() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let page = try await client.get("/movies?year=2026")
                #expect(page.text.contains("<title>Movies of 2026 · PopcornSwirl</title>") && !page.text.contains("Offline"))
                assertPage(page, named: "movies-live")
            }
        }
    }

    @Test("Movies: iTunes fails after the saved year went stale")
    func stale() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                _ = try await client.get("/movies?year=2026")
                app.clock.advance(7 * 3600)
                app.upstream.respond { _ throws(UpstreamError) in throw .rateLimited(status: 403) }
                let page = try await client.get("/movies?year=2026")
                #expect(
                    page.text.contains(#"Offline — showing results saved on <time datetime="2026-11-18T"#)
                        && page.text.contains("data-local>18 November 2026"))
                assertPage(page, named: "movies-stale")
            }
        }
    }

    @Test("Movies: iTunes unreachable and nothing saved, the bundled catalogue")
    func offline() async throws {
        try await TestApp.with(upstream: Self.down) { app in
            try await app.test { client in
                let page = try await client.get("/movies?year=2024")
                #expect(page.text.contains("Offline — iTunes can’t be reached"))
                assertPage(page, named: "movies-offline-catalogue")
            }
        }
    }

    @Test("Movies: a year that is not a number")
    func badYear() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let page = try await client.get("/movies?year=abc")
                #expect(page.text.contains("is not a year"))
                assertPage(page, named: "movies-bad-year", status: .badRequest)
            }
        }
    }

    @Test("Film: from iTunes, with the demo offers")
    func detail() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let page = try await client.get("/movies/1001")
                #expect(page.text.contains("<h1>Middle Of The Year") && page.text.contains("More on iTunes"))
                assertPage(page, named: "film-live")
            }
        }
    }

    @Test("Film: a looked-up film served stale while iTunes is down")
    func detailStale() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                _ = try await client.get("/movies/2001")
                app.clock.advance(48 * 3600)
                app.upstream.respond { _ throws(UpstreamError) in throw .unreachable("down") }
                let page = try await client.get("/movies/2001")
                #expect(page.text.contains("Last Year&#39;s Hit") && page.text.contains("Offline"))
                assertPage(page, named: "film-stale")
            }
        }
    }

    @Test("Film: a saved film from its snapshot while iTunes is down")
    func detailSnapshot() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try #require(try await client.postForm("/library/movies/2001", [("favorite", "1")]).sessionCookie)
                app.clock.advance(48 * 3600)
                app.upstream.respond { _ throws(UpstreamError) in throw .unreachable("down") }
                let page = try await client.get("/movies/2001", cookie: cookie)
                #expect(page.text.contains("Big and loud.") && page.text.contains("Your saved copy"))
                assertPage(page, named: "film-saved-offline")
            }
        }
    }

    @Test("Film: an id iTunes does not know")
    func notFound() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let page = try await client.get("/movies/999999")
                #expect(page.text.contains("Not found"))
                assertPage(page, named: "film-not-found", status: .notFound)
            }
        }
    }

    @Test("Film: iTunes unreachable and nothing saved, the retry page")
    func retry() async throws {
        try await TestApp.with(upstream: Self.down) { app in
            try await app.test { client in
                let page = try await client.get("/movies/424242")
                #expect(page.text.contains(#"href="/movies/424242">Retry</a>"#))
                assertPage(page, named: "film-retry", status: .serviceUnavailable)
            }
        }
    }
}
