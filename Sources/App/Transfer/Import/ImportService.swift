import Foundation
import Logging

/// Imports, for the pages and the command line alike: an upload is read and its rows stored
/// (nothing else changes until every row is stored; a file that cannot be read leaves nothing),
/// then a server's worker matches and lands the rows in the background, and the person resolves
/// what could not be matched.
public struct ImportService: Sendable {
    /// Rows a worker takes at a time before it renews its lease and looks for a cancel.
    static let batch = 20
    /// How a film iTunes lacks was found, in the report.
    static let keptHow = "IMDb id via OMDb; not on iTunes, so kept by its IMDb id"

    let store: ImportStore
    let matcher: TitleMatcher
    let landing: ImportLanding
    let titles: TitleLookup
    let restore: BackupRestore
    let uploads: UploadThrottle
    let logger: Logger

    public enum Started: Sendable, Equatable {
        case started(ImportJob)
        /// The person's earlier import is still under way.
        case busy
    }

    /// Reads the upload and stores its rows as a new job; `ImportRefused` (nothing stored) when the
    /// file cannot be read.
    public func start(profile: UUID, data: Data, fileName: String) async throws -> Started {
        try await start(profile: profile, files: [(fileName, data)])
    }

    /// Several files uploaded together are read as one export (the CSVs of TV Time's folder).
    public func start(profile: UUID, files: [(name: String, data: Data)]) async throws -> Started {
        let files = files.map { (name: ($0.name as NSString).lastPathComponent, data: $0.data) }
        guard let first = files.first else { throw ImportRefused(message: "Choose the export file to import.") }
        let name = files.count == 1 ? first.name : "\(first.name) and \(files.count - 1) more"
        let data = first.data
        let job: UUID
        do { job = try await store.begin(profile: profile, source: .letterboxd, fileName: name) } catch is ImportStore.Busy { return .busy }
        do {
            var next = 1
            let source = try await ImportReader.read(files: files) { read in
                next = try await store.append(job: job, rows: read.rows, problems: read.problems, from: next)
            }
            try await store.setSource(job: job, source)
            if source == .popcornswirl {
                let backup: Backup
                do { backup = try Backup.decoder.decode(Backup.self, from: data) } catch {
                    throw ImportRefused(
                        message: "The backup could not be read: it is damaged or incomplete. Export it again and upload the new file.")
                }
                let counts = try await restore.restore(backup, profile: profile)
                try await store.complete(job: job, landed: counts.added, skipped: counts.present)
                return .started(try await startedJob(job))
            }
            guard next > 1 else { throw ImportRefused(message: "The file holds no rows to import.") }
            try await store.queue(job: job)
        } catch {
            try? await store.discard(job: job)
            throw error
        }
        return .started(try await startedJob(job))
    }

    private func startedJob(_ id: UUID) async throws -> ImportJob {
        guard let job = try await store.job(id) else { throw ImportRefused(message: "The import was removed while it was being read.") }
        return job
    }

    /// The person's latest import; a load its server left when it stopped is failed first.
    public func latest(profile: UUID) async throws -> ImportJob? {
        try await store.reap(profile: profile)
        return try await store.latest(profile: profile)
    }

    public func cancel(profile: UUID) async throws -> Bool { try await store.cancel(profile: profile) }

    /// Nil when the person may upload a file now (the upload is counted); else the seconds until they may.
    public func admitUpload(profile: UUID, address: String?) async throws -> Int? {
        try await uploads.admit(profile: profile, address: address)
    }

    /// Claims a job and works on it until it is done, waits for an upstream, or is cancelled;
    /// false when no job was free.
    func runNext(owner: String) async throws -> Bool {
        guard let job = try await store.claim(owner: owner) else { return false }
        try await run(job, owner: owner)
        return true
    }

    /// Works on one job here until no row is pending (waiting out upstream allowances), or it is
    /// cancelled; `progress` is told after each stretch of work.
    func drain(job id: UUID, owner: String, progress: @Sendable (ImportJob) -> Void) async throws -> ImportJob {
        while true {
            if let job = try await store.claim(owner: owner, only: id) { try await run(job, owner: owner) }
            guard let job = try await store.job(id) else { throw ImportRefused(message: "The import was deleted.") }
            progress(job)
            guard job.state.isActive else { return job }
            try await Task.sleep(for: .seconds(1))
        }
    }

