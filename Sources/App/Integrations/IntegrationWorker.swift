import Foundation
import Logging
import SQLKit
import ServiceLifecycle

/// Turns stored media-server events into watches. An event is claimed by one server with a
/// conditional update (so two servers never apply it both), matched, and settled:
/// - films by the person's remembered choice for the server's id, then `TitleMatcher` (the IMDb id
///   through OMDb when it is set up, then the title and year in the local index and on iTunes);
/// - episodes by the show's remembered choice, then the show's own ids (TVMaze's, or TheTVDB's and
///   IMDb's through TVMaze's `/lookup/shows`; an episode's ids are never taken for its show's), then
///   the show's name among the person's shows and in `TitleMatcher`; then the episode by season
///   and number (each of a multi-episode file), by air day (daily shows), or by title;
/// - watched when the server says so or the progress passes the integration's threshold; the same
///   watch already there (from any server or the app) within the title's runtime is a duplicate.
/// A title not found for sure waits for the person (Needs review); an upstream's limit makes the
/// event wait and be asked again. Every server runs this (`run`), and a received event is started
/// at once (`process`).
public struct IntegrationWorker: Service {
    let integrations: Integrations
    let database: AppDatabase
    let matcher: TitleMatcher
    let titles: TitleLookup
    let shows: ShowCatalog
    let episodeCatalog: EpisodeCatalog
    let episodes: EpisodeService
    let library: LibraryService
    let diary: DiaryService
    let calendar: CalendarService
    let metrics: AppMetrics
    let clock: any AppClock
    let logger: Logger
    var interval: TimeInterval = 5

    static let claimFor: TimeInterval = 120
    /// How long a watch lasts when its runtime is unknown (minutes).
    static let defaultRuntime = (film: 120, episode: 45)

    public func run() async throws {
        try await repeatRounds(every: interval, logger: logger, name: "integrations") { _ = try await round() }
    }

    /// Settles every event now due; returns how many.
    @discardableResult
    func round() async throws -> Int {
        var settled = 0
        while true {
            let due = try await dueEvents(limit: 25)
            if due.isEmpty { return settled }
            for id in due where try await process(id) { settled += 1 }
        }
    }

