import Foundation

/// One person's import: its upload, where it stands, and how many rows came to what.
public struct ImportJob: Sendable, Equatable {
    public enum State: String, Sendable {
        /// Its rows are being stored; nothing is matched yet.
        case loading
        /// Waiting for a server to take it up.
        case queued
        case running
        case done
        case cancelled
        /// It could not go on (the reason is in `message`).
        case failed

        /// Still under way: another import must wait for it.
        public var isActive: Bool { self == .loading || self == .queued || self == .running }
    }

    public var id: UUID
    public var profileID: UUID
    public var source: ImportSource
    public var fileName: String
    public var state: State
    /// Why it stopped, or what it is waiting for.
    public var message: String?
    public var total: Int
    /// Rows not yet matched and landed (nor queued, failed or skipped).
    public var pending: Int
    public var landed: Int
    /// Rows waiting in Needs a match.
    public var queued: Int
    public var failed: Int
    /// Rows that added nothing: already there (an earlier import of the same file).
    public var skipped: Int
    /// Rows a cancel stopped before they were dealt with (deleted then; the report counts them).
    public var cancelledRows = 0
    public var createdAt: Date
    public var updatedAt: Date
    /// When this server's run began and how many rows were pending then: the pace of the estimate.
    public var runStartedAt: Date?
    public var runStartedPending: Int?
    public var finishedAt: Date?

    /// Rows dealt with (landed, queued, failed, skipped, or kept); not those a cancel stopped.
    public var processed: Int { max(0, total - pending - cancelledRows) }

    /// 0–100, never past 100.
    public var percent: Int { total == 0 ? 100 : min(100, processed * 100 / total) }

    /// Seconds to go at the pace of this run so far; nil until the pace is known (or when done).
    public func secondsLeft(at now: Date) -> Int? {
        guard state == .running || state == .queued, pending > 0, let start = runStartedAt, let before = runStartedPending else { return nil }
        let done = before - pending
        let elapsed = now.timeIntervalSince(start)
        guard done >= 5, elapsed >= 2 else { return nil }
        return Int((Double(pending) * elapsed / Double(done)).rounded(.up))
    }

    /// "about 3 minutes left", "less than a minute left".
    public static func estimateText(_ seconds: Int?) -> String? {
        guard let seconds else { return nil }
        if seconds < 60 { return "less than a minute left" }
        let minutes = (seconds + 59) / 60
        if minutes < 90 { return "about \(minutes) minute\(minutes == 1 ? "" : "s") left" }
        return "about \((minutes + 30) / 60) hours left"
    }
}

/// What became of a row.
public enum ImportRowState: String, Sendable, CaseIterable {
    case pending
    /// Its facts are in the person's ratings, diary and lists.
    case landed
    /// In Needs a match: the person picks the title, or keeps the row as it is.
    case queued
    case failed
    /// It added nothing: everything it says was there already.
    case skipped
    /// Kept as it is, without a title in the catalogue (it stays in the import's report).
    case kept
}

/// A row as the import page and the report show it.
public struct ImportRowRecord: Sendable, Equatable {
    public var number: Int
    public var file: String
    public var line: Int
    public var row: ImportRow
    public var state: ImportRowState
    /// The step that failed (read, match, rating, diary, list), and why; or how the title was found.
    public var step: String?
    public var reason: String?
    public var matchKind: MediaKind?
    public var matchID: String?
    public var matchTitle: String?
    public var matchHow: String?
    public var candidates: [TitleCandidate]
}
