import Foundation
import Synchronization

/// A sliding-window limit per host: at most `limit` calls in any `window`. Counted in this
/// process, or — for the upstreams' limits, which every server sharing the database must keep
/// together — in the database (`upstream_shares`, `api` = "host:<name>", `client` = the host).
public final class HostThrottle: Sendable {
    let limit: Int
    let window: TimeInterval
    let clock: any AppClock
    let shared: AttemptWindow?
    private let calls = Mutex<[String: [Date]]>([:])

    /// Counted in this process.
    public init(limit: Int, window: TimeInterval, clock: any AppClock) {
        self.limit = limit
        self.window = window
        self.clock = clock
        shared = nil
    }

    /// Counted in the database, for every server: `name` tells this limit's rows from others'.
    init(_ spec: Spec, database: AppDatabase, clock: any AppClock) {
        limit = spec.limit
        window = spec.window
        self.clock = clock
        shared = AttemptWindow(
            database: database, clock: clock, table: "upstream_shares", timeColumn: "called_at", limit: spec.limit, window: spec.window,
            scope: ("api", "host:\(spec.name)"))
    }

    /// An upstream's limit: counted in the database on PostgreSQL (several servers may share it),
    /// in this process on SQLite (one server).
    static func forUpstream(_ spec: Spec, database: AppDatabase, clock: any AppClock) -> HostThrottle {
        database.isPostgres
            ? HostThrottle(spec, database: database, clock: clock) : HostThrottle(limit: spec.limit, window: spec.window, clock: clock)
    }

    /// The upstreams' limits: iTunes about 20 calls a minute (year lists, lookups and searches
    /// together); TVMaze at least 20 per 10 s; OMDb's own pace (its limit is the daily budget).
    struct Spec: Sendable {
        let name: String
        let limit: Int
        let window: TimeInterval

        static let itunes = Spec(name: "itunes", limit: 20, window: 60)
        static let tvmaze = Spec(name: "tvmaze", limit: 20, window: 10)
        static let omdb = Spec(name: "omdb", limit: 20, window: 10)
        static let all = [itunes, tvmaze, omdb]
    }

    /// Takes a slot for `host` among every server's calls; where the database cannot count
    /// (it failed), among this process's.
    func admit(_ host: String) async -> Bool {
        if let shared, let admission = try? await shared.admitSerialized(("client", host)) {
            if case .allowed = admission { return true }
            return false
        }
        return tryAcquire(host)
    }

    /// The clean-up's step for a shared throttle: rows that have left the window.
    func sweep(batch: Int) async throws -> Int {
        try await shared?.sweep(batch: batch) ?? 0
    }

    /// Takes a slot for `host`, or returns false when the window is full.
    public func tryAcquire(_ host: String) -> Bool {
        let now = clock.now()
        return calls.withLock { table in
            var recent = (table[host] ?? []).filter { now.timeIntervalSince($0) < window }
            guard recent.count < limit else {
                table[host] = recent
                return false
            }
            recent.append(now)
            table[host] = recent
            return true
        }
    }
}

/// After a host could not be reached, refuse calls to it for `coolDown` so pages are served
/// from cache at once instead of waiting for another timeout.
public final class HostBreaker: Sendable {
    let coolDown: TimeInterval
    let clock: any AppClock
    private let downUntil = Mutex<[String: Date]>([:])

    public init(coolDown: TimeInterval = 30, clock: any AppClock) {
        self.coolDown = coolDown
        self.clock = clock
    }

    public func isOpen(_ host: String) -> Bool {
        let now = clock.now()
        return downUntil.withLock { table in
            guard let until = table[host] else { return false }
            if until <= now {
                table[host] = nil
                return false
            }
            return true
        }
    }

    public func recordUnreachable(_ host: String) {
        let until = clock.now().addingTimeInterval(coolDown)
        downUntil.withLock { $0[host] = until }
    }

    public func recordSuccess(_ host: String) {
        downUntil.withLock { $0[host] = nil }
    }
}
