import Foundation

/// At most `limit` sign-ups per client address in an hour, counted in the database
/// (`signup_attempts`) so every server sees them. Every sign-up that reaches the password hash
/// counts, a taken name included; a form refused for its rules does not (it costs nothing).
struct SignUpThrottle: Sendable {
    static let limit = 5
    static let window: TimeInterval = 3600

    let attempts: AttemptWindow

    init(database: AppDatabase, clock: any AppClock) {
        attempts = AttemptWindow(
            database: database, clock: clock, table: "signup_attempts", timeColumn: "attempted_at", limit: Self.limit, window: Self.window
        )
    }

    /// The sign-up, counted; throws `tooManySignUps` when the address is over the limit.
    func begin(address: String) async throws -> AttemptWindow.Ticket {
        switch try await attempts.admit([("address", address)]) {
        case .allowed(let ticket): return ticket
        case .refused(let wait): throw AccountService.Failure.tooManySignUps(retryAfter: wait)
        }
    }

    /// The sign-up was not tried (the hasher was busy): it does not count.
    func abandon(_ ticket: AttemptWindow.Ticket) async {
        try? await attempts.remove(ticket)
    }
}