    /// Works through the job's pending rows in order. The lease is renewed before every row, so a
    /// job is never worked on by two servers at once; a row whose matching or landing fails for a
    /// reason of its own is settled as failed (with why) rather than tried for ever.
    func run(_ job: ImportJob, owner: String) async throws {
        while true {
            let rows = try await store.pending(job: job.id, limit: Self.batch)
            guard !rows.isEmpty else {
                try await store.finish(job: job.id, owner: owner)
                return
            }
            for (number, row) in rows {
                try Task.checkCancellation()
                guard try await store.renew(job: job.id, owner: owner) else { return }
                let outcome: MatchOutcome
                do {
                    // The import's calls count against its person's fair share of each upstream,
                    // in the database: one person's import leaves the rest of the allowance to others.
                    outcome = try await UpstreamClient.$current.withValue(UpstreamClient(account: job.profileID, address: nil)) {
                        try await matcher.resolve(row, profile: job.profileID)
                    }
                } catch is CancellationError {
                    throw CancellationError()
                } catch {
                    logger.error("import row \(number) of \(job.id) could not be matched: \(String(reflecting: error))")
                    try await store.settle(
                        job: job.id, number: number, from: .pending,
                        RowSettlement(state: .failed, step: "match", reason: "The title could not be looked up or remembered."))
                    continue
                }
                switch outcome {
                case .wait(let seconds, let reason):
                    try await store.pause(job: job.id, owner: owner, for: seconds, message: reason)
                    return
                case .unsure(let candidates, let reason):
                    try await store.settle(
                        job: job.id, number: number, from: .pending,
                        RowSettlement(state: .queued, step: "match", reason: reason, candidates: candidates))
                case .notInCatalogue(let film, let reason):
                    switch await landing.land(row, as: .movie(film), how: Self.keptHow, job: job, number: number) {
                    case .settled(var settlement):
                        if settlement.state == .landed { settlement.reason = reason }
                        try await store.settle(job: job.id, number: number, from: .pending, settlement)
                    case .wait(let seconds, let reason):
                        try await store.pause(job: job.id, owner: owner, for: seconds, message: reason)
                        return
                    }
                case .found(let title, let how):
                    switch await landing.land(row, as: title, how: how, job: job, number: number) {
                    case .settled(let settlement): try await store.settle(job: job.id, number: number, from: .pending, settlement)
                    case .wait(let seconds, let reason):
                        // The show's episode list can't be had yet: the job waits, as for a title.
                        try await store.pause(job: job.id, owner: owner, for: seconds, message: reason)
                        return
                    }
                }
            }
        }
    }
}

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

    /// The person picks the title for a waiting row: it lands, and its other waiting rows, later
    /// rows and later imports with the same title take the same choice (the waiting ones are matched
    /// again by a worker: a show TVMaze did not know may have a thousand watches).
    public func choose(profile: UUID, job: UUID, number: Int, kind: MediaKind, id: Int) async throws -> Resolved {
        guard let (found, record) = try await row(profile: profile, job: job, number: number), record.state == .queued else { return .notWaiting }
        let title: MatchedTitle
        switch await titles.title(kind, id, profile: profile) {
        case .found(let found): title = found
        case .notFound: return .titleNotFound
        case .unavailable: return .unavailable
        }
        try await matcher.choose(record.row, profile: profile, title: title)
        guard case .settled(let settlement) = await landing.land(record.row, as: title, how: TitleMatcher.chosen, job: found, number: number)
        else { return .unavailable }
        guard try await store.settle(job: job, number: number, from: .queued, settlement) else { return .notWaiting }
        // The title's other rows waiting here (a show's every watch) are matched again, taking the choice.
        let key = TitleMatcher.keys(record.row).title
        let same = try await store.queued(job: job, title: record.row.title).filter { TitleMatcher.keys($0.row).title == key }
        try await store.requeue(job: job, numbers: same.map(\.number))
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
    public func candidates(for text: String) async -> [TitleCandidate] { await matcher.candidates(for: text) }

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
