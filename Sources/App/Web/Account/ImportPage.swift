import Foundation

/// The import page: the upload form (when no import is under way), the latest import's progress
/// (updated by `app.js` from `Route.importProgress`, and on reload without it), its Needs-a-match
/// queue and the rows that failed.
struct ImportPage: Page {
    static let template = "account/import"
    static let problemLimit = 50

    let chrome = Chrome("Import", tab: .library)
    let uploadURL = Route.startImport.path
    let maxMegabytes = BodyLimitMiddleware.importMaxBytes >> 20
    let notice: String?
    let error: String?
    let canUpload: Bool
    let job: ImportProgressView?
    let queue: [QueuedRowView]
    let hasQueue: Bool
    let queuePages: QueuePages?
    let problems: [ProblemView]
    let hasProblems: Bool
    /// Rows kept without a catalogue title: what they say stays with the import.
    let kept: [ProblemView]
    let hasKept: Bool
    let exportLinks = ExportLinks()

    init(
        job: ImportJob?, now: Date, queue: [ImportRowRecord], queuePage: Int, searched: (row: Int, query: String, found: [TitleCandidate])?,
        problems: [ImportRowRecord], kept: [ImportRowRecord], notice: String?, error: String?
    ) {
        self.notice = notice
        self.error = error
        canUpload = job?.state.isActive != true
        self.job = job.map { ImportProgressView($0, now: now) }
        self.queue = queue.map { record in
            QueuedRowView(record, job: job!.id, search: searched?.row == record.number ? searched : nil, page: queuePage)
        }
        hasQueue = !queue.isEmpty
        let pages = job.map { LibraryPage.pageCount(total: $0.queued, pageSize: ImportService.queuePageSize) } ?? 1
        queuePages = pages > 1 ? QueuePages(page: queuePage, count: pages) : nil
        self.problems = problems.map(ProblemView.init)
        hasProblems = !problems.isEmpty
        self.kept = kept.map(ProblemView.init)
        hasKept = !kept.isEmpty
    }

    struct QueuePages {
        let page: Int
        let count: Int
        var previousURL: String? { page > 1 ? Route.imports.link(query: ["page": String(page - 1)]) + "#needs-a-match" : nil }
        var nextURL: String? { page < count ? Route.imports.link(query: ["page": String(page + 1)]) + "#needs-a-match" : nil }
    }

    struct ProblemView {
        let file: String
        let line: Int
        let title: String
        let step: String
        let reason: String
        let year: Int?
        let rating: String?
        let watchedOn: String?

        init(_ record: ImportRowRecord) {
            file = record.file
            line = record.line
            title = record.row.title
            year = record.row.year
            rating = record.row.rating.map(Rating.words)
            watchedOn = record.row.watchedOn
            step = record.step ?? ""
            reason = record.reason ?? ""
        }
    }
}

/// The latest import's state, as the page shows it and as `Route.importProgress` answers it.
struct ImportProgressView: Encodable {
    let state: String
    let stateText: String
    let isActive: Bool
    let fileName: String
    let sourceName: String
    let percent: Int
    let processed: Int
    let total: Int
    let landed: Int
    let queued: Int
    let failed: Int
    let skipped: Int
    let estimate: String?
    let message: String?
    let reportURL: String
    let progressURL = Route.importProgress.path
    let cancelURL = Route.cancelImport.path

    init(_ job: ImportJob, now: Date) {
        state = job.state.rawValue
        stateText =
            switch job.state {
            case .loading: "Reading your file"
            case .queued: "Waiting to start"
            case .running: "Importing"
            case .done: job.queued > 0 ? "Done: some rows need a match" : "Done"
            case .cancelled: "Cancelled"
            case .failed: "Stopped"
            }
        isActive = job.state.isActive
        fileName = job.fileName
        sourceName =
            switch job.source {
            case .letterboxd: "Letterboxd"
            case .imdb: "IMDb"
            case .trakt: "Trakt"
            case .tvtime: "TV Time"
            case .simkl: "Simkl"
            case .popcornswirl: "PopcornSwirl backup"
            }
        percent = job.percent
        processed = job.processed
        total = job.total
        landed = job.landed
        queued = job.queued
        failed = job.failed
        skipped = job.skipped
        estimate = ImportJob.estimateText(job.secondsLeft(at: now))
        message = job.state.isActive ? job.message : nil
        reportURL = Route.importReport.link(job.id)
    }
}

/// A row in Needs a match: what it says, why no title was found, the candidates (or what a search
/// for it found), and the choice to keep it as it is.
struct QueuedRowView {
    let number: Int
    let title: String
    let year: Int?
    /// The episode the row is about (`S01E02`), and when it was watched.
    let episodeCode: String?
    let file: String
    let line: Int
    let reason: String
    let resolveURL: String
    let searchURL = Route.imports.path
    let query: String
    let page: Int
    let choices: [Choice]
    let hasChoices: Bool
    let searchedFor: String?

    struct Choice {
        let value: String
        let label: String
        let id: String
        let checked: Bool
    }

    init(_ record: ImportRowRecord, job: UUID, search: (row: Int, query: String, found: [TitleCandidate])?, page: Int) {
        number = record.number
        title = record.row.title
        year = record.row.year
        episodeCode = record.row.episode.map { $0.code + (record.row.watchedOn.map { ", watched \($0)" } ?? "") }
        file = record.file
        line = record.line
        reason = record.reason ?? ""
        resolveURL = Route.resolveImportRow.link(job)
        query = search?.query ?? record.row.title
        self.page = page
        searchedFor = search?.query
        let candidates = search?.found ?? record.candidates
        choices = candidates.enumerated().map { index, candidate in
            Choice(
                value: "\(candidate.kind.rawValue):\(candidate.id)",
                label: "\(candidate.title)\(candidate.year.map { " (\($0))" } ?? "")\(candidate.kind == .show ? ", TV show" : "")",
                id: "row-\(record.number)-choice-\(index)", checked: index == 0)
        }
        hasChoices = !choices.isEmpty
    }
}
