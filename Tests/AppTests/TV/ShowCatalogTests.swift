import Foundation
import Synchronization
import Testing

@testable import App

@Suite("TVMaze catalogue")
struct ShowCatalogTests {
    @Test("decodes real-shaped shows: null image, null IMDb id, web channel instead of network, empty genres, HTML summaries")
    func decoding() throws {
        let shows = try TVMazeDecoder.shows(from: Fixtures.data("tvmaze/shows.json"))
        #expect(shows.count == 6)
        let girls = try #require(shows.first { $0.id == 139 })
        #expect(girls.network == "HBO" && girls.networkCountry == "United States" && girls.webChannel == nil)
        #expect(girls.imdbURL == "https://www.imdb.com/title/tt1723816")
        #expect(girls.genres == ["Drama", "Romance"] && girls.scheduleDays == ["Sunday"] && girls.runtimeMinutes == 30)
        #expect(girls.summaryHTML?.hasPrefix("<p><b>Girls</b>") == true)
        let snow = try #require(shows.first { $0.id == 62693 })
        #expect(snow.imageMedium == nil && snow.imageOriginal == nil && snow.genres.isEmpty && snow.imdbURL == nil)
        let gospel = try #require(shows.first { $0.id == 45499 })
        #expect(gospel.network == nil && gospel.webChannel == "Netflix")
        #expect(shows.first { $0.id == 52491 }?.imdbID == nil)
    }

    @Test("a malformed show in a page is skipped, not fatal; a broken body is rejected")
    func tolerant() throws {
        let body = Data(#"[{"id": 1, "name": "Fine", "genres": null, "image": {"medium": "javascript:alert(1)"}}, {"name": "no id"}, 5]"#.utf8)
        let shows = try TVMazeDecoder.shows(from: body)
        #expect(shows.map(\.id) == [1])
        #expect(shows[0].genres.isEmpty && shows[0].imageMedium == nil)
        #expect(throws: (any Error).self) { try TVMazeDecoder.shows(from: Data("[{".utf8)) }
    }

    @Test("paging: page 1 is TVMaze's page 0; its 404 past the last page ends the index cleanly")
    func paging() async throws {
        try await TestApp.with { app in
            let first = await app.services.shows.page(1)
            #expect(first.shows.count == 6 && !first.isEnd && first.source.isLive)
            let past = await app.services.shows.page(2)
            #expect(past.shows.isEmpty && past.isEnd && past.source.isLive)
            _ = await app.services.shows.page(2)
            #expect(app.upstream.calls("/shows") == 2, "the end-of-index answer is cached like any other")
        }
    }

    @Test("TVMaze is throttled to 20 calls per 10 s")
    func throttle() async throws {
        try await TestApp.with { app in
            for id in 1...25 { _ = await app.services.shows.show(id: 100_000 + id) }
            #expect(app.upstream.calls() == 20)
            app.clock.advance(10)
            _ = await app.services.shows.show(id: 139)
            #expect(app.upstream.calls() == 21)
        }
    }

    @Test("a 429 backs off about 2 s and retries once")
    func backOff() async throws {
        let answers = Mutex(0)
        let upstream = FakeUpstream { url in
            let n = answers.withLock {
                $0 += 1
                return $0
            }
            return n == 1 ? UpstreamResponse(status: 429, body: Data()) : Fixtures.tvmazeAnswer(for: url)
        }
        let slept = Mutex<[TimeInterval]>([])
        try await TestDatabase.with { database in
            var config = AppConfig()
            config.tvmazeBaseURL = "https://tvmaze.test"
            // The back-off is the injected sleep's, so no real wait: the budget only has to outlast a
            // loaded machine (the whole suite on 2 cores took over 30 s for a miss's writes).
            config.operations.upstreamWaitMilliseconds = 300_000
            let services = try AppServices(
                config: config, database: database, http: upstream, clock: ManualClock(), logger: TestDatabase.logger,
                sleep: { seconds in slept.withLock { $0.append(seconds) } }
            )
            guard case .found(let show, _) = await services.shows.show(id: 139) else {
                Issue.record("expected the retry to succeed")
                return
            }
            #expect(show.name == "Girls")
            #expect(slept.withLock { $0 } == [2])
            #expect(upstream.calls() == 2)
            // A second 429 in a row is not retried again: the failure is reported (and never cached).
            upstream.respond { _ in UpstreamResponse(status: 429, body: Data()) }
            guard case .unavailable(.rateLimited(status: 429)) = await services.shows.show(id: 590) else {
                Issue.record("expected rate limited")
                return
            }
            #expect(upstream.calls() == 4)
        }
    }

    @Test("with TVMaze unreachable the bundled shows answer: at least 40 real shows")
    func offline() async throws {
        try await TestApp.with(upstream: FakeUpstream { _ throws(UpstreamError) in throw .unreachable("down") }) { app in
            let page = await app.services.shows.page(1)
            #expect(page.source == .offlineCatalogue && page.shows.count >= 40 && page.isEnd)
            let hits = await app.services.shows.search("breaking")
            #expect(hits.shows.map(\.name) == ["Breaking Bad"])
            guard case .found(let show, .offlineCatalogue) = await app.services.shows.show(id: page.shows[0].id) else {
                Issue.record("expected an offline show")
                return
            }
            #expect(show.name == page.shows[0].name)
        }
    }
}
