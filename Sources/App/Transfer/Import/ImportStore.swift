import Foundation
import SQLKit

/// The imports in the database: every server sees the same jobs, claims one at a time under a
/// lease (a server that stops lets its lease run out, and another takes the job up where it
/// stood), and counts rows in the same write that settles them.
struct ImportStore: Sendable {
    /// A server holding a job renews its lease while it works; one that stops frees it after this.
    static let lease: TimeInterval = 60
    /// A job still loading after this long was left by a server that stopped mid-upload.
    static let abandonedLoading: TimeInterval = 15 * 60
    static let insertBatch = 400

    let database: AppDatabase
    let clock: any AppClock

    struct Busy: DomainFailure {}

    /// A new job, `loading`; `Busy` when the person has an import under way.
    func begin(profile: UUID, source: ImportSource, fileName: String) async throws -> UUID {
        let id = UUID()
        let now = clock.now()
        try await database.write(serializedBy: profile.uuidString) { db in
            let sql = db as! any SQLDatabase
            try await sql.delete(from: "import_jobs").where("profile_id", .equal, SQLBind(profile))
                .where("state", .equal, SQLBind(ImportJob.State.loading.rawValue))
                .where("updated_at", .lessThan, SQLBind(now.addingTimeInterval(-Self.abandonedLoading))).run()
            let active = try await sql.select().column("id").from("import_jobs").where("profile_id", .equal, SQLBind(profile))
                .where("state", .in, SQLBind.group(["loading", "queued", "running"])).first()
            guard active == nil else { throw Busy() }
            try await sql.insert(into: "import_jobs")
                .columns(
                    "id", "profile_id", "source", "file_name", "state", "total_rows", "pending_rows", "landed_rows", "queued_rows", "failed_rows",
                    "skipped_rows", "created_at", "updated_at"
                )
                .values(
                    SQLBind(id), SQLBind(profile), SQLBind(source.rawValue), SQLBind(String(fileName.prefix(200))),
                    SQLBind(ImportJob.State.loading.rawValue), SQLBind(0), SQLBind(0), SQLBind(0), SQLBind(0), SQLBind(0), SQLBind(0),
                    SQLBind(now), SQLBind(now)
                ).run()
        }
        return id
    }

    /// Stores a file's rows (pending) and the rows it could not read (failed at "read"), numbered
    /// on from `first`, a batch at a time (each encoded only when its batch is written); returns
    /// the next number. Every text is capped first (`ImportRow.bounded`), and each batch keeps the
    /// job's `updated_at` fresh, so a long upload is not taken for an abandoned one.
    func append(job: UUID, rows: [ImportRow], problems: [ImportProblem], from first: Int) async throws -> Int {
        let encoder = JSONEncoder()
        var number = first
        let total = rows.count + problems.count
        for start in stride(from: 0, to: total, by: Self.insertBatch) {
            var values: [[any SQLExpression]] = []
            for index in start..<min(total, start + Self.insertBatch) {
                if index < rows.count {
                    let row = rows[index].bounded()
                    values.append([
                        SQLBind(job), SQLBind(number), SQLBind(row.file), SQLBind(row.line), SQLBind(row.title), SQLBind(row.year),
                        SQLBind(row.watchedOn), SQLBind(String(decoding: try encoder.encode(row), as: UTF8.self)),
                        SQLBind(ImportRowState.pending.rawValue), SQLBind(String?.none), SQLBind(String?.none),
                    ])
                } else {
                    let problem = problems[index - rows.count]
                    values.append([
                        SQLBind(job), SQLBind(number), SQLBind(ImportRow.bounded(file: problem.file)), SQLBind(problem.line), SQLBind(""),
                        SQLBind(Int?.none), SQLBind(String?.none), SQLBind("{}"), SQLBind(ImportRowState.failed.rawValue),
                        SQLBind(problem.step), SQLBind(String(problem.reason.prefix(500))),
                    ])
                }
                number += 1
            }
            let now = clock.now()
            try await database.writeSQL { [values] sql in
                var insert = sql.insert(into: "import_rows").columns(
                    "job_id", "row_no", "file", "line", "title", "year", "watched_on", "data", "state", "step", "reason")
                for row in values { insert = insert.values(row) }
                try await insert.run()
                try await sql.update("import_jobs").set("updated_at", to: SQLBind(now)).where("id", .equal, SQLBind(job)).run()
            }
        }
        return number
    }

