import Crypto
import Foundation
import SQLKit
import Synchronization

/// Secrets every server of a deployment shares (`deployment_keys`): the first server to ask makes
/// one (an insert that loses to another server's does nothing) and every server then reads the same
/// row, so what one signs another verifies. Kept in memory once read: a key never changes.
final class DeploymentKeys: Sendable {
    /// Signs the visitor ids the server hands out and keys the hash of client addresses.
    static let visitors = "visitors"

    let database: AppDatabase
    let clock: any AppClock
    private let known = Mutex<[String: SymmetricKey]>([:])

    struct Missing: Error {
        let name: String
    }

    init(database: AppDatabase, clock: any AppClock) {
        self.database = database
        self.clock = clock
    }

    func key(_ name: String) async throws -> SymmetricKey {
        if let key = known.withLock({ $0[name] }) { return key }
        let made = SessionService.newToken()
        let now = clock.now()
        try await database.writeSQL { sql in
            try await sql.raw(
                "INSERT INTO deployment_keys (name, secret, created_at) VALUES (\(bind: name), \(bind: made), \(bind: now)) ON CONFLICT (name) DO NOTHING"
            ).run()
        }
        guard
            let secret = try await database.sql.raw("SELECT secret FROM deployment_keys WHERE name = \(bind: name)")
                .first(decodingColumn: "secret", as: String.self)
        else { throw Missing(name: name) }
        known.withLock { $0[name] = SymmetricKey(data: Data(secret.utf8)) }
        return SymmetricKey(data: Data(secret.utf8))
    }
}
