import Foundation

/// Needs a match: the rows no title was found for, resolved by the person (a candidate, a title
/// found by searching, or the row kept as it is), and the report of every row.
extension ImportService {
    public static let queuePageSize = 20

    public enum Resolved: Sendable, Equatable {
        case done(ImportRowState)
        /// No such row of the person's, or it is no longer waiting.
        case notWaiting
        case titleNotFound
        /// The catalogue could not be reached for the chosen title: try again.
        case unavailable
    }

    /// The rows waiting in the person's latest import, a page of them.
    public func queue(profile: UUID, job: ImportJob, page: Int) async throws -> [ImportRowRecord] {
        guard job.profileID == profile else { return [] }
        return try await store.records(job: job.id, states: [.queued], offset: max(0, page - 1) * Self.queuePageSize, limit: Self.queuePageSize)
    }

    /// Rows that failed, the first `limit`.
    public func problems(profile: UUID, job: ImportJob, limit: Int) async throws -> [ImportRowRecord] {
        guard job.profileID == profile else { return [] }
        return try await store.records(job: job.id, states: [.failed], limit: limit)
    }

    /// Rows kept without a title from the catalogue, the first `limit`.
    public func kept(profile: UUID, job: ImportJob, limit: Int) async throws -> [ImportRowRecord] {
        guard job.profileID == profile else { return [] }
        return try await store.records(job: job.id, states: [.kept], limit: limit)
    }

    public func row(profile: UUID, job: UUID, number: Int) async throws -> (ImportJob, ImportRowRecord)? {
        guard let found = try await store.job(job), found.profileID == profile, let record = try await store.record(job: job, number: number) else {
            return nil
        }
        return (found, record)
    }

    /// The person picks the title for a waiting row: it lands, and later rows (and imports) with
    /// the same title take the same choice.
    public func choose(profile: UUID, job: UUID, number: Int, kind: MediaKind, id: Int) async throws -> Resolved {
        guard let (found, record) = try await row(profile: profile, job: job, number: number), record.state == .queued else { return .notWaiting }
        let title: MatchedTitle
        switch await titles.title(kind, id, profile: profile) {
        case .found(let found): title = found
        case .notFound: return .titleNotFound
        case .unavailable: return .unavailable
        }
        try await matcher.choose(record.row, profile: profile, title: title)
        let settlement = await landing.land(record.row, as: title, how: TitleMatcher.chosen, job: found, number: number)
        guard try await store.settle(job: job, number: number, from: .queued, settlement) else { return .notWaiting }
        return .done(settlement.state)
    }

    /// Keeps a waiting row as it is: it stays in the import (and its report) with what it says.
    public func keep(profile: UUID, job: UUID, number: Int) async throws -> Resolved {
        guard let (_, record) = try await row(profile: profile, job: job, number: number), record.state == .queued else { return .notWaiting }
        let settlement = RowSettlement(
            state: .kept, step: "match", reason: "Kept as it is, without a title from the catalogue.", candidates: record.candidates)
        return try await store.settle(job: job, number: number, from: .queued, settlement) ? .done(.kept) : .notWaiting
    }

    /// Films and shows for a search typed in Needs a match.
    public func candidates(for text: String) async -> [TitleCandidate] {
        guard let query = try? SearchQuery(text) else { return [] }
        async let shows = matcher.shows.find(query.text)
        var found: [TitleCandidate] = []
        if case .success(let (films, _)) = await matcher.search.films(query) {
            found += SearchService.ranked(films, for: query).prefix(8).map { TitleCandidate(kind: .movie, id: $0.id, title: $0.title, year: $0.year) }
        }
        if case .success(let result) = await shows {
            found += result.shows.prefix(4).map { TitleCandidate(kind: .show, id: $0.id, title: $0.name, year: $0.premieredYear) }
        }
        return found
    }

    /// The report of one of the person's imports (nil for anyone else's).
    public func report(profile: UUID, job: UUID) async throws -> ImportReport? {
        guard let found = try await store.job(job), found.profileID == profile else { return nil }
        return ImportReport(job: found, store: store)
    }
}

/// Every row of an import, as CSV: its number, file and row, title and year, what became of it,
/// the step and why, and the title it landed as (with how it was found). Written a page of rows
/// at a time, so a 200,000-row report is never held whole.
public struct ImportReport: Sendable {
    static let pageSize = 2000
    public let job: ImportJob
    let store: ImportStore

    public func write(_ sink: (String) async throws -> Void) async throws {
        try await sink(CSV.line(["Row", "File", "Line", "Title", "Year", "Result", "Step", "Why", "Matched as", "Kind", "Id", "Found by"]))
        var offset = 0
        while true {
            let records = try await store.records(job: job.id, offset: offset, limit: Self.pageSize)
            var chunk = ""
            for record in records {
                chunk += CSV.line([
                    String(record.number), record.file, String(record.line), record.row.title, record.row.year.map(String.init) ?? "",
                    record.state == .pending ? "not imported (\(job.state == .cancelled ? "cancelled" : "waiting"))" : record.state.rawValue,
                    record.step ?? "", record.reason ?? "", record.matchTitle ?? "", record.matchKind?.rawValue ?? "", record.matchID ?? "",
                    record.matchHow ?? "",
                ])
            }
            try await sink(chunk)
            guard records.count == Self.pageSize else { break }
            offset += Self.pageSize
        }
        // The rows a cancel stopped were deleted with it: one line says how many.
        if job.cancelledRows > 0 {
            let rows = job.cancelledRows == 1 ? "1 row" : "\(job.cancelledRows.formatted()) rows"
            try await sink(CSV.line(["", "", "", "\(rows) not dealt with before the import was cancelled", "", "not imported (cancelled)"]))
        }
    }

    /// The whole report as one string (for a small one).
    public func csv() async throws -> String {
        var text = ""
        try await write { text += $0 }
        return text
    }
}