    /// The rows are all stored: the job is counted and queued for the servers' workers.
    func queue(job: UUID) async throws {
        let now = clock.now()
        try await database.writeSQL { sql in
            try await sql.raw(
                """
                UPDATE import_jobs SET state = 'queued', updated_at = \(bind: now),
                total_rows = (SELECT COUNT(*) FROM import_rows WHERE job_id = \(bind: job)),
                pending_rows = (SELECT COUNT(*) FROM import_rows WHERE job_id = \(bind: job) AND state = 'pending'),
                failed_rows = (SELECT COUNT(*) FROM import_rows WHERE job_id = \(bind: job) AND state = 'failed')
                WHERE id = \(bind: job)
                """
            ).run()
        }
    }

    /// An upload that could not be read changes nothing: its job and rows go.
    func discard(job: UUID) async throws {
        try await database.writeSQL { sql in try await sql.delete(from: "import_jobs").where("id", .equal, SQLBind(job)).run() }
    }

    /// Takes the oldest job no live server holds (and not told to wait), for `lease` seconds.
    /// `only`: that job or none (the command line works on its own import).
    func claim(owner: String, only: UUID? = nil) async throws -> ImportJob? {
        let now = clock.now()
        // A read first: the worker asks every two seconds, and a write transaction each time
        // would hold SQLite's writer for nothing.
        let anyFree = try await database.sql.raw(
            """
            SELECT id FROM import_jobs WHERE state IN ('queued', 'running') AND (lease_until IS NULL OR lease_until < \(bind: now))
            AND (next_try_at IS NULL OR next_try_at <= \(bind: now)) LIMIT 1
            """
        ).first()
        guard anyFree != nil else { return nil }
        return try await database.writeSQL { sql in
            let free: SQLQueryString = "(lease_until IS NULL OR lease_until < \(bind: now)) AND (next_try_at IS NULL OR next_try_at <= \(bind: now))"
            let which: SQLQueryString = only.map { "AND id = \(bind: $0)" } ?? ""
            guard
                let id = try await sql.raw(
                    "SELECT id FROM import_jobs WHERE state IN ('queued', 'running') AND \(free) \(which) ORDER BY created_at LIMIT 1"
                ).first(decodingColumn: "id", as: UUID.self)
            else { return nil }
            // The same condition again: on PostgreSQL another server may have taken it in between.
            let taken = try await sql.raw(
                """
                UPDATE import_jobs SET state = 'running', lease_owner = \(bind: owner), lease_until = \(bind: now.addingTimeInterval(Self.lease)),
                run_started_at = \(bind: now), run_started_pending = pending_rows, next_try_at = NULL, updated_at = \(bind: now)
                WHERE id = \(bind: id) AND state IN ('queued', 'running') AND \(free) RETURNING id
                """
            ).first(decodingColumn: "id", as: UUID.self)
            guard taken != nil else { return nil }
            return try await Self.job(sql, id: id)
        }
    }

    /// Keeps the lease; false when the job is no longer this server's to run (cancelled, taken over).
    func renew(job: UUID, owner: String) async throws -> Bool {
        let now = clock.now()
        return try await database.writeSQL { sql in
            try await sql.raw(
                """
                UPDATE import_jobs SET lease_until = \(bind: now.addingTimeInterval(Self.lease))
                WHERE id = \(bind: job) AND lease_owner = \(bind: owner) AND state = 'running' RETURNING id
                """
            ).first() != nil
        }
    }

    /// Lets the job go until `after` (an upstream's allowance is spent), saying why on its page.
    func pause(job: UUID, owner: String, for seconds: Int, message: String) async throws {
        let now = clock.now()
        try await database.writeSQL { sql in
            try await sql.update("import_jobs").set("lease_owner", to: SQLLiteral.null).set("lease_until", to: SQLLiteral.null)
                .set("next_try_at", to: SQLBind(now.addingTimeInterval(TimeInterval(seconds)))).set("message", to: SQLBind(message))
                .set("updated_at", to: SQLBind(now))
                .where("id", .equal, SQLBind(job)).where("lease_owner", .equal, SQLBind(owner)).run()
        }
    }

