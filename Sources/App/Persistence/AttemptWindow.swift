import Foundation
import SQLKit

/// Attempts counted in a sliding window, per key (a username, a client address), in the database so
/// every server counts the same ones.
///
/// Check and record are one step: an attempt's row is written first, then the rows in the window
/// are counted, its own included. Two attempts at once each see the other (whichever commits
/// second counts both), so no more than `limit` ever get through; one over the limit deletes its
/// row again and is told how long to wait. Counting first and writing after let 60 parallel
/// guesses all through.
struct AttemptWindow: Sendable {
    let database: AppDatabase
    let clock: any AppClock
    /// Literal names: the table, and the column holding the attempt's time.
    let table: String
    let timeColumn: String
    let limit: Int
    let window: TimeInterval
    /// A column and value every row of this window has, when one table holds several windows
    /// (`upstream_shares`: one per upstream); its rows are the only ones counted and swept.
    var scope: (column: String, value: String)?

    /// An admitted attempt: its row, until it is cleared or kept as a failure.
    struct Ticket: Sendable, Equatable {
        let id: UUID
    }

    enum Admission: Sendable, Equatable {
        case allowed(Ticket)
        /// Over the limit for one of the keys: seconds until an attempt is allowed again.
        case refused(retryAfter: Int)
    }

    func admit(_ keys: [(column: String, value: String)]) async throws -> Admission {
        let id = UUID()
        let now = clock.now()
        let row = attempt(id, keys, at: now)
        try await database.writeSQL { [table] sql in
            try await sql.insert(into: table).columns(row.columns).values(row.values).run()
        }
        var waits: [Int] = []
        for key in keys {
            let times = try await recent(key, before: now, count: limit + 1, on: database.sql)
            guard times.count > limit else { continue }
            // This attempt is among the newest; the others' limit-th newest must leave the window.
            waits.append(wait(until: times[limit], now: now))
        }
        guard let wait = waits.max() else { return .allowed(Ticket(id: id)) }
        try await remove(Ticket(id: id))
        return .refused(retryAfter: wait)
    }

    /// The same check and record for one key, exact however many ask at once: one write
    /// serialized per key (SQLite's one writer; on PostgreSQL the key's advisory lock) counts the
    /// window and records the attempt only when there is room. `admit` can refuse every one of a
    /// burst of attempts; this admits exactly `limit` of them (the upstreams' throttles, where
    /// refusing a call needlessly serves an offline page).
    func admitSerialized(_ key: (column: String, value: String)) async throws -> Admission {
        let id = UUID()
        let now = clock.now()
        let row = attempt(id, [key], at: now)
        return try await database.write(serializedBy: "\(table)|\(scope?.value ?? "")|\(key.value)") { [self] db in
            let sql = db as! any SQLDatabase
            let times = try await recent(key, before: now, count: limit, on: sql)
            if times.count >= limit { return .refused(retryAfter: wait(until: times[limit - 1], now: now)) }
            try await sql.insert(into: table).columns(row.columns).values(row.values).run()
            return .allowed(Ticket(id: id))
        }
    }

    /// An attempt's row: its id, its keys and scope, its time.
    private func attempt(_ id: UUID, _ keys: [(column: String, value: String)], at now: Date) -> (columns: [String], values: [any SQLExpression]) {
        let stored = keys + (scope.map { [$0] } ?? [])
        return (["id"] + stored.map(\.column) + [timeColumn], [SQLBind(id)] + stored.map { SQLBind($0.value) } + [SQLBind(now)])
    }

    /// The times of a key's newest `count` attempts in the window ending at `now`, newest first.
    private func recent(_ key: (column: String, value: String), before now: Date, count: Int, on sql: any SQLDatabase) async throws -> [Date] {
        try await sql.raw(
            """
            SELECT \(ident: timeColumn) AS at FROM \(ident: table)
            WHERE \(ident: key.column) = \(bind: key.value) AND \(ident: timeColumn) > \(bind: now.addingTimeInterval(-window))\(inScope)
            ORDER BY \(ident: timeColumn) DESC LIMIT \(unsafeRaw: String(count))
            """
        ).all().map { try $0.decode(column: "at", as: Date.self) }
    }

    /// Whole seconds (at least 1) until the attempt made at `oldest` leaves the window.
    private func wait(until oldest: Date, now: Date) -> Int {
        max(1, Int(oldest.addingTimeInterval(window).timeIntervalSince(now).rounded(.up)))
    }

    /// ` AND <scope column> = <value>`, or nothing.
    private var inScope: SQLQueryString {
        guard let scope else { return "" }
        return " AND \(ident: scope.column) = \(bind: scope.value)"
    }

    /// The attempt no longer counts (it succeeded, or ended before its answer).
    func remove(_ ticket: Ticket) async throws {
        try await database.writeSQL { sql in
            try await sql.raw("DELETE FROM \(ident: table) WHERE id = \(bind: ticket.id)").run()
        }
    }

    /// Every attempt of a key goes (a right password clears its username's count).
    func clear(_ column: String, _ value: String) async throws {
        try await database.writeSQL { sql in
            try await sql.raw("DELETE FROM \(ident: table) WHERE \(ident: column) = \(bind: value)").run()
        }
    }

    /// Deletes up to `batch` rows that have left the window; returns how many (the clean-up's step).
    func sweep(batch: Int) async throws -> Int {
        let before = clock.now().addingTimeInterval(-window)
        return try await database.writeSQL { sql in
            let ids = try await sql.raw(
                "SELECT id FROM \(ident: table) WHERE \(ident: timeColumn) <= \(bind: before)\(inScope) LIMIT \(unsafeRaw: String(batch))"
            ).all().map { try $0.decode(column: "id", as: UUID.self) }
            guard !ids.isEmpty else { return 0 }
            try await sql.raw("DELETE FROM \(ident: table) WHERE id IN (\(binds: ids.map { $0 as any Encodable & Sendable }))").run()
            return ids.count
        }
    }
}
