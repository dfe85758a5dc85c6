import Foundation
import HummingbirdTesting
import SQLKit
import Testing

@testable import App

/// Release years kept warm by one background worker for the deployment, within its share of
/// iTunes' allowance; years never fetched shown with the bundled films meanwhile; saved titles
/// opened from their saved copy.
@Suite("Catalogue worker")
struct CatalogWorkerTests {
    static func yearCalls(_ app: TestApp) -> [Int] {
        app.upstream.requested(host: "itunes.test").compactMap { url in
            let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            guard items.contains(where: { $0.name == "attribute" }) else { return nil }
            return items.first { $0.name == "term" }?.value.flatMap(Int.init)
        }
    }

    @Test("a fresh install warms the current year first, then outward, one iTunes call a round, 4 a minute at most")
    func warmsOutward() async throws {
        try await TestApp.with(upstream: NeverAWallTests.generousITunes()) { app in
            let worker = app.services.catalogWorker
            // A round every 2 s: at most 4 iTunes calls in any minute.
            var years: [Int?] = []
            for _ in 0..<10 {
                years.append(try await worker.round().year)
                app.clock.advance(2)
            }
            #expect(years.compactMap { $0 } == [2026, 2027, 2025, 2024])
            app.clock.advance(60)
            #expect(try await worker.round().year == 2023)
            #expect(Self.yearCalls(app) == [2026, 2027, 2025, 2024, 2023])
        }
    }

    @Test("once warm, a year page never opened before asks iTunes nothing, even past its freshness")
    func warmYearNeverWaits() async throws {
        try await TestApp.with(upstream: NeverAWallTests.generousITunes()) { app in
            _ = try await app.services.catalogWorker.round()
            app.clock.advance(5 * 3600)
            try await app.test { client in
                let before = app.upstream.calls()
                let page = try await client.get("/movies?year=2026")
                #expect(page.status == .ok && page.text.contains("Film of 2026"))
                #expect(app.upstream.calls() == before)
            }
        }
    }

    @Test("a year stale past its schedule is fetched again; the current year before older ones")
    func refreshesByAge() async throws {
        try await TestApp.with(upstream: NeverAWallTests.generousITunes()) { app in
            let worker = app.services.catalogWorker
            // Every year warm: a round every 15 s, as the worker runs, keeps inside iTunes' allowance.
            while try await worker.round().year != nil { app.clock.advance(15) }
            let warm = Self.yearCalls(app).count
            #expect(warm == MovieCatalog.latestYear(current: 2026) - MovieCatalog.firstYear + 1)
            #expect(try await worker.round().year == nil, "nothing due")
            app.clock.advance(3 * 3600 + 1)
            #expect(try await worker.round().year == 2026)
            #expect(try await worker.round().year == 2027)
            #expect(try await worker.round().year == nil, "older years are fresh for a day or a week")
        }
    }

    @Test("after a 429 the worker asks iTunes nothing until its backoff ends, then goes on")
    func backsOff() async throws {
        try await TestApp.with(upstream: NeverAWallTests.generousITunes()) { app in
            let worker = app.services.catalogWorker
            app.upstream.fail(host: "itunes.test") { _ in UpstreamResponse(status: 429, body: Data()) }
            #expect(try await worker.round().itunesRefused)
            let refused = Self.yearCalls(app).count
            app.upstream.respond { url throws(UpstreamError) in try await NeverAWallTests.generousITunes().get(url, headers: []) }
            _ = try await worker.round()
            #expect(Self.yearCalls(app).count == refused, "backing off")
            app.clock.advance(61)
            #expect(try await worker.round().year == 2026)
        }
    }

