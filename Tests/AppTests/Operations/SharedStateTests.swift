import Foundation
import Synchronization
import Testing

@testable import App

/// Several servers on one PostgreSQL database, as three `AppServices` over the same database and
/// upstream in one process: what must hold across them is kept in the database, never in one
/// server's memory. (On SQLite there is one server; these run in the PostgreSQL pass.)
@Suite(
    "Servers sharing one database: single flight, upstream limits and background work",
    .enabled(if: !(ProcessInfo.processInfo.environment["POPCORN_TEST_DATABASE_URL"] ?? "").isEmpty))
struct SharedStateTests {
    /// `count` more servers over `app`'s database, upstream and clock.
    func servers(_ app: TestApp, count: Int) throws -> [AppServices] {
        try (0..<count).map { _ in
            try AppServices(
                config: app.services.config, database: app.services.database, http: app.upstream, clock: app.clock, logger: TestDatabase.logger,
                sleep: { _ in })
        }
    }

    @Test("50 concurrent misses for one year spread over three servers make one upstream call, and all 50 get its answer")
    func singleFlightAcrossServers() async throws {
        let upstream = FakeUpstream.itunesFixtures()
        upstream.setDelay(milliseconds: 400)
        try await TestApp.with(upstream: upstream) { app in
            let servers = try servers(app, count: 3)
            let lists = await withTaskGroup(of: MovieList.self) { group in
                for i in 0..<50 { group.addTask { await servers[i % 3].catalog.movies(year: 2026) } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(upstream.calls("/search") == 1)
            #expect(lists.count == 50)
            #expect(lists.allSatisfy { $0.movies.first?.title == "Latest Release" && $0.source != .offlineCatalogue })
            for server in servers { await server.offers.tracker.close() }
        }
    }

    @Test("three servers together stay under iTunes' 20 calls a minute")
    func throttleAcrossServers() async throws {
        try await TestApp.with { app in
            let servers = try servers(app, count: 3)
            await withTaskGroup(of: Void.self) { group in
                for (i, year) in (1990..<2020).enumerated() { group.addTask { _ = await servers[i % 3].catalog.movies(year: year) } }
            }
            // On a loaded machine a page may have stopped waiting (the bound) while its call goes on:
            // count once nothing has moved for a second.
            var settled = app.upstream.calls("/search")
            for _ in 0..<60 {
                try await Task.sleep(for: .seconds(1))
                let now = app.upstream.calls("/search")
                if now == settled { break }
                settled = now
            }
            #expect(settled == 20, "one server's limit counted by all three (each alone would allow 20)")
            app.clock.advance(61)
            _ = await servers[0].catalog.movies(year: 1980)
            #expect(app.upstream.calls("/search") == 21, "a minute later the window has room again")
            for server in servers { await server.offers.tracker.close() }
        }
    }
}

@Suite("Leases: work one server does at a time (on either database)")
struct LeasesTests {
    @Test("a lease is held by one server at a time, renewed by its holder, and free once past its time or let go")
    func leases() async throws {
        try await TestApp.with { app in
            let (one, two) = (
                Leases(database: app.services.database, clock: app.clock, owner: "one"),
                Leases(database: app.services.database, clock: app.clock, owner: "two")
            )
            #expect(try await one.take("clean-up", for: 60))
            #expect(try await !two.take("clean-up", for: 60), "the other server's sweep is skipped")
            #expect(try await one.take("clean-up", for: 60), "its holder may take it again")
            #expect(try await one.isHeld("clean-up"))
            app.clock.advance(61)
            #expect(try await two.take("clean-up", for: 60), "past its time, anyone may take it")
            try await one.release("clean-up")
            #expect(try await one.isHeld("clean-up"), "only its holder lets it go")
            try await two.release("clean-up")
            #expect(try await !one.isHeld("clean-up"))
        }
    }

    @Test("concurrent takers: exactly one of ten servers gets the lease")
    func leaseRace() async throws {
        try await TestApp.with { app in
            let database = app.services.database
            let taken = try await withThrowingTaskGroup(of: Bool.self) { group in
                for n in 0..<10 { group.addTask { try await Leases(database: database, clock: app.clock, owner: "s\(n)").take("job", for: 30) } }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(taken == 1)
        }
    }
}

@Suite("Servers sharing one PostgreSQL database hear each other's changes")
struct ChangeFeedTests {
    static let url = ProcessInfo.processInfo.environment["POPCORN_TEST_DATABASE_URL"] ?? ""

    /// Two servers' databases over one fresh schema; the second listens for the first's changes.
    func twoServers(_ body: (AppDatabase, AppDatabase) async throws -> Void) async throws {
        let schema = "t_feed_\(UUID().uuidString.prefix(8).lowercased())"
        let one = try await AppDatabase.open(.postgres(url: Self.url), schema: schema, logger: TestDatabase.logger)
        let two = try await AppDatabase.open(.postgres(url: Self.url), schema: schema, logger: TestDatabase.logger)
        let listening = Task { try await ChangeListener(database: two, logger: TestDatabase.logger).run() }
        // The listener is up once a change sent now is heard.
        let heard = Heard()
        two.changes.subscribe { if case .offers = $0 { heard.mark() } }
        let deadline = ContinuousClock.now + .seconds(10)
        while !heard.value, ContinuousClock.now < deadline {
            one.changes.publish(.offers)
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(heard.value, "the listener came up")
        do {
            try await body(one, two)
        } catch {
            Issue.record(error)
        }
        listening.cancel()
        try? await one.dropSchema(schema)
        await one.shutdown()
        await two.shutdown()
    }

    /// Polls `condition` for up to `limit`; returns how long it took, or nil.
    func within(_ limit: Duration, _ condition: () async throws -> Bool) async throws -> Duration? {
        let started = ContinuousClock.now
        while ContinuousClock.now - started < limit {
            if try await condition() { return ContinuousClock.now - started }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    @Test(
        "a sign-out and a revoked session set on one server are seen by another within 1 s, not 30 s",
        .enabled(if: !url.isEmpty))
    func invalidation() async throws {
        try await twoServers { one, two in
            let clock = ManualClock()
            let (sessionsOne, sessionsTwo) = (SessionService(database: one, clock: clock), SessionService(database: two, clock: clock))
            let (token, profile) = try await sessionsOne.startVisitor()
            #expect(try await sessionsTwo.identity(forToken: token)?.profile == profile, "the second server now remembers the session")
            try await sessionsOne.end(token: token)
            let signedOut = try await within(.seconds(1)) { try await sessionsTwo.identity(forToken: token) == nil }
            #expect(signedOut != nil, "the second server forgot the ended session at once (its memory is trusted for 30 s otherwise)")

            let (other, otherProfile) = try await sessionsOne.startVisitor()
            _ = try await sessionsTwo.identity(forToken: other)
            try await sessionsOne.endAll(profile: otherProfile)
            #expect(try await within(.seconds(1)) { try await sessionsTwo.identity(forToken: other) == nil } != nil)
        }
    }

    @Test("a dropped feed tells every subscriber that anything may have changed; a server's own notice is not applied to it")
    func everythingAfterReconnect() async throws {
        let feed = ChangeFeed(send: nil, logger: TestDatabase.logger)
        let changes = HeardChanges()
        feed.subscribe { changes.add($0) }
        feed.deliver(.everything)
        #expect(changes.all == [.everything])
        feed.receive("\(feed.origin) offers")
        #expect(changes.all == [.everything], "its own notice is not applied twice")
        feed.receive("\(RequestTrace.newID()) offers")
        #expect(changes.all == [.everything, .offers])
    }
}

/// The changes a subscriber was told of, in order.
final class HeardChanges: Sendable {
    private let changes = Mutex<[ChangeFeed.Change]>([])
    var all: [ChangeFeed.Change] { changes.withLock { $0 } }
    func add(_ change: ChangeFeed.Change) { changes.withLock { $0.append(change) } }
}

/// A flag set from a subscriber.
final class Heard: Sendable {
    private let flag = Mutex(false)
    var value: Bool { flag.withLock { $0 } }
    func mark() { flag.withLock { $0 = true } }
}
