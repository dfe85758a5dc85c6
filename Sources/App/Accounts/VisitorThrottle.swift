import Foundation

/// At most `limit` visitor profiles started per client address in an hour, counted in the database
/// (`visitor_starts`) so every server sees them. A visitor starts with its first write (a save, a
/// note, a remembered search over the API); a client that keeps no cookie would otherwise leave a
/// profile and a session behind with every write, for the clean-up to find a month later.
struct VisitorThrottle: Sendable {
    static let window: TimeInterval = 3600

    /// A write that would start a visitor, refused: seconds until the address may start one again.
    struct Refused: DomainFailure, Equatable {
        let retryAfter: Int

        var message: String {
            "Too many new visitors from your network in the last hour. Sign in, or try again in \(AccountService.Failure.minutes(retryAfter))."
        }
    }

    let starts: AttemptWindow

    /// nil when `limit` is 0 (no limit).
    init?(database: AppDatabase, clock: any AppClock, limit: Int) {
        guard limit > 0 else { return nil }
        starts = Self.window(database: database, clock: clock, limit: limit)
    }

    /// The window over `visitor_starts` (the clean-up sweeps it whatever the limit).
    static func window(database: AppDatabase, clock: any AppClock, limit: Int = 1) -> AttemptWindow {
        AttemptWindow(database: database, clock: clock, table: "visitor_starts", timeColumn: "started_at", limit: limit, window: window)
    }

    /// Counts a new visitor for `address`; throws `Refused` past the limit.
    func admit(address: String) async throws {
        if case .refused(let wait) = try await starts.admit([("address", address)]) { throw Refused(retryAfter: wait) }
    }
}
