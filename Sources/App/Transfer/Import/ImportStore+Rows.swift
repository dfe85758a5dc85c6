import Foundation
import SQLKit

/// What a row came to, as stored: its state, the step and why (or how its title was found), the
/// title it landed as, and the candidates it is queued with.
struct RowSettlement: Sendable, Equatable {
    var state: ImportRowState
    var step: String? = nil
    var reason: String? = nil
    var title: MatchedTitle? = nil
    var how: String? = nil
    var candidates: [TitleCandidate] = []
}

extension ImportStore {
    static func counter(_ state: ImportRowState) -> String? {
        switch state {
        case .pending: "pending_rows"
        case .landed: "landed_rows"
        case .queued: "queued_rows"
        case .failed: "failed_rows"
        case .skipped, .kept: "skipped_rows"
        }
    }

    /// The next rows to deal with, in the order they were read.
    func pending(job: UUID, limit: Int) async throws -> [(number: Int, row: ImportRow)] {
        let decoder = JSONDecoder()
        return try await database.sql.select().columns("row_no", "data").from("import_rows").where("job_id", .equal, SQLBind(job))
            .where("state", .equal, SQLBind(ImportRowState.pending.rawValue)).orderBy("row_no").limit(limit).all()
            .map { row in
                (
                    try row.decode(column: "row_no", as: Int.self),
                    try decoder.decode(ImportRow.self, from: Data(try row.decode(column: "data", as: String.self).utf8))
                )
            }
    }

    /// Records what a row came to and moves it between the job's counts, in one write whose
    /// UPDATE matches the row only while it is still `from`: of two servers (or two clicks) that
    /// settle one row, one does it and the other is told false, and the counts move once.
    @discardableResult
    func settle(job: UUID, number: Int, from: ImportRowState, _ settlement: RowSettlement) async throws -> Bool {
        let candidates = settlement.candidates.isEmpty ? nil : String(decoding: try JSONEncoder().encode(settlement.candidates), as: UTF8.self)
        let now = clock.now()
        return try await database.writeSQL { sql in
            let changed = try await sql.update("import_rows").set("state", to: SQLBind(settlement.state.rawValue))
                .set("step", to: SQLBind(settlement.step)).set("reason", to: SQLBind(settlement.reason.map { String($0.prefix(500)) }))
                .set("match_kind", to: SQLBind(settlement.title?.kind.rawValue)).set("match_id", to: SQLBind(settlement.title.map { String($0.id) }))
                .set("match_title", to: SQLBind(settlement.title?.name)).set("match_how", to: SQLBind(settlement.how))
                .set("candidates", to: SQLBind(candidates))
                .where("job_id", .equal, SQLBind(job)).where("row_no", .equal, SQLBind(number)).where("state", .equal, SQLBind(from.rawValue))
                .returning("row_no").first()
            guard changed != nil else { return false }
            if let was = Self.counter(from), let now = Self.counter(settlement.state), was != now {
                try await sql.raw(
                    "UPDATE import_jobs SET \(ident: was) = \(ident: was) - 1, \(ident: now) = \(ident: now) + 1 WHERE id = \(bind: job)"
                )
                .run()
            }
            try await sql.update("import_jobs").set("updated_at", to: SQLBind(now)).where("id", .equal, SQLBind(job)).run()
            return true
        }
    }

    /// Rows in any of `states`, in the order they were read, `limit` from `offset`.
    func records(job: UUID, states: [ImportRowState]? = nil, offset: Int = 0, limit: Int) async throws -> [ImportRowRecord] {
        var select = try database.sql.select().column(SQLLiteral.all).from("import_rows").where("job_id", .equal, SQLBind(job))
        if let states { select = select.where("state", .in, SQLBind.group(states.map(\.rawValue))) }
        return try await select.orderBy("row_no").offset(offset).limit(limit).all(decoding: Row.self).map(\.record)
    }