    @Test("a year never fetched while iTunes refuses: the bundled films, a note that its films are on their way, and the worker fetches it next")
    func yearNotFetchedYet() async throws {
        try await TestApp.with(upstream: NeverAWallTests.generousITunes()) { app in
            app.upstream.fail(host: "itunes.test") { _ in UpstreamResponse(status: 403, body: Data()) }
            try await app.test { client in
                let page = try await client.get("/movies?year=2019")
                #expect(page.status == .ok)
                #expect(page.text.contains("2019’s films are on their way from iTunes"))
                #expect(page.text.contains(#"class="notice-retry""#))
                app.upstream.respond { url throws(UpstreamError) in try await NeverAWallTests.generousITunes().get(url, headers: []) }
                app.clock.advance(61)
                #expect(try await app.services.catalogWorker.round().year == 2019, "the year a person opened comes first")
                let warm = try await client.get("/movies?year=2019")
                #expect(warm.text.contains("Film of 2019"))
                #expect(!warm.text.contains("on their way"))
            }
        }
    }

    @Test("the worker's lease: while one server holds it, another does no round")
    func oneWorkerAtATime() async throws {
        try await TestApp.with { app in
            let other = Leases(database: app.services.database, clock: app.clock, owner: "server-other")
            let mine = Leases(database: app.services.database, clock: app.clock, owner: app.services.instance)
            let taken = try await other.take(CatalogWorker.lease, for: 60)
            let alsoTaken = try await mine.take(CatalogWorker.lease, for: 60)
            #expect(taken && !alsoTaken)
            app.clock.advance(61)
            let takenOver = try await mine.take(CatalogWorker.lease, for: 60)
            #expect(takenOver)
        }
    }

    @Test("a saved film opens from its saved copy while iTunes refuses, marked with the day it was saved; a round brings a fresh copy")
    func savedCopyOpens() async throws {
        try await TestApp.with(upstream: NeverAWallTests.generousITunes()) { app in
            let account = try await app.signedIn("saver")
            try await app.test { client in
                let search = try await client.get("/search?q=Keeper", cookie: account.cookie)
                let id = try #require(search.text.firstMatch(of: /data-movie-id="(\d+)"/).map { Int($0.1)! })
                let saved = try await client.postForm("/library/movies/\(id)", [("favorite", "1")], cookie: account.cookie)
                #expect(saved.status == .seeOther)
                app.clock.advance(MovieCatalog.lookupFreshness + 60)
                // A day on, signed in again (a browser session lasts 12 hours).
                let cookie = "\(SessionService.cookieName)=\(try await app.services.sessions.start(profile: account.profile)); \(TestApp.csrfCookie)"
                app.upstream.fail(host: "itunes.test") { _ in UpstreamResponse(status: 429, body: Data()) }
                let before = app.upstream.calls()
                let page = try await client.get("/movies/\(id)", cookie: cookie)
                #expect(page.status == .ok)
                #expect(page.text.contains("Your saved copy"))
                #expect(app.upstream.calls() == before, "the page waits on nobody")
                #expect(try await app.services.catalog.requests.all(.movie) == [String(id)])
                app.upstream.respond { url throws(UpstreamError) in try await NeverAWallTests.generousITunes().get(url, headers: []) }
                #expect(try await app.services.catalogWorker.round().filledFilms == 1)
                let fresh = try await client.get("/movies/\(id)", cookie: cookie)
                #expect(!fresh.text.contains("Your saved copy"))
            }
        }
    }

    @Test("OMDb refusing the key is shown to the administrator, and searches are still remembered")
    func omdbKeyRefusal() async throws {
        try await TestApp.with(configure: { $0.omdbAPIKey = "wrong-key" }) { app in
            let admin = try await app.seedAdmin()
            try await app.test { client in
                let page = try await client.get("/search?q=Midsommar", cookie: admin)
                #expect(page.status == .ok)
                let last = try await client.get("/search", cookie: admin)
                #expect(last.text.contains("Your last search, “Midsommar”"))
                let console = try await client.get("/admin/offers", cookie: admin)
                #expect(console.text.contains("OMDb refuses the key in OMDB_API_KEY"))
                #expect(console.text.contains("Invalid API key!"))
            }
        }
    }
}
