import Foundation
import Testing

@testable import App

/// An in-memory `CatalogCacheStore` so the engine's rules are tested without a database.
final class MemoryCacheStore: CatalogCacheStore, @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: CachedBody] = [:]
    var count: Int { lock.withLock { entries.count } }

    func read(_ key: String) async throws -> CachedBody? { lock.withLock { entries[key] } }
    func write(_ key: String, _ entry: CachedBody) async throws { lock.withLock { entries[key] = entry } }
}

@Suite("Catalogue engine: cache, staleness, single flight, throttle, breaker")
struct CachedUpstreamTests {
    let clock = ManualClock()
    let store = MemoryCacheStore()
    let url = URL(string: "https://itunes.test/search?term=2026")!

    func engine(_ upstream: FakeUpstream, limit: Int = 20, offline: Bool = false) -> CachedUpstream {
        CachedUpstream(
            http: upstream, store: store, throttle: HostThrottle(limit: limit, window: 60, clock: clock),
            breaker: HostBreaker(coolDown: 30, clock: clock), clock: clock, offline: offline, logger: TestDatabase.logger
        )
    }

    func fetch(_ engine: CachedUpstream, key: String = "k") async -> Fetched {
        await engine.fetch(key: key, url: url, freshFor: 6 * 3600) { _ = try ITunesDecoder.movies(from: $0) }
    }

    @Test("a fresh entry is served without calling upstream")
    func freshServedFromCache() async throws {
        let upstream = FakeUpstream.itunesFixtures()
        let engine = engine(upstream)
        guard case .fresh = await fetch(engine) else {
            Issue.record("first fetch failed")
            return
        }
        clock.advance(5 * 3600)
        guard case .fresh = await fetch(engine) else {
            Issue.record("cached fetch failed")
            return
        }
        #expect(upstream.calls() == 1)
    }

    @Test("after its freshness window an entry is fetched again")
    func staleEntryRefetched() async throws {
        let upstream = FakeUpstream.itunesFixtures()
        let engine = engine(upstream)
        _ = await fetch(engine)
        clock.advance(6 * 3600 + 1)
        guard case .fresh(let body) = await fetch(engine) else {
            Issue.record("refetch failed")
            return
        }
        #expect(upstream.calls() == 2)
        #expect(body.fetchedAt == clock.now())
    }

    @Test(
        "when upstream fails, the stale entry is served with its date",
        arguments: [
            UpstreamError.unreachable("down"), .badStatus(500), .rateLimited(status: 403),
        ])
    func staleOnFailure(error: UpstreamError) async throws {
        let upstream = FakeUpstream.itunesFixtures()
        let engine = engine(upstream)
        _ = await fetch(engine)
        let savedAt = clock.now()
        clock.advance(7 * 3600)
        upstream.respond { _ throws(UpstreamError) in throw error }
        guard case .stale(let body, _) = await fetch(engine) else {
            Issue.record("expected stale")
            return
        }
        #expect(body.fetchedAt == savedAt)
    }

    @Test(
        "403, 429, 5xx, empty and malformed answers are never cached",
        arguments: [
            UpstreamResponse(status: 403, body: Data()),
            UpstreamResponse(status: 429, body: Data()),
            UpstreamResponse(status: 503, body: Data("busy".utf8)),
            UpstreamResponse(status: 200, contentType: "text/javascript", body: Data()),
            UpstreamResponse(status: 200, contentType: "text/javascript", body: Data("{\"results\": [".utf8)),
        ])
    func failuresNotCached(response: UpstreamResponse) async throws {
        let upstream = FakeUpstream { _ in response }
        let engine = engine(upstream)
        guard case .failed(let error) = await fetch(engine) else {
            Issue.record("expected failure")
            return
        }
        #expect(store.count == 0)
        switch response.status {
        case 403, 429: #expect(error == .rateLimited(status: response.status))
        case 503: #expect(error == .badStatus(503))
        default: if case .malformed = error {} else { Issue.record("expected malformed, got \(error)") }
        }
    }

    @Test("a text/javascript body is decoded like JSON")
    func textJavascript() async throws {
        let upstream = FakeUpstream { _ in Fixtures.json("itunes/year-2026.json") }
        guard case .fresh(let body) = await fetch(engine(upstream)) else {
            Issue.record("expected success")
            return
        }
        #expect(try ITunesDecoder.movies(from: body.body).count == 5)
    }

    @Test("50 simultaneous requests for an uncached key make exactly one upstream call")
    func singleFlight() async throws {
        let upstream = FakeUpstream.itunesFixtures()
        upstream.setDelay(milliseconds: 200)
        let engine = engine(upstream)
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<50 {
                group.addTask { if case .fresh = await fetch(engine) { true } else { false } }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 50 && results.allSatisfy { $0 })
        #expect(upstream.calls() == 1)
    }

    @Test("the throttle keeps a host at or under 20 calls a minute")
    func throttle() async throws {
        let upstream = FakeUpstream.itunesFixtures()
        let engine = engine(upstream)
        for index in 0..<25 { _ = await fetch(engine, key: "key-\(index)") }
        #expect(upstream.calls() == 20)
        guard case .failed(.throttled) = await fetch(engine, key: "one-more") else {
            Issue.record("expected throttled")
            return
        }
        clock.advance(61)
        guard case .fresh = await fetch(engine, key: "after-a-minute") else {
            Issue.record("expected a call after the window")
            return
        }
        #expect(upstream.calls() == 21)
    }

    @Test("after a host could not be reached, it is not called again for 30 s")
    func breaker() async throws {
        let upstream = FakeUpstream { _ throws(UpstreamError) in throw .unreachable("connect timeout") }
        let engine = engine(upstream)
        _ = await fetch(engine, key: "a")
        guard case .failed(.hostDown) = await fetch(engine, key: "b") else {
            Issue.record("expected hostDown")
            return
        }
        #expect(upstream.calls() == 1)
        clock.advance(31)
        upstream.respond { url throws(UpstreamError) in try Fixtures.itunesAnswer(for: url) }
        guard case .fresh = await fetch(engine, key: "c") else {
            Issue.record("expected recovery")
            return
        }
        #expect(upstream.calls() == 2)
    }

    @Test("offline mode never calls upstream")
    func offlineMode() async throws {
        let upstream = FakeUpstream.itunesFixtures()
        guard case .failed(.offlineMode) = await fetch(engine(upstream, offline: true)) else {
            Issue.record("expected offline")
            return
        }
        #expect(upstream.calls() == 0)
    }
}
