import Foundation
import OpenAPIRuntime
import PopcornSwirlAPI

/// Keeps the device's copy and the server in step.
///
/// `sync()` first sends the outbox, in the order the changes were made, each with the key it was
/// given when made (`Idempotency-Key`) and the moment it was made (`Change-Made-At`), so a change
/// sent twice (an answer lost, the app killed) is done once. Then it reads the server's change
/// feed from the last cursor and writes each page with its cursor in one transaction.
///
/// The server's rule settles conflicts: the newer change, by the time the person made it, wins. A
/// change of the device's that an other device's newer change beat is answered 409 (superseded):
/// it leaves the outbox and the feed brings the newer state. A change the server refuses (a note
/// too long, a title it does not know) is kept in the outbox as refused, with the server's reason,
/// for the person to see; it is never dropped by itself. When the server cannot be reached (no
/// connection, 429, 503), what is left waits for the next sync.
public actor SyncEngine {
    let api: any APIProtocol
    public let store: KitStore
    let now: @Sendable () -> Date

    public init(api: any APIProtocol, store: KitStore, now: @escaping @Sendable () -> Date = { Date() }) {
        self.api = api
        self.store = store
        self.now = now
    }

    /// What one sync did.
    public struct Report: Sendable, Equatable {
        /// Changes the server accepted.
        public var sent = 0
        /// Changes a newer one (by the time it was made) beat: the server's state was kept.
        public var superseded = 0
        /// Changes the server refused this time (kept in the outbox as refused).
        public var refused: [String] = []
        /// Things written from the server's change feed.
        public var pulled = 0
        /// Why the server could not be reached, when it could not: what is left waits.
        public var unreachable: String?

        public var reachedServer: Bool { unreachable == nil }
    }

    /// Sends the outbox, then reads what changed on the server.
    @discardableResult
    public func sync() async -> Report {
        var report = Report()
        do {
            try await push(&report)
            if report.unreachable == nil { try await pull(&report) }
            if report.unreachable == nil { try store.setSynced(now()) }
        } catch {
            report.unreachable = report.unreachable ?? Self.describe(error)
        }
        return report
    }

    // MARK: - Sending

    enum Outcome: Equatable {
        case done, superseded
        case refused(String)
        /// Not now: stop sending (the order of changes is kept) and try at the next sync.
        case later(String)
    }

    private func push(_ report: inout Report) async throws {
        for entry in try store.waiting() {
            let outcome: Outcome
            do {
                outcome = try await IdempotencyKey.$current.withValue(entry.key) { try await send(entry) }
            } catch {
                outcome = .later(Self.describe(error))
            }
            switch outcome {
            case .done:
                try store.sent(entry)
                report.sent += 1
            case .superseded:
                try store.sent(entry)
                report.superseded += 1
            case .refused(let message):
                try store.refuse(entry, message: message)
                report.refused.append(message)
            case .later(let message):
                try store.failed(entry, message: message)
                report.unreachable = message
                return
            }
        }
    }

    private func send(_ entry: OutboxEntry) async throws -> Outcome {
        switch entry.change {
        case .movie(let id, let favorite, let watched, let note, let rating):
            let body = Components.Schemas.LibraryChange(favorite: favorite, watched: watched, note: note, rating: rating)
            switch try await api.putLibraryMovie(path: .init(id: id), headers: .init(changeMadeAt: entry.madeAt), body: .json(body)) {
            case .ok, .noContent: return .done
            case .conflict(let answer): return Self.conflict(try answer.body.applicationProblemJson)
            case .badRequest(let answer): return .refused(try answer.body.applicationProblemJson.detail)
            case .notFound(let answer): return .refused(try answer.body.applicationProblemJson.detail)
            case .unprocessableContent(let answer): return .refused(try answer.body.applicationProblemJson.detail)
            case .forbidden(let answer): return .refused(try answer.body.applicationProblemJson.detail)
            case .unauthorized(let answer): return .later(try answer.body.applicationProblemJson.detail)
            case .tooManyRequests(let answer): return .later(try answer.body.applicationProblemJson.detail)
            case .serviceUnavailable(let answer): return .later(try answer.body.applicationProblemJson.detail)
            case .undocumented(let status, _): return Self.undocumented(status)
            }
        case .removeMovie(let id):
            switch try await api.deleteLibraryMovie(path: .init(id: id), headers: .init(changeMadeAt: entry.madeAt)) {
            case .noContent: return .done
            // Already in no list: what the person wanted.
            case .notFound: return .done
            case .conflict(let answer): return Self.conflict(try answer.body.applicationProblemJson)
            case .badRequest(let answer): return .refused(try answer.body.applicationProblemJson.detail)
            case .forbidden(let answer): return .refused(try answer.body.applicationProblemJson.detail)
            case .unauthorized(let answer): return .later(try answer.body.applicationProblemJson.detail)
            case .serviceUnavailable(let answer): return .later(try answer.body.applicationProblemJson.detail)
            case .undocumented(let status, _): return Self.undocumented(status)
            }
        case .showFavorite(let id, true):
            let body = Components.Schemas.ShowChange(favorite: true)
            switch try await api.putLibraryShow(path: .init(id: id), headers: .init(changeMadeAt: entry.madeAt), body: .json(body)) {
            case .ok, .noContent: return .done
            case .conflict(let answer): return Self.conflict(try answer.body.applicationProblemJson)
            case .badRequest(let answer): return .refused(try answer.body.applicationProblemJson.detail)
            case .notFound(let answer): return .refused(try answer.body.applicationProblemJson.detail)
            case .unprocessableContent(let answer): return .refused(try answer.body.applicationProblemJson.detail)
            case .forbidden(let answer): return .refused(try answer.body.applicationProblemJson.detail)
            case .unauthorized(let answer): return .later(try answer.body.applicationProblemJson.detail)
            case .tooManyRequests(let answer): return .later(try answer.body.applicationProblemJson.detail)
            case .serviceUnavailable(let answer): return .later(try answer.body.applicationProblemJson.detail)
            case .undocumented(let status, _): return Self.undocumented(status)
            }
        case .showFavorite(let id, false):
            switch try await api.deleteLibraryShow(path: .init(id: id), headers: .init(changeMadeAt: entry.madeAt)) {
            case .noContent, .notFound: return .done
            case .conflict(let answer): return Self.conflict(try answer.body.applicationProblemJson)
            case .badRequest(let answer): return .refused(try answer.body.applicationProblemJson.detail)
            case .forbidden(let answer): return .refused(try answer.body.applicationProblemJson.detail)
            case .unauthorized(let answer): return .later(try answer.body.applicationProblemJson.detail)
            case .serviceUnavailable(let answer): return .later(try answer.body.applicationProblemJson.detail)
            case .undocumented(let status, _): return Self.undocumented(status)
            }
        case .episode(let id, _, let watched):
            // Checked offline: watched at the moment it was checked.
            let body = Components.Schemas.EpisodeChange(watched: watched, watchedAt: watched ? Self.moment(entry.madeAt) : nil)
            switch try await api.putLibraryEpisode(path: .init(episodeId: id), body: .json(body)) {
            case .ok: return .done
            case .badRequest(let answer): return .refused(try answer.body.applicationProblemJson.detail)
            case .notFound(let answer): return .refused(try answer.body.applicationProblemJson.detail)
            case .unprocessableContent(let answer): return .refused(try answer.body.applicationProblemJson.detail)
            case .forbidden(let answer): return .refused(try answer.body.applicationProblemJson.detail)
            case .unauthorized(let answer): return .later(try answer.body.applicationProblemJson.detail)
            case .tooManyRequests(let answer): return .later(try answer.body.applicationProblemJson.detail)
            case .serviceUnavailable(let answer): return .later(try answer.body.applicationProblemJson.detail)
            case .undocumented(let status, _): return Self.undocumented(status)
            }
        }
    }

    /// The problem `type` of a change a newer one beat (a 409 without it is an `Idempotency-Key`
    /// still being answered).
    public static let supersededType = "tag:popcornswirl.app,2026:superseded"

    static func conflict(_ problem: Components.Schemas.Problem) -> Outcome {
        problem._type == supersededType ? .superseded : .later(problem.detail)
    }

    static func undocumented(_ status: Int) -> Outcome {
        status >= 500 || status == 408 || status == 429 ? .later("The server answered \(status).") : .refused("The server answered \(status).")
    }

    /// `WatchedAt`: ISO 8601 in UTC, to the second.
    static func moment(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
    }

    static func describe(_ error: any Error) -> String {
        if let client = error as? ClientError { return "The server could not be reached (\(client.underlyingError))." }
        return "The server could not be reached (\(error))."
    }

    // MARK: - Reading

    private func pull(_ report: inout Report) async throws {
        var cursor = try store.cursor()
        for _ in 0..<10_000 {
            let page: Components.Schemas.ChangesPage
            switch try await api.listChanges(query: .init(since: cursor, limit: 500)) {
            case .ok(let answer): page = try answer.body.json
            case .unauthorized(let answer):
                report.unreachable = try answer.body.applicationProblemJson.detail
                return
            case .badRequest(let answer):
                report.unreachable = try answer.body.applicationProblemJson.detail
                return
            case .serviceUnavailable(let answer):
                report.unreachable = try answer.body.applicationProblemJson.detail
                return
            case .undocumented(let status, _):
                report.unreachable = "The server answered \(status)."
                return
            }
            report.pulled += try store.apply(page.changes, cursor: page.cursor)
            cursor = page.cursor
            if !page.more { break }
        }
        // Up Next is the server's to work out (it needs TVMaze's episode lists): kept whole.
        if case .ok(let answer) = try await api.listUpNext(), case .json(let upNext) = answer.body {
            try store.keep(upNext, as: AnswerKey.upNext, at: now())
        }
    }
}

/// The keys read answers are kept under in the store.
public enum AnswerKey {
    public static let upNext = "up-next"
    public static let lastSearch = "last-search"
    public static func movies(year: Int) -> String { "movies:\(year)" }
    public static func movie(_ id: Int64) -> String { "movie:\(id)" }
    public static func shows(page: Int) -> String { "shows:\(page)" }
    public static func show(_ id: Int64) -> String { "show:\(id)" }
    public static func episodes(show id: Int64) -> String { "episodes:\(id)" }
    public static func search(_ query: String) -> String { "search:\(query.lowercased())" }
    public static func offers(_ kind: TitleKind, _ id: Int64) -> String { "offers:\(kind.rawValue):\(id)" }
}
