import Foundation
import Synchronization

/// Whom the upstream calls made while answering a request count against: an account (in
/// whatever browser or with whatever token) or, for anyone not signed in, the client address. Set
/// for the request by the web layer; read by `CachedUpstream` through the task-local.
public final class UpstreamClient: Sendable {
    @TaskLocal public static var current: UpstreamClient?

    /// "account:<uuid>" or "address:<ip>".
    public let key: String
    private let refusal = Mutex<Int?>(nil)

    public init(account: UUID?, address: String?) {
        key = account.map { "account:\($0.uuidString)" } ?? "address:\(address ?? "unknown")"
    }

    /// Seconds until this client may cause an upstream call again, when an answer it asked for was
    /// refused for its share and nothing was cached to stand in; nil otherwise.
    public var retryAfter: Int? { refusal.withLock { $0 } }

    func refused(retryAfter seconds: Int) {
        refusal.withLock { $0 = max($0 ?? 0, seconds) }
    }
}

/// One client's fair share of an upstream's allowance: at most `limit` calls in a sliding
/// `window`, counted in the database (`upstream_shares`) so every server counts the same calls.
/// A client over its share is refused before the shared allowance is touched, so one client
/// searching for new titles non-stop leaves the rest of the allowance to everyone else.
public struct ClientShare: Sendable {
    /// What the client is told when a refusal leaves nothing to show: iTunes and TVMaze answers
    /// are the page, so the request is answered 429 with Retry-After; OMDb only adds details to a
    /// search, which is shown without them.
    public enum Refusal: Sendable {
        case tooManyRequests
        case leaveOut
    }

    let window: AttemptWindow
    public let refusal: Refusal

    /// A fair share per upstream: a quarter of iTunes' ~20 calls a minute, a quarter of TVMaze's
    /// 20 per 10 s, a tenth of OMDb's 1,000 a day.
    public struct Limits: Sendable, Equatable {
        public var itunesPerMinute = 5
        public var tvmazePerMinute = 30
        public var omdbPerDay = 100
        public init() {}
    }

    init(api: String, limit: Int, window: TimeInterval, refusal: Refusal, database: AppDatabase, clock: any AppClock) {
        self.window = AttemptWindow(
            database: database, clock: clock, table: "upstream_shares", timeColumn: "called_at", limit: limit, window: window,
            scope: ("api", api)
        )
        self.refusal = refusal
    }

    /// The share of each upstream under `limits`; nil where its limit is 0.
    static func itunes(_ limits: Limits, database: AppDatabase, clock: any AppClock) -> ClientShare? {
        make("itunes", limits.itunesPerMinute, 60, .tooManyRequests, database, clock)
    }

    static func tvmaze(_ limits: Limits, database: AppDatabase, clock: any AppClock) -> ClientShare? {
        make("tvmaze", limits.tvmazePerMinute, 60, .tooManyRequests, database, clock)
    }

    static func omdb(_ limits: Limits, database: AppDatabase, clock: any AppClock) -> ClientShare? {
        make("omdb", limits.omdbPerDay, 86_400, .leaveOut, database, clock)
    }

    /// Every share, for the clean-up (whatever the limits, old rows go).
    static func all(database: AppDatabase, clock: any AppClock) -> [ClientShare] {
        let limits = Limits()
        return [
            itunes(limits, database: database, clock: clock), tvmaze(limits, database: database, clock: clock),
            omdb(limits, database: database, clock: clock),
        ]
        .compactMap { $0 }
    }

    private static func make(
        _ api: String, _ limit: Int, _ window: TimeInterval, _ refusal: Refusal, _ database: AppDatabase, _ clock: any AppClock
    ) -> ClientShare? {
        guard limit > 0 else { return nil }
        return ClientShare(api: api, limit: limit, window: window, refusal: refusal, database: database, clock: clock)
    }

    enum Admission: Sendable, Equatable {
        /// Counted; `release` it if the call is not made after all.
        case allowed(AttemptWindow.Ticket?)
        case refused(retryAfter: Int)
    }

    /// Counts a call for `client`. A database failure lets the call through (the shared throttle
    /// and budget still hold).
    func admit(_ client: UpstreamClient) async -> Admission {
        switch try? await window.admit([("client", client.key)]) {
        case .allowed(let ticket): .allowed(ticket)
        case .refused(let wait): .refused(retryAfter: wait)
        case nil: .allowed(nil)
        }
    }

    /// The call was not made (the shared throttle or budget refused it): it does not count.
    func release(_ admission: Admission) async {
        guard case .allowed(let ticket?) = admission else { return }
        try? await window.remove(ticket)
    }

    /// The clean-up's step: rows that have left the window.
    func sweep(batch: Int) async throws -> Int {
        try await window.sweep(batch: batch)
    }
}
