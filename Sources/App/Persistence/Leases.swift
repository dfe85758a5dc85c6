import Foundation
import SQLKit

/// Work one server does at a time when several share the database (`leases`): taking a lease is
/// one statement — insert, or take over a row past its time or already ours — so two servers
/// asking at once never both get it.
struct Leases: Sendable {
    let database: AppDatabase
    let clock: any AppClock
    /// Who asks: one id per server (`AppServices.instance`).
    let owner: String

    /// Takes `name` for `seconds` unless another server holds it; true when this server now holds it.
    func take(_ name: String, for seconds: TimeInterval) async throws -> Bool {
        let now = clock.now()
        return try await database.writeSQL { [owner] sql in
            try await !sql.raw(
                """
                INSERT INTO leases (name, owner, held_until) VALUES (\(bind: name), \(bind: owner), \(bind: now.addingTimeInterval(seconds)))
                ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, held_until = excluded.held_until
                WHERE leases.held_until < \(bind: now) OR leases.owner = excluded.owner
                RETURNING owner
                """
            ).all().isEmpty
        }
    }

    /// Lets go of `name` if this server holds it.
    func release(_ name: String) async throws {
        try await database.writeSQL { [owner] sql in
            try await sql.raw("DELETE FROM leases WHERE name = \(bind: name) AND owner = \(bind: owner)").run()
        }
    }

    /// Whether any server holds `name` now.
    func isHeld(_ name: String) async throws -> Bool {
        try await !database.sql.raw(
            "SELECT 1 AS held FROM leases WHERE name = \(bind: name) AND held_until >= \(bind: clock.now())"
        ).all().isEmpty
    }

    /// Deletes up to `batch` leases long past their time (a server that stopped holding them).
    func sweep(batch: Int) async throws -> Int {
        let before = clock.now().addingTimeInterval(-3600)
        return try await database.writeSQL { sql in
            let names = try await sql.raw("SELECT name FROM leases WHERE held_until < \(bind: before) LIMIT \(unsafeRaw: String(batch))")
                .all().map { try $0.decode(column: "name", as: String.self) }
            guard !names.isEmpty else { return 0 }
            try await sql.raw("DELETE FROM leases WHERE name IN (\(binds: names.map { $0 as any Encodable & Sendable }))").run()
            return names.count
        }
    }
}
