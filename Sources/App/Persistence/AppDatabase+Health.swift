import SQLKit

extension AppDatabase {
    /// One round trip (`SELECT 1`): whether the database answers at all.
    func ping() async throws {
        try await sql.raw("SELECT 1").run()
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
