import Foundation
import SQLKit

extension AppDatabase {
    /// One round trip (`SELECT 1`): whether the database answers at all.
    func ping() async throws {
        try await sql.raw("SELECT 1").run()
    }

    /// A write that changes nothing a person sees: the `leases` row named `ready-probe|<server>`,
    /// inserted and deleted in one transaction (nothing is left behind). It fails when no write can
    /// succeed: a full disk, a read-only database file, a PostgreSQL standby.
    func probeWrite(server: String) async throws {
        try await writeSQL { sql in
            let name = "ready-probe|" + server
            try await sql.raw(
                "INSERT INTO leases (name, owner, held_until) VALUES (\(bind: name), \(bind: server), \(bind: Date())) ON CONFLICT (name) DO NOTHING"
            ).run()
            try await sql.raw("DELETE FROM leases WHERE name = \(bind: name)").run()
        }
    }

    /// What the metrics show of this server's connections: on PostgreSQL, how many it has open in
    /// each state (`pg_stat_activity` by `application_name`), and the most its pools open.
    func connectionStates() async throws -> [String: Int] {
        guard isPostgres else { return [:] }
        let rows = try await sql.raw(
            """
            SELECT COALESCE(state, 'unknown') AS state, COUNT(*) AS n FROM pg_stat_activity
            WHERE application_name = \(bind: Self.applicationName) GROUP BY 1
            """
        ).all()
        var states: [String: Int] = [:]
        for row in rows { states[try row.decode(column: "state", as: String.self)] = try row.decode(column: "n", as: Int.self) }
        return states
    }

    /// The most connections this server opens: PostgreSQL's pools, or SQLite's readers and its writer.
    var maxConnections: Int {
        let loops = eventLoopGroup.makeIterator().reduce(0) { count, _ in count + 1 }
        return isPostgres ? loops * Self.postgresConnectionsPerLoop : loops + 1
    }
}