    /// The job's rows waiting in Needs a match with this title (as read from the file).
    func queued(job: UUID, title: String) async throws -> [ImportRowRecord] {
        try await database.sql.select().column(SQLLiteral.all).from("import_rows").where("job_id", .equal, SQLBind(job))
            .where("state", .equal, SQLBind(ImportRowState.queued.rawValue)).where("title", .equal, SQLBind(title)).orderBy("row_no")
            .all(decoding: Row.self).map(\.record)
    }

    /// Rows waiting in Needs a match go back to be matched (the person chose their title for
    /// another row): the job is taken up again by a server's worker, a done one too.
    func requeue(job: UUID, numbers: [Int]) async throws {
        guard !numbers.isEmpty else { return }
        let now = clock.now()
        try await database.writeSQL { sql in
            var moved = 0
            for part in stride(from: 0, to: numbers.count, by: Self.insertBatch) {
                let some = numbers[part..<min(numbers.count, part + Self.insertBatch)]
                moved += try await sql.raw(
                    """
                    UPDATE import_rows SET state = 'pending', step = NULL, reason = NULL, candidates = NULL
                    WHERE job_id = \(bind: job) AND state = 'queued' AND row_no IN \(SQLBind.group(Array(some))) RETURNING row_no
                    """
                ).all().count
            }
            guard moved > 0 else { return }
            try await sql.raw(
                """
                UPDATE import_jobs SET pending_rows = pending_rows + \(bind: moved), queued_rows = queued_rows - \(bind: moved),
                state = CASE WHEN state = 'done' THEN 'queued' ELSE state END, finished_at = NULL, next_try_at = NULL, updated_at = \(bind: now)
                WHERE id = \(bind: job) AND state IN ('done', 'queued', 'running')
                """
            ).run()
        }
    }

    func record(job: UUID, number: Int) async throws -> ImportRowRecord? {
        try await database.sql.select().column(SQLLiteral.all).from("import_rows").where("job_id", .equal, SQLBind(job))
            .where("row_no", .equal, SQLBind(number)).first(decoding: Row.self)?.record
    }

    /// How many earlier rows of the job landed (or were skipped) as a watch of the same title on the
    /// same day: the diary's idempotence (a second import of one file finds its watches already
    /// there). A show's rows are the whole show's watches or one `episode`'s, counted apart (the
    /// rows of a show's day are few: a binge is a dozen).
    func earlierWatches(
        job: UUID, before number: Int, kind: MediaKind, id: Int, day: String, episode: ImportedEpisode? = nil
    ) async throws -> Int {
        let decoder = JSONDecoder()
        return try await database.sql.raw(
            """
            SELECT data FROM import_rows WHERE job_id = \(bind: job) AND row_no < \(bind: number)
            AND state IN ('landed', 'skipped') AND match_kind = \(bind: kind.rawValue) AND match_id = \(bind: String(id))
            AND watched_on = \(bind: day)
            """
        ).all(decodingColumn: "data", as: String.self).count { data in
            guard kind == .show else { return true }
            let named = (try? decoder.decode(ImportRow.self, from: Data(data.utf8)))?.episode
            return named?.season == episode?.season && named?.number == episode?.number
        }
    }

    private struct Row: Decodable {
        var row_no: Int
        var file: String
        var line: Int
        var title: String
        var year: Int?
        var data: String
        var state: String
        var step: String?
        var reason: String?
        var match_kind: String?
        var match_id: String?
        var match_title: String?
        var match_how: String?
        var candidates: String?

        var record: ImportRowRecord {
            var row =
                (try? JSONDecoder().decode(ImportRow.self, from: Data(data.utf8))) ?? ImportRow(file: file, line: line, title: title, year: year)
            row.file = file
            return ImportRowRecord(
                number: row_no, file: file, line: line, row: row, state: ImportRowState(rawValue: state) ?? .failed, step: step, reason: reason,
                matchKind: match_kind.flatMap(MediaKind.init), matchID: match_id, matchTitle: match_title, matchHow: match_how,
                candidates: candidates.flatMap { try? JSONDecoder().decode([TitleCandidate].self, from: Data($0.utf8)) } ?? [])
        }
    }
}
