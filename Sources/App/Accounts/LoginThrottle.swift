import FluentKit
import Foundation
import SQLKit

/// At most `limit` failed sign-ins per username and per client address in a sliding `window`
/// (OWASP ASVS 2.2.1). Kept in the database, so every server counts the same attempts. Usernames
/// are counted whether or not they exist, so the answer never reveals an account.
struct LoginThrottle: Sendable {
    static let limit = 10
    static let window: TimeInterval = 15 * 60

    let database: AppDatabase
    let clock: any AppClock

    /// Seconds to wait before another attempt, or nil when one is allowed.
    func retryAfter(username: String, address: String) async throws -> Int? {
        let since = clock.now().addingTimeInterval(-Self.window)
        var waits: [Int] = []
        for (column, value) in [("username", username), ("address", address)] {
            let rows = try await database.sql.raw(
                """
                SELECT failed_at FROM login_failures WHERE \(ident: column) = \(bind: value) AND failed_at > \(bind: since)
                ORDER BY failed_at DESC LIMIT \(unsafeRaw: String(Self.limit))
                """
            ).all()
            guard rows.count >= Self.limit, let oldest = try rows.last?.decode(column: "failed_at", as: Date.self) else { continue }
            waits.append(max(1, Int((oldest.addingTimeInterval(Self.window).timeIntervalSince(clock.now())).rounded(.up))))
        }
        return waits.max()
    }

    func recordFailure(username: String, address: String) async throws {
        try await database.sql.insert(into: "login_failures")
            .columns("id", "username", "address", "failed_at")
            .values(SQLBind(UUID()), SQLBind(username), SQLBind(address), SQLBind(clock.now()))
            .run()
        // Old rows are of no use: drop them now and then.
        if Int.random(in: 0..<50) == 0 {
            try await database.sql.raw("DELETE FROM login_failures WHERE failed_at < \(bind: clock.now().addingTimeInterval(-Self.window))").run()
        }
    }

    /// A successful sign-in clears its username's count (the address keeps its own).
    func clear(username: String) async throws {
        try await database.sql.raw("DELETE FROM login_failures WHERE username = \(bind: username)").run()
    }
}