    /// No row is pending any more: done (rows may still wait in Needs a match).
    func finish(job: UUID, owner: String) async throws {
        let now = clock.now()
        try await database.writeSQL { sql in
            try await sql.raw(
                """
                UPDATE import_jobs SET state = 'done', message = NULL, lease_owner = NULL, lease_until = NULL, finished_at = \(bind: now),
                updated_at = \(bind: now), pending_rows = 0 WHERE id = \(bind: job) AND lease_owner = \(bind: owner) AND state = 'running'
                AND NOT EXISTS (SELECT 1 FROM import_rows WHERE job_id = \(bind: job) AND state = 'pending')
                """
            ).run()
        }
    }

    /// Stops the person's import under way; rows not yet dealt with stay pending (in the report).
    func cancel(profile: UUID) async throws -> Bool {
        let now = clock.now()
        return try await database.writeSQL { sql in
            try await sql.raw(
                """
                UPDATE import_jobs SET state = 'cancelled', lease_owner = NULL, lease_until = NULL, finished_at = \(bind: now),
                updated_at = \(bind: now), message = NULL WHERE profile_id = \(bind: profile) AND state IN ('queued', 'running') RETURNING id
                """
            ).first() != nil
        }
    }

    /// The person's latest import.
    func latest(profile: UUID) async throws -> ImportJob? {
        guard
            let id = try await database.sql.select().column("id").from("import_jobs").where("profile_id", .equal, SQLBind(profile))
                .where("state", .notEqual, SQLBind(ImportJob.State.loading.rawValue))
                .orderBy("created_at", .descending).limit(1).first(decodingColumn: "id", as: UUID.self)
        else { return nil }
        return try await Self.job(database.sql, id: id)
    }

    func job(_ id: UUID) async throws -> ImportJob? { try await Self.job(database.sql, id: id) }

    static func job(_ sql: any SQLDatabase, id: UUID) async throws -> ImportJob? {
        try await sql.select().column(SQLLiteral.all).from("import_jobs").where("id", .equal, SQLBind(id)).first(decoding: JobRow.self).map(\.job)
    }

    private struct JobRow: Decodable {
        var id: UUID
        var profile_id: UUID
        var source: String
        var file_name: String
        var state: String
        var message: String?
        var total_rows, pending_rows, landed_rows, queued_rows, failed_rows, skipped_rows: Int
        var created_at, updated_at: Date
        var run_started_at: Date?
        var run_started_pending: Int?
        var finished_at: Date?

        var job: ImportJob {
            ImportJob(
                id: id, profileID: profile_id, source: ImportSource(rawValue: source) ?? .letterboxd, fileName: file_name,
                state: ImportJob.State(rawValue: state) ?? .failed, message: message, total: total_rows, pending: pending_rows,
                landed: landed_rows, queued: queued_rows, failed: failed_rows, skipped: skipped_rows, createdAt: created_at, updatedAt: updated_at,
                runStartedAt: run_started_at, runStartedPending: run_started_pending, finishedAt: finished_at)
        }
    }
}

extension ImportStore {
    /// A job done in one go (a backup restored): its counts, done.
    func complete(job: UUID, landed: Int, skipped: Int) async throws {
        let now = clock.now()
        try await database.writeSQL { sql in
            try await sql.update("import_jobs").set("state", to: SQLBind(ImportJob.State.done.rawValue)).set(
                "total_rows", to: SQLBind(landed + skipped)
            )
            .set("landed_rows", to: SQLBind(landed)).set("skipped_rows", to: SQLBind(skipped)).set("finished_at", to: SQLBind(now))
            .set("updated_at", to: SQLBind(now)).where("id", .equal, SQLBind(job)).run()
        }
    }

    /// The upload's source, once its bytes have told it.
    func setSource(job: UUID, _ source: ImportSource) async throws {
        try await database.writeSQL { sql in
            try await sql.update("import_jobs").set("source", to: SQLBind(source.rawValue)).where("id", .equal, SQLBind(job)).run()
        }
    }
}
