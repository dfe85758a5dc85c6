import Foundation
import SQLKit

extension AppServices {
    /// The gauges read at each scrape: queues in memory, import jobs, and database connections.
    func collectGauges() {
        let (metrics, database, tracker, logger) = (metrics, database, offers.tracker, logger)
        let impressions = metrics.gauge("offer_impressions_queued")
        let clicks = metrics.gauge("offer_clicks_queued")
        let writes = metrics.gauge("db_write_transactions")
        let failedWrites = metrics.gauge("db_write_failures")
        let maxConnections = metrics.gauge("db_pool_connections_max")
        let maxCount = database.maxConnections
        metrics.collect {
            let queued = tracker.queueLengths
            impressions.record(queued.impressions)
            clicks.record(queued.clicks)
            writes.record(database.writesInFlight.load(ordering: .relaxed))
            failedWrites.record(database.writeFailures.load(ordering: .relaxed))
            maxConnections.record(maxCount)
        }
        // Every state is recorded each time, so one that empties reads 0 rather than its last count.
        let jobStates = ["loading", "queued", "running"]
        let jobs = Dictionary(uniqueKeysWithValues: jobStates.map { ($0, metrics.gauge("import_jobs", [("state", $0)])) })
        let pendingRows = metrics.gauge("import_rows_pending")
        // PostgreSQL only: SQLite's connections are opened once and never leave the process.
        let connectionStates = database.isPostgres ? ["active", "idle", "idle in transaction"] : []
        let connections = Dictionary(
            uniqueKeysWithValues: connectionStates.map { ($0, metrics.gauge("db_pool_connections", [("state", $0)])) })
        metrics.collect {
            do {
                let rows = try await database.sql.raw(
                    """
                    SELECT state, COUNT(*) AS jobs, COALESCE(SUM(pending_rows), 0) AS pending FROM import_jobs
                    WHERE state IN ('loading', 'queued', 'running') GROUP BY state
                    """
                ).all()
                var counts: [String: Int] = [:]
                var pending = 0
                for row in rows {
                    counts[try row.decode(column: "state", as: String.self)] = try row.decode(column: "jobs", as: Int.self)
                    pending += try row.decode(column: "pending", as: Int.self)
                }
                for (state, gauge) in jobs { gauge.record(counts[state] ?? 0) }
                pendingRows.record(pending)
                let open = try await database.connectionStates()
                for (state, gauge) in connections { gauge.record(open[state] ?? 0) }
            } catch {
                logger.warning("metrics: a gauge could not be read", metadata: ["error": "\(error)"])
            }
        }
    }
}
