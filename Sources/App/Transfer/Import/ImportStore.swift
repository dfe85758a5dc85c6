import Foundation
import SQLKit

/// The imports in the database: every server sees the same jobs, claims one at a time under a
/// lease (a server that stops lets its lease run out, and another takes the job up where it
/// stood), and counts rows in the same write that settles them.
struct ImportStore: Sendable {
    /// A server holding a job renews its lease while it works; one that stops frees it after this.
    static let lease: TimeInterval = 60
    /// A job `loading` renews its lease with every batch of rows stored (a second or less apart);
    /// one whose lease ran out was left by a server that stopped mid-upload, and is failed by the
    /// next server that looks (the person's page, their next upload or their Cancel).
    static let loadingLease: TimeInterval = 15
    static let insertBatch = 400
    /// Import rows the whole deployment holds at most (every person's jobs): an upload past it is
    /// refused for now, with when to try again.
    static let deploymentRowLimit = 2_000_000
    /// Besides the new one, a person keeps their latest earlier import (its report, its rows in
    /// Needs a match); older ones go with their rows when a new upload begins. With 200,000 rows
    /// an upload, a person holds at most 400,000.
    static let keptEarlierJobs = 1
    /// Who holds a job while this process loads it.
    static let processOwner = "server-" + RequestTrace.newID().prefix(12)

    let database: AppDatabase
    let clock: any AppClock

    struct Busy: DomainFailure {}

    static let interrupted =
        "The upload was interrupted: the server reading it stopped. Nothing was imported; upload the file again."

    /// A new job, `loading`, held by this process; `Busy` when the person has an import under way.
    /// First the person's own housekeeping: a load left by a stopped server fails, imports older
    /// than the latest earlier one go. An upload past the deployment's row limit is refused.
    func begin(profile: UUID, source: ImportSource, fileName: String) async throws -> UUID {
        let id = UUID()
        let now = clock.now()
        try await reap(profile: profile)
        let stored = try await database.sql.raw("SELECT COALESCE(SUM(stored_rows), 0) AS n FROM import_jobs").first(decodingColumn: "n", as: Int.self)
        guard (stored ?? 0) < Self.deploymentRowLimit else {
            throw ImportRefused(
                message: "PopcornSwirl holds as many import rows as it can right now. Try again in an hour, when earlier imports have finished.",
                retryAfter: 3600)
        }
        try await database.write(serializedBy: profile.uuidString) { db in
            let sql = db as! any SQLDatabase
            let active = try await sql.select().column("id").from("import_jobs").where("profile_id", .equal, SQLBind(profile))
                .where("state", .in, SQLBind.group(["loading", "queued", "running"])).first()
            guard active == nil else { throw Busy() }
            // ON DELETE CASCADE takes their rows.
            try await sql.raw(
                """
                DELETE FROM import_jobs WHERE profile_id = \(bind: profile) AND id NOT IN (SELECT id FROM import_jobs
                WHERE profile_id = \(bind: profile) ORDER BY created_at DESC LIMIT \(unsafeRaw: String(Self.keptEarlierJobs)))
                """
            ).run()
            try await sql.insert(into: "import_jobs")
                .columns(
                    "id", "profile_id", "source", "file_name", "state", "total_rows", "pending_rows", "landed_rows", "queued_rows", "failed_rows",
                    "skipped_rows", "created_at", "updated_at", "lease_owner", "lease_until"
                )
                .values(
                    SQLBind(id), SQLBind(profile), SQLBind(source.rawValue), SQLBind(TextRules.withoutControls(String(fileName.prefix(200)))),
                    SQLBind(ImportJob.State.loading.rawValue), SQLBind(0), SQLBind(0), SQLBind(0), SQLBind(0), SQLBind(0), SQLBind(0),
                    SQLBind(now), SQLBind(now), SQLBind(Self.processOwner), SQLBind(now.addingTimeInterval(Self.loadingLease))
                ).run()
        }
        return id
    }

