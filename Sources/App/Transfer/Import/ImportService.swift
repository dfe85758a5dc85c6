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
        let name = (fileName as NSString).lastPathComponent
        let job: UUID
        do { job = try await store.begin(profile: profile, source: .letterboxd, fileName: name) } catch is ImportStore.Busy { return .busy }
        do {
            var next = 1
            let source = try await ImportReader.read(data, named: name) { read in
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
                    var settlement = await landing.land(row, as: .movie(film), how: Self.keptHow, job: job, number: number)
                    if settlement.state == .landed { settlement.reason = reason }
                    try await store.settle(job: job.id, number: number, from: .pending, settlement)
                case .found(let title, let how):
                    let settlement = await landing.land(row, as: title, how: how, job: job, number: number)
                    try await store.settle(job: job.id, number: number, from: .pending, settlement)
                }
            }
        }
    }
}
