import Foundation
import Testing

@testable import App

@Suite("Movie catalogue over the database cache")
struct MovieCatalogTests {
    @Test("a year list is cached in the database and served fresh for 6 hours")
    func yearCachedInDatabase() async throws {
        try await TestApp.with { app in
            let first = await app.services.catalog.movies(year: 2026)
            #expect(first.source == .live(fetchedAt: app.clock.now()))
            #expect(first.movies.first?.title == "Latest Release")
            // A second catalogue over the same database (a restarted server) needs no upstream call.
            let again = try AppServices(
                config: app.services.config, database: app.services.database, http: app.upstream, clock: app.clock, logger: TestDatabase.logger)
            app.clock.advance(3600)
            let second = await again.catalog.movies(year: 2026)
            #expect(second.movies.map(\.id) == first.movies.map(\.id))
            #expect(app.upstream.calls("/search") == 1)
        }
    }

    @Test("when iTunes fails after the entry went stale, the saved results are served and marked")
    func staleServed() async throws {
        try await TestApp.with { app in
            let savedAt = app.clock.now()
            _ = await app.services.catalog.movies(year: 2026)
            app.clock.advance(7 * 3600)
            app.upstream.respond { _ throws(UpstreamError) in throw .badStatus(502) }
            let list = await app.services.catalog.movies(year: 2026)
            #expect(list.source == .stale(savedOn: savedAt))
            #expect(list.movies.count == 5)
        }
    }

    @Test("with iTunes unreachable and nothing cached, the bundled catalogue answers")
    func offlineCatalogueFallback() async throws {
        try await TestApp.with(upstream: FakeUpstream { _ throws(UpstreamError) in throw .unreachable("no network") }) { app in
            let list = await app.services.catalog.movies(year: 2024)
            #expect(list.source == .offlineCatalogue)
            #expect(list.movies.count >= 15)
            let lookup = await app.services.catalog.movie(id: list.movies[0].id)
            guard case .found(let movie, .offlineCatalogue) = lookup else {
                Issue.record("expected offline lookup")
                return
            }
            #expect(movie.title == list.movies[0].title)
        }
    }

    @Test("a film from a fresh year list needs no lookup call; an unknown id is looked up once")
    func lookupUsesYearList() async throws {
        try await TestApp.with { app in
            _ = await app.services.catalog.movies(year: 2026)
            guard case .found(let movie, _) = await app.services.catalog.movie(id: 1001) else {
                Issue.record("not found")
                return
            }
            #expect(movie.title == "Middle Of The Year")
            #expect(app.upstream.calls("/lookup") == 0)
            guard case .found = await app.services.catalog.movie(id: 2001) else {
                Issue.record("lookup failed")
                return
            }
            guard case .found = await app.services.catalog.movie(id: 2001) else {
                Issue.record("cached lookup failed")
                return
            }
            #expect(app.upstream.calls("/lookup") == 1)
            guard case .notFound = await app.services.catalog.movie(id: 999_999) else {
                Issue.record("expected notFound")
                return
            }
        }
    }

    @Test("an id nobody knows while iTunes is down is unavailable, not 'not found'")
    func unknownWhileDown() async throws {
        try await TestApp.with(upstream: FakeUpstream { _ throws(UpstreamError) in throw .unreachable("down") }) { app in
            guard case .unavailable = await app.services.catalog.movie(id: 42) else {
                Issue.record("expected unavailable")
                return
            }
        }
    }
}