    /// Fails the person's loads whose server stopped (their lease ran out), deleting what they
    /// stored. A read first: the page asks this on every view.
    func reap(profile: UUID) async throws {
        let now = clock.now()
        let stale = try await database.sql.raw(
            """
            SELECT id FROM import_jobs WHERE profile_id = \(bind: profile) AND state = 'loading'
            AND (lease_until IS NULL OR lease_until < \(bind: now))
            """
        ).all().map { try $0.decode(column: "id", as: UUID.self) }
        for job in stale {
            try await database.writeSQL { sql in
                let failed = try await sql.raw(
                    """
                    UPDATE import_jobs SET state = 'failed', message = \(bind: Self.interrupted), lease_owner = NULL, lease_until = NULL,
                    finished_at = \(bind: now), updated_at = \(bind: now) WHERE id = \(bind: job) AND state = 'loading'
                    AND (lease_until IS NULL OR lease_until < \(bind: now)) RETURNING id
                    """
                ).first()
                if failed != nil { try await sql.raw("DELETE FROM import_rows WHERE job_id = \(bind: job)").run() }
            }
        }
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
                        SQLBind(Int?.none), SQLBind(String?.none), SQLBind("{}"),
                        SQLBind((problem.skipped ? ImportRowState.skipped : .failed).rawValue),
                        SQLBind(problem.step), SQLBind(TextRules.withoutControls(String(problem.reason.prefix(500)))),
                    ])
                }
                number += 1
            }
            let now = clock.now()
            try await database.writeSQL { [values] sql in
                // The lease first: a job cancelled (or failed by another server) while its file was
                // read takes no more rows.
                let held = try await sql.raw(
                    """
                    UPDATE import_jobs SET updated_at = \(bind: now), lease_until = \(bind: now.addingTimeInterval(Self.loadingLease))
                    WHERE id = \(bind: job) AND state = 'loading' RETURNING id
                    """
                ).first()
                guard held != nil else { throw ImportRefused(message: "The import was cancelled while your file was read: nothing was imported.") }
                var insert = sql.insert(into: "import_rows").columns(
                    "job_id", "row_no", "file", "line", "title", "year", "watched_on", "data", "state", "step", "reason")
                for row in values { insert = insert.values(row) }
                try await insert.run()
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
                UPDATE import_jobs SET state = 'queued', updated_at = \(bind: now), lease_owner = NULL, lease_until = NULL,
                total_rows = (SELECT COUNT(*) FROM import_rows WHERE job_id = \(bind: job)),
                stored_rows = (SELECT COUNT(*) FROM import_rows WHERE job_id = \(bind: job)),
                pending_rows = (SELECT COUNT(*) FROM import_rows WHERE job_id = \(bind: job) AND state = 'pending'),
                failed_rows = (SELECT COUNT(*) FROM import_rows WHERE job_id = \(bind: job) AND state = 'failed'),
                skipped_rows = (SELECT COUNT(*) FROM import_rows WHERE job_id = \(bind: job) AND state = 'skipped')
                WHERE id = \(bind: job)
                """
            ).run()
        }
    }

    /// An upload that could not be read changes nothing: its job and rows go (a job cancelled
    /// meanwhile stays, cancelled, for the person to see).
    func discard(job: UUID) async throws {
        try await database.writeSQL { sql in
            try await sql.delete(from: "import_jobs").where("id", .equal, SQLBind(job)).where("state", .equal, SQLBind("loading")).run()
        }
    }

    /// The person's latest import (one whose file is still being read included).
    func latest(profile: UUID) async throws -> ImportJob? {
        guard
            let id = try await database.sql.select().column("id").from("import_jobs").where("profile_id", .equal, SQLBind(profile))
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
        var cancelled_rows: Int
        var created_at, updated_at: Date
        var run_started_at: Date?
        var run_started_pending: Int?
        var finished_at: Date?

        var job: ImportJob {
            ImportJob(
                id: id, profileID: profile_id, source: ImportSource(rawValue: source) ?? .letterboxd, fileName: file_name,
                state: ImportJob.State(rawValue: state) ?? .failed, message: message, total: total_rows, pending: pending_rows,
                landed: landed_rows, queued: queued_rows, failed: failed_rows, skipped: skipped_rows, cancelledRows: cancelled_rows,
                createdAt: created_at, updatedAt: updated_at,
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