    /// Settles due events until none is due or being settled elsewhere (tests, the CLI); fails
    /// when some are still being settled after `timeout` seconds.
    func drain(timeout: TimeInterval = 600) async throws {
        let end = Date().addingTimeInterval(timeout)
        while true {
            try await round()
            let now = clock.now()
            let busy =
                try await database.sql.raw(
                    """
                    SELECT COUNT(*) AS n FROM integration_events WHERE (state = 'pending' AND next_attempt_at <= \(bind: now)) \
                    OR (state IN ('pending', 'retry') AND claimed_until > \(bind: now))
                    """
                ).first(decodingColumn: "n", as: Int.self) ?? 0
            if busy == 0 { return }
            guard Date() < end else { throw StillSettling(events: busy) }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    struct StillSettling: Error {
        var events: Int
    }

    private static let due: SQLQueryString = "state IN ('pending', 'retry')"

    func dueEvents(limit: Int) async throws -> [UUID] {
        let now = clock.now()
        struct Row: Decodable { var id: UUID }
        return try await database.sql.raw(
            """
            SELECT id FROM integration_events WHERE \(Self.due) AND next_attempt_at <= \(bind: now) \
            AND (claimed_until IS NULL OR claimed_until < \(bind: now)) ORDER BY next_attempt_at LIMIT \(bind: limit)
            """
        ).all(decoding: Row.self).map(\.id)
    }

    struct Claimed: Decodable {
        var id: UUID
        var integration_id: UUID
        var received_at: Date
        var event: String
        var attempts: Int
    }

    /// Claims and settles one event; false when it was not due or another server holds it.
    @discardableResult
    public func process(_ id: UUID) async throws -> Bool {
        let now = clock.now()
        let claimed = try await database.writeSQL { sql in
            try await sql.raw(
                """
                UPDATE integration_events SET claimed_until = \(bind: now.addingTimeInterval(Self.claimFor)), attempts = attempts + 1 \
                WHERE id = \(bind: id) AND \(Self.due) AND next_attempt_at <= \(bind: now) \
                AND (claimed_until IS NULL OR claimed_until < \(bind: now)) \
                RETURNING id, integration_id, received_at, event, attempts
                """
            ).first(decoding: Claimed.self)
        }
        guard let claimed else { return false }
        guard let integration = try await integrations.integration(id: claimed.integration_id) else { return false }
        let outcome: Outcome
        if let event = try? JSONDecoder().decode(MediaEvent.self, from: Data(claimed.event.utf8)) {
            outcome = await decide(event, integration: integration, receivedAt: claimed.received_at)
        } else {
            outcome = .done(.ignored, "This event could not be read again.")
        }
        try await finish(claimed.id, integration: integration, outcome, receivedAt: claimed.received_at, attempts: claimed.attempts)
        return true
    }

    // MARK: Deciding

    enum Outcome {
        case done(IntegrationEvent.Result, String, matched: (kind: MediaKind, id: Int)? = nil)
        case waiting(String, [TitleCandidate])
        case retry(seconds: Int, String)
    }

    func decide(_ event: MediaEvent, integration: Integration, receivedAt: Date) async -> Outcome {
        let settings = integration.settings
        if let wanted = settings.serverUser, let user = event.user, user.compare(wanted, options: .caseInsensitive) != .orderedSame {
            return .done(.otherUser, "Played by “\(user)”: this URL follows only “\(wanted)”.")
        }
        guard let type = event.type else { return .done(.ignored, "Not a film or an episode: nothing to record.") }
        switch event.action {
        case .ignored:
            return .done(.ignored, "Not a play that finished: nothing to record.")
        case .progress:
            let progress = event.progress ?? 0
            guard progress >= Double(settings.threshold) else {
                return .done(.belowThreshold, "Played \(Int(progress.rounded(.down))) %: under the \(settings.threshold) % that counts as watched.")
            }
        case .unplayed where !settings.unplayedErases:
            return .done(.unplayed, "Marked unplayed on the server: your watch here is kept (this integration’s settings can make it erase it).")
        case .unplayed, .watched:
            break
        }
        let moment = min(event.watchedAt ?? receivedAt, clock.now())
        do {
            switch type {
            case .movie:
                switch try await film(event, integration: integration) {
                case .title(let title, _): return try await apply(film: title, event: event, profile: integration.profileID, at: moment)
                case .later(let outcome): return outcome
                }
            case .episode:
                switch try await show(event, integration: integration) {
                case .title(let title, _):
                    guard case .show(let show) = title else { return .done(.unmatched, "The title chosen is not a show.") }
                    return try await apply(show: show, event: event, profile: integration.profileID, at: moment)
                case .later(let outcome): return outcome
                }
            }
        } catch {
            logger.warning("integrations: an event could not be settled", metadata: ["error": "\(error)"])
            return .retry(seconds: TitleMatcher.waitAfterRefusal, "It could not be saved just now; it is tried again shortly.")
        }
    }

    public enum Chosen: Sendable, Equatable {
        case applied(IntegrationEvent)
        case notWaiting
        case titleNotFound
        case unavailable
    }

    /// The person picks the title for a waiting event: it is remembered for the server's id, and
    /// that event (with any other waiting for the same id) is applied.
    public func choose(profile: UUID, event id: UUID, kind: MediaKind, titleID: Int) async throws -> Chosen {
        guard let waiting = try await integrations.event(profile: profile, id: id), waiting.state == .waiting, let event = waiting.event
        else { return .notWaiting }
        let title: MatchedTitle
        switch await titles.title(kind, titleID, profile: profile) {
        case .found(let found): title = found
        case .notFound: return .titleNotFound
        case .unavailable: return .unavailable
        }
        let key = Self.serverKey(event)
        try await remember(title, integration: waiting.integrationID, key: key, chosen: true)
        // Every event of this server waiting for the same title goes again, this one first.
        let now = clock.now()
        var again = [id]
        for other in try await integrations.waiting(profile: profile, limit: 500)
        where other.id != id && other.integrationID == waiting.integrationID && other.event.map(Self.serverKey) == key {
            again.append(other.id)
        }
        let requeued = again
        try await database.writeSQL { sql in
            try await sql.update("integration_events").set("state", to: SQLBind(IntegrationEvent.State.pending.rawValue))
                .set("next_attempt_at", to: SQLBind(now)).set(SQLIdentifier("claimed_until"), to: SQLLiteral.null)
                .where("id", .in, requeued).where("state", .equal, SQLBind(IntegrationEvent.State.waiting.rawValue)).run()
        }
        for other in again { try await process(other) }
        return try await integrations.event(profile: profile, id: id).map { .applied($0) } ?? .notWaiting
    }

    // MARK: Applying

    /// The person's day of a moment, in their time zone.
    func day(_ moment: Date, profile: UUID) async throws -> String {
        CalendarService.day(of: moment, in: try await calendar.zone(profile: profile))
    }

    func apply(film title: MatchedTitle, event: MediaEvent, profile: UUID, at moment: Date) async throws -> Outcome {
        let saved = try title.savedTitle()
        let matched = (kind: MediaKind.movie, id: title.id)
        if event.action == .unplayed {
            _ = try await library.save(profile: profile, title: saved, change: LibraryChange(watched: false), logsWatch: false)
            return .done(.unwatched, "\(saved.title): unmarked, as the server’s “mark unplayed” erases watches here.", matched: matched)
        }
        let window = TimeInterval(max(saved.runtimeMinutes ?? Self.defaultRuntime.film, 20) * 60)
        let day = try await day(moment, profile: profile)
        let watched = try await library.item(profile: profile, movieID: title.id, kind: .movie)?.watched == true
        let (library, diary) = (library, diary)
        let logged = try await database.write(serializedBy: "movie|\(saved.itemID)", within: profile.uuidString) { db in
            let sql = db as! any SQLDatabase
            let near =
                try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("watches")
                .where("profile_id", .equal, SQLBind(profile)).where("media_kind", .equal, SQLBind(MediaKind.movie.rawValue))
                .where("item_id", .equal, SQLBind(saved.itemID)).where("created_at", .greaterThan, SQLBind(moment.addingTimeInterval(-window)))
                .where("created_at", .lessThan, SQLBind(moment.addingTimeInterval(window))).first(decodingColumn: "n", as: Int.self) ?? 0
            guard near == 0 else { return false }
            if !watched { _ = try await library.save(profile: profile, title: saved, change: LibraryChange(watched: true), logsWatch: false) }
            _ = try await diary.log(profile: profile, title: saved, day: day, rating: nil, note: nil, at: moment)
            return true
        }
        let name = saved.title
        return logged
            ? .done(.watched, "\(name), watched", matched: matched)
            : .done(.duplicate, "\(name): this watch is recorded already (from this or another server, or the app).", matched: matched)
    }

    func apply(show: Show, event: MediaEvent, profile: UUID, at moment: Date) async throws -> Outcome {
        guard await episodeCatalog.prepare(showID: show.id) != nil else {
            return .retry(seconds: TitleMatcher.waitAfterRefusal, "Waiting for TVMaze’s list of the episodes of “\(show.name)”.")
        }
        let found: [Episode]
        let list = try await episodes.episodes(showID: show.id)
        if let season = event.season, let first = event.episode {
            let last = min(max(event.episodeEnd ?? first, first), first + 20)
            found = (first...last).compactMap { number in list.first { $0.season == season && $0.number == number } }
            guard !found.isEmpty else {
                return .done(.unmatched, "TVMaze lists no S\(Episode.twoDigits(season))E\(Episode.twoDigits(first)) of “\(show.name)”.")
            }
        } else if let aired = event.aired, case let same = list.filter({ $0.airdate == aired }), !same.isEmpty {
            let named = event.title.map { title in same.filter { SearchQuery.fold($0.name).lowercased() == SearchQuery.fold(title).lowercased() } }
            found = same.count == 1 ? same : Array((named ?? []).prefix(1))
            guard !found.isEmpty else { return .done(.unmatched, "“\(show.name)” has several episodes on \(aired): mark it on the show’s page.") }
        } else if let title = event.title,
            let episode = list.first(where: { SearchQuery.fold($0.name).lowercased() == SearchQuery.fold(title).lowercased() })
        {
            found = [episode]
        } else {
            return .done(.unmatched, "The server did not say which episode of “\(show.name)” it was.")
        }
        let matched = (kind: MediaKind.show, id: show.id)
        let names = found.map(\.code).joined(separator: ", ")
        if event.action == .unplayed {
            for episode in found { try await episodes.unwatch(profile: profile, showID: show.id, episodeID: episode.id) }
            return .done(.unwatched, "\(show.name) \(names): unmarked, as the server’s “mark unplayed” erases watches here.", matched: matched)
        }
        let day = try await day(moment, profile: profile)
        var logged = 0
        for episode in found {
            let window = TimeInterval(max(episode.runtimeMinutes ?? show.runtimeMinutes ?? Self.defaultRuntime.episode, 10) * 60)
            let episodes = episodes
            let added = try await database.write(serializedBy: "episodes|\(show.id)", within: profile.uuidString) { db in
                let sql = db as! any SQLDatabase
                let near =
                    try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("watches")
                    .where("profile_id", .equal, SQLBind(profile)).where("episode_id", .equal, SQLBind(episode.id))
                    .where("created_at", .greaterThan, SQLBind(moment.addingTimeInterval(-window)))
                    .where("created_at", .lessThan, SQLBind(moment.addingTimeInterval(window))).first(decodingColumn: "n", as: Int.self) ?? 0
                guard near == 0 else { return false }
                try await episodes.log(episode, of: show, profile: profile, day: .day(day), now: moment, on: sql)
                try await episodes.touch(profile: profile, show: show, watchedAt: moment, on: sql)
                return true
            }
            if added { logged += 1 }
        }
        database.changes.publish(.person(profile))
        return logged > 0
            ? .done(.watched, "\(show.name) \(names), watched", matched: matched)
            : .done(.duplicate, "\(show.name) \(names): this watch is recorded already (from this or another server, or the app).", matched: matched)
    }

    // MARK: Settling

    /// An event asked for this long (an upstream down or over its allowance all that time) waits
    /// for the person instead.
    static let retryFor: TimeInterval = 86_400

    /// Settles the event. A retry waits what the upstream asked, and longer each time (up to an
    /// hour); after `retryFor` the event goes to Needs review.
    func finish(_ id: UUID, integration: Integration, _ outcome: Outcome, receivedAt: Date, attempts: Int) async throws {
        let now = clock.now()
        var outcome = outcome
        if case .retry(_, let words) = outcome, now.timeIntervalSince(receivedAt) >= Self.retryFor {
            outcome = .waiting(words + " Asked for a day without an answer: choose the title.", [])
        }
        var state = IntegrationEvent.State.done
        var result: IntegrationEvent.Result?
        var detail: String
        var candidates: [TitleCandidate] = []
        var next = now
        var matched: (kind: MediaKind, id: Int)?
        switch outcome {
        case .done(let settled, let words, let title):
            (result, detail, matched) = (settled, words, title)
        case .waiting(let words, let found):
            (state, result, detail, candidates) = (.waiting, .unmatched, words, found)
        case .retry(let seconds, let words):
            let backoff = min(3600, 20 * pow(2, Double(min(max(attempts - 1, 0), 10))))
            (state, detail, next) = (.retry, words, now.addingTimeInterval(max(TimeInterval(max(1, seconds)), backoff)))
        }
        let json = candidates.isEmpty ? nil : String(decoding: try JSONEncoder().encode(candidates), as: UTF8.self)
        let settled = (state: state, result: result, detail: detail, next: next, kind: matched?.kind.rawValue, id: matched?.id)
        try await database.writeSQL { sql in
            try await sql.update("integration_events").set("state", to: SQLBind(settled.state.rawValue))
                .set("result", to: SQLBind(settled.result?.rawValue)).set("detail", to: SQLBind(String(settled.detail.prefix(500))))
                .set("candidates", to: SQLBind(json)).set("matched_kind", to: SQLBind(settled.kind)).set("matched_id", to: SQLBind(settled.id))
                .set("next_attempt_at", to: SQLBind(settled.next)).set(SQLIdentifier("claimed_until"), to: SQLLiteral.null)
                .where("id", .equal, SQLBind(id)).run()
        }
        if let result, state != .retry {
            metrics.counter("popcornswirl_integration_events_total", [("kind", integration.kind.rawValue), ("result", result.rawValue)]).increment()
        }
        if state == .waiting || state == .done { database.changes.publish(.person(integration.profileID)) }
    }
}
