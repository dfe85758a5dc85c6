import Foundation

/// At most `limit` failed sign-ins per username and per client address in a sliding `window`
/// (OWASP ASVS 2.2.1). Kept in the database (`login_failures`), so every server counts the same
/// attempts. Usernames are counted whether or not they exist, so the answer never reveals an account.
///
/// An attempt is written before its password is checked (see `AttemptWindow`) and stays as a
/// failure unless the password was right (`succeeded`, `withdraw`) or not checked (`withdraw`).
struct LoginThrottle: Sendable {
    static let limit = 10
    static let window: TimeInterval = 15 * 60

    let attempts: AttemptWindow

    init(database: AppDatabase, clock: any AppClock) {
        attempts = AttemptWindow(
            database: database, clock: clock, table: "login_failures", timeColumn: "failed_at", limit: Self.limit, window: Self.window
        )
    }

    struct Attempt: Sendable {
        let ticket: AttemptWindow.Ticket
        let username: String
    }

    /// The attempt, counted; throws `throttled` when the username or the address is over the limit.
    func begin(username: String, address: String) async throws -> Attempt {
        switch try await attempts.admit([("username", username), ("address", address)]) {
        case .allowed(let ticket): return Attempt(ticket: ticket, username: username)
        case .refused(let wait): throw AccountService.Failure.throttled(retryAfter: wait)
        }
    }

    /// A right password clears its username's count (the address keeps its own).
    func succeeded(_ attempt: Attempt) async throws {
        try await attempts.clear("username", attempt.username)
    }

    /// The attempt does not count: its password was not checked (the hasher was busy), or it was
    /// an account's own password asked again and right.
    func withdraw(_ attempt: Attempt) async {
        try? await attempts.remove(attempt.ticket)
    }
}
