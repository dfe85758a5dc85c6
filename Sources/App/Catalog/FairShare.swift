import Foundation

/// Whom the upstream calls made while answering a request count against: an account (in
/// whatever browser or with whatever token) or, for anyone not signed in, the client address. Set
/// for the request by the web layer; read by `CachedUpstream` through the task-local.
public struct UpstreamClient: Sendable {
    @TaskLocal public static var current: UpstreamClient?

    /// "account:<uuid>" or "address:<ip>".
    public let key: String

    public init(account: UUID?, address: String?) {
        key = account.map { "account:\($0.uuidString)" } ?? "address:\(address ?? "unknown")"
    }
}

/// A limit aimed at abuse, not at people: one client (an account, or an address for anyone not
/// signed in) causes at most `limit` upstream calls in a sliding `window`, counted in the database
/// (`upstream_shares`) so every server counts the same calls. A client over it is never refused:
/// its call is not made, and the page shows what is kept or the local title index, marked, as for
/// any other limit. The upstreams' own limits are kept by `HostThrottle`, for the whole deployment.
public struct ClientShare: Sendable {
    let window: AttemptWindow

    /// Rates no person reaches by hand: 30 new iTunes lookups a minute (a new year, search or film
    /// every two seconds, for a minute), 60 TVMaze calls, 100 OMDb calls a day (a tenth of the key's
    /// 1,000). iTunes answers about 20 a minute for the whole server, so its throttle binds first;
    /// the share stops one client from holding TVMaze's and OMDb's for itself.
    public struct Limits: Sendable, Equatable {
        public var itunesPerMinute = 30
        public var tvmazePerMinute = 60
        public var omdbPerDay = 100
        public init() {}
    }

    init(api: String, limit: Int, window: TimeInterval, database: AppDatabase, clock: any AppClock) {
        self.window = AttemptWindow(
            database: database, clock: clock, table: "upstream_shares", timeColumn: "called_at", limit: limit, window: window,
            scope: ("api", api)
        )
    }

    /// The share of each upstream under `limits`; nil where its limit is 0.
    static func itunes(_ limits: Limits, database: AppDatabase, clock: any AppClock) -> ClientShare? {
        make("itunes", limits.itunesPerMinute, 60, database, clock)
    }

    static func tvmaze(_ limits: Limits, database: AppDatabase, clock: any AppClock) -> ClientShare? {
        make("tvmaze", limits.tvmazePerMinute, 60, database, clock)
    }

    static func omdb(_ limits: Limits, database: AppDatabase, clock: any AppClock) -> ClientShare? {
        make("omdb", limits.omdbPerDay, 86_400, database, clock)
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
        _ api: String, _ limit: Int, _ window: TimeInterval, _ database: AppDatabase, _ clock: any AppClock
    ) -> ClientShare? {
        guard limit > 0 else { return nil }
        return ClientShare(api: api, limit: limit, window: window, database: database, clock: clock)
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
