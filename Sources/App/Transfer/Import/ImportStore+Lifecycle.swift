import Foundation
import SQLKit

/// A job's life once its rows are stored: taken up by a server, its lease kept while a server works on it, a pause for
/// an upstream's allowance, done, cancelled; and what it keeps of its rows afterwards.
extension ImportStore {
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
                run_started_at = \(bind: now), run_started_pending = pending_rows, next_try_at = NULL, message = NULL, updated_at = \(bind: now)
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
        try await compact(job: job)
    }

    /// A settled row keeps what its report line says (file, line, title, year, what became of it)
    /// and lets go of the rest of what the file said (`data`); rows in Needs a match, and rows kept
    /// as they are, keep theirs.
    func compact(job: UUID) async throws {
        try await database.writeSQL { sql in
            try await sql.raw(
                "UPDATE import_rows SET data = '{}' WHERE job_id = \(bind: job) AND state IN ('landed', 'failed', 'skipped') AND data <> '{}'"
            ).run()
        }
    }

    /// Stops the person's import under way, whether its file is still being read or its rows are
    /// being matched. Rows not yet dealt with are deleted (an upload cancelled and sent again used to
    /// leave 200,000 rows behind each time) and counted in `cancelled_rows` for the report; a job
    /// still loading loses every row it stored.
    func cancel(profile: UUID) async throws -> Bool {
        let now = clock.now()
        let cancelled = try await database.writeSQL { sql -> UUID? in
            guard
                let job = try await sql.raw(
                    """
                    SELECT id FROM import_jobs WHERE profile_id = \(bind: profile) AND state IN ('loading', 'queued', 'running')
                    """
                ).first(decodingColumn: "id", as: UUID.self)
            else { return nil }
            let wasLoading: SQLQueryString = "(SELECT state FROM import_jobs WHERE id = \(bind: job)) = 'loading'"
            let dropped =
                try await sql.raw(
                    "SELECT COUNT(*) AS n FROM import_rows WHERE job_id = \(bind: job) AND (state = 'pending' OR \(wasLoading))"
                ).first(decodingColumn: "n", as: Int.self) ?? 0
            try await sql.raw("DELETE FROM import_rows WHERE job_id = \(bind: job) AND (state = 'pending' OR \(wasLoading))").run()
            try await sql.raw(
                """
                UPDATE import_jobs SET state = 'cancelled', lease_owner = NULL, lease_until = NULL, finished_at = \(bind: now),
                updated_at = \(bind: now), message = NULL, cancelled_rows = \(bind: dropped), pending_rows = 0,
                stored_rows = (SELECT COUNT(*) FROM import_rows WHERE job_id = \(bind: job)) WHERE id = \(bind: job)
                """
            ).run()
            return job
        }
        guard let cancelled else { return false }
        try await compact(job: cancelled)
        return true
    }
}
