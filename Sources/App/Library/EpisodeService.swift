import Foundation
import SQLKit

/// A person's episodes: which they watched and when, ratings, Stopped, Up Next. The pages and the
/// API both come here. An episode is watched when it has a watch: a dated one (a row of the diary,
/// `watches`, naming the episode) or one on a day nobody knows (`episode_states`). Episodes are
/// read from the tables `EpisodeCatalog` keeps.
public final class EpisodeService: Sendable {
    let database: AppDatabase
    let clock: any AppClock
    /// Each show's episodes as read, by the stored list they were read from (`Caches.episodeLists`).
    let lists: DeclaredCache<EpisodeListKey, [Episode]>

    init(database: AppDatabase, clock: any AppClock, lists: DeclaredCache<EpisodeListKey, [Episode]>) {
        self.database = database
        self.clock = clock
        self.lists = lists
    }

    // MARK: Reading

    struct EpisodeRow: Decodable {
        static let columns = [
            "id", "show_id", "position", "season", "number", "kind", "name", "airdate", "airtime", "airstamp", "runtime_minutes", "image_url",
        ]
        var id: Int
        var show_id: Int
        var position: Int
        var season: Int
        var number: Int?
        var kind: String
        var name: String
        var airdate: String?
        var airtime: String?
        var airstamp: Date?
        var runtime_minutes: Int?
        var image_url: String?

        var episode: Episode {
            Episode(
                id: id, showID: show_id, position: position, season: season, number: number, kind: Episode.Kind(rawValue: kind) ?? .regular,
                name: name, airdate: airdate, airtime: airtime, airstamp: airstamp, runtimeMinutes: runtime_minutes, summaryHTML: nil,
                imageMedium: image_url)
        }
    }

    /// The show's episodes as held, in airing order (regular episodes, then specials).
    func episodes(showID: Int, on sql: (any SQLDatabase)? = nil) async throws -> [Episode] {
        try await (sql ?? database.sql).select().columns(EpisodeRow.columns.map { SQLIdentifier($0) }).from("tv_episodes")
            .where("show_id", .equal, SQLBind(showID)).orderBy("position").all(decoding: EpisodeRow.self).map(\.episode)
    }

    /// The show's episodes as stored at `storedAt`, read once per stored list (`lists`).
    func kept(showID: Int, storedAt: Date) async throws -> [Episode] {
        try await lists.loaded(EpisodeListKey(showID: showID, storedAt: storedAt), bytes: { $0.count * 320 + 64 }) {
            try await self.episodes(showID: showID)
        } ?? []
    }

    func seasons(showID: Int) async throws -> [Season] {
        struct Row: Decodable {
            var number: Int
            var name: String?
            var episode_order: Int?
            var premiere_date: String?
            var end_date: String?
        }
        return try await database.sql.select().columns("number", "name", "episode_order", "premiere_date", "end_date").from("tv_seasons")
            .where("show_id", .equal, SQLBind(showID)).orderBy("number").all(decoding: Row.self)
            .map { Season(number: $0.number, name: $0.name, episodeOrder: $0.episode_order, premiereDate: $0.premiere_date, endDate: $0.end_date) }
    }

    /// The person's state of each episode of the show they watched or rated.
    func states(profile: UUID, showID: Int, on sql: (any SQLDatabase)? = nil) async throws -> [Int: EpisodeState] {
        let sql = try sql ?? database.sql
        struct Dated: Decodable {
            var episode_id: Int
            var n: Int
            var last_day: String
        }
        struct Kept: Decodable {
            var episode_id: Int
            var undated_watches: Int
            var rating: Int?
        }
        let dated = try await sql.select().column("episode_id").column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .column(SQLFunction("MAX", args: SQLIdentifier("watched_on")), as: "last_day").from("watches")
            .where("profile_id", .equal, SQLBind(profile)).where("media_kind", .equal, SQLBind(MediaKind.show.rawValue))
            .where("item_id", .equal, SQLBind(String(showID))).where(SQLIdentifier("episode_id"), .isNot, SQLLiteral.null)
            .groupBy("episode_id").all(decoding: Dated.self)
        let kept = try await sql.select().columns("episode_id", "undated_watches", "rating").from("episode_states")
            .where("profile_id", .equal, SQLBind(profile)).where("show_id", .equal, SQLBind(showID)).all(decoding: Kept.self)
        var states: [Int: EpisodeState] = [:]
        for row in dated { states[row.episode_id] = EpisodeState(datedWatches: row.n, lastDay: row.last_day) }
        for row in kept {
            states[row.episode_id, default: EpisodeState()].undatedWatches = row.undated_watches
            states[row.episode_id, default: EpisodeState()].rating = row.rating
        }
        return states
    }

    func choices(profile: UUID, showID: Int, on sql: (any SQLDatabase)? = nil) async throws -> ShowChoices {
        struct Row: Decodable {
            var stopped: Bool
            var include_specials: Bool
            var last_watched_at: Date?
        }
        guard
            let row = try await (sql ?? database.sql).select().columns("stopped", "include_specials", "last_watched_at").from("show_progress")
                .where("profile_id", .equal, SQLBind(profile)).where("show_id", .equal, SQLBind(showID)).first(decoding: Row.self)
        else { return ShowChoices() }
        return ShowChoices(stopped: row.stopped, includeSpecials: row.include_specials, lastWatchedAt: row.last_watched_at)
    }

    /// A show's seasons and episodes with the person's state of each (none for nobody).
    public func show(_ show: Show, held: HeldEpisodes, profile: UUID?) async throws -> ShowEpisodes {
        async let episodes = kept(showID: show.id, storedAt: held.storedAt)
        async let seasons = seasons(showID: show.id)
        var states: [Int: EpisodeState] = [:]
        var choices = ShowChoices()
        var ratings: [Int: Int] = [:]
        if let profile {
            states = try await self.states(profile: profile, showID: show.id)
            choices = try await self.choices(profile: profile, showID: show.id)
            ratings = try await seasonRatings(profile: profile, showID: show.id)
        }
        let now = clock.now()
        let tracked = try await episodes.map { TrackedEpisode(episode: $0, state: states[$0.id] ?? EpisodeState(), hasAired: $0.hasAired(by: now)) }
        let listed = try await seasons
        var bySeason: [Int: [TrackedEpisode]] = [:]
        for episode in tracked where !episode.episode.isSpecial { bySeason[episode.episode.season, default: []].append(episode) }
        let known = Dictionary(listed.map { ($0.number, $0) }, uniquingKeysWith: { a, _ in a })
        // Every season with episodes, and announced ones without, in order.
        let numbers = Set(bySeason.keys).union(listed.map(\.number)).sorted()
        let groups = numbers.map {
            SeasonEpisodes(season: known[$0] ?? Season(number: $0), episodes: bySeason[$0] ?? [], rating: ratings[$0])
        }
        return ShowEpisodes(
            showID: show.id, held: held, seasons: groups, specials: tracked.filter { $0.episode.isSpecial },
            progress: .of(tracked, choices: choices, ended: show.status == "Ended"))
    }

    /// One episode of the show as held (nil when the show's list has no such episode).
    func episode(_ id: Int, on sql: (any SQLDatabase)? = nil) async throws -> Episode? {
        try await (sql ?? database.sql).select().columns(EpisodeRow.columns.map { SQLIdentifier($0) }).from("tv_episodes")
            .where("id", .equal, SQLBind(id)).first(decoding: EpisodeRow.self)?.episode
    }

    /// An episode with its summary (TVMaze's HTML, to be sanitised), for its page.
    func detail(_ id: Int) async throws -> (episode: Episode, summaryHTML: String?)? {
        guard
            let row = try await database.sql.select().columns((EpisodeRow.columns + ["summary"]).map { SQLIdentifier($0) }).from("tv_episodes")
                .where("id", .equal, SQLBind(id)).first()
        else { return nil }
        let episode = try row.decode(model: EpisodeRow.self).episode
        return (episode, try row.decodeNil(column: "summary") ? nil : try row.decode(column: "summary", as: String.self))
    }

    /// The episodes before and after one in airing order (regular and specials apart).
    func neighbours(of episode: Episode) async throws -> (Episode?, Episode?) {
        let sql = try database.sql
        let kindMatch: SQLQueryString = episode.isSpecial ? "kind <> 'regular'" : "kind = 'regular'"
        func one(_ comparison: SQLQueryString, _ direction: SQLQueryString) async throws -> Episode? {
            try await sql.raw(
                """
                SELECT \(unsafeRaw: EpisodeRow.columns.joined(separator: ", ")) FROM tv_episodes \
                WHERE show_id = \(bind: episode.showID) AND \(kindMatch) AND position \(comparison) \(bind: episode.position) \
                ORDER BY position \(direction) LIMIT 1
                """
            ).first(decoding: EpisodeRow.self)?.episode
        }
        return (try await one("<", "DESC"), try await one(">", "ASC"))
    }

    // MARK: Writing

    /// Logs a watch of one aired episode (`again`: even when it is watched already, a rewatch;
    /// otherwise a watched episode is left as it is). Returns the episode's state after.
    @discardableResult
    public func watch(
        profile: UUID, show: Show, episodeID: Int, on day: EpisodeWatchDay, again: Bool = false
    ) async throws(EpisodeError) -> EpisodeState {
        defer { database.changes.publish(.person(profile)) }
        let now = clock.now()
        if case .day(let raw) = day {
            do { _ = try DiaryService.validatedDay(raw, now: now) } catch { throw .invalid(error.message) }
        }
        do {
            return try await database.write(serializedBy: "episodes|\(show.id)", within: profile.uuidString) { db in
                let sql = db as! any SQLDatabase
                guard let episode = try await self.episode(episodeID, on: sql), episode.showID == show.id else { throw EpisodeError.notFound }
                guard episode.hasAired(by: now) else { throw EpisodeError.notAired(episode.name) }
                let state = try await self.states(profile: profile, showID: show.id, on: sql)[episodeID] ?? EpisodeState()
                if state.watched, !again { return state }
                try await self.log(episode, of: show, profile: profile, day: day, now: now, on: sql)
                try await self.touch(profile: profile, show: show, watchedAt: now, on: sql)
                return try await self.states(profile: profile, showID: show.id, on: sql)[episodeID] ?? EpisodeState()
            }
        } catch let error as EpisodeError {
            throw error
        } catch {
            throw .storageFailed
        }
    }

    func log(_ episode: Episode, of show: Show, profile: UUID, day: EpisodeWatchDay, now: Date, on sql: any SQLDatabase) async throws {
        let dayText: String? =
            switch day {
            case .now: DiaryService.today(now)
            case .airDate: episode.airdate ?? episode.airsAt.map(DiaryService.today)
            case .day(let text): text
            case .unknown: nil
            }
        guard let dayText else {
            try await sql.raw(
                """
                INSERT INTO episode_states (profile_id, episode_id, show_id, undated_watches, updated_at) \
                VALUES (\(bind: profile), \(bind: episode.id), \(bind: show.id), 1, \(bind: now)) \
                ON CONFLICT (profile_id, episode_id) DO UPDATE SET undated_watches = episode_states.undated_watches + 1, \
                updated_at = \(bind: now)
                """
            ).run()
            return
        }
        let watch = Watch(
            id: UUID(), kind: .show, itemID: String(show.id), title: show.name, artworkURL: show.imageMedium, day: dayText, rating: nil, note: nil,
            isRewatch: false, genre: show.genres.first, runtimeMinutes: episode.runtimeMinutes ?? show.runtimeMinutes,
            episode: WatchedEpisode(id: episode.id, season: episode.season, number: episode.number, name: episode.name))
        try await DiaryService.insert(watch, profile: profile, at: now, on: sql)
    }

    /// The show is in the person's progress, last watched at `watchedAt` when that is later than
    /// the moment held (Up Next's order; an imported watch from years ago does not move the show up).
    func touch(profile: UUID, show: Show, watchedAt: Date?, on sql: any SQLDatabase) async throws {
        let latest: SQLQueryString =
            if let watchedAt {
                """
                CASE WHEN show_progress.last_watched_at IS NULL OR show_progress.last_watched_at < \(bind: watchedAt) \
                THEN \(bind: watchedAt) ELSE show_progress.last_watched_at END
                """
            } else {
                "show_progress.last_watched_at"
            }
        try await sql.raw(
            """
            INSERT INTO show_progress (profile_id, show_id, title, artwork_url, stopped, include_specials, last_watched_at, updated_at) \
            VALUES (\(bind: profile), \(bind: show.id), \(bind: show.name), \(bind: show.imageMedium), \(SQLLiteral.boolean(false)), \
            \(SQLLiteral.boolean(false)), \(bind: watchedAt), \(bind: clock.now())) \
            ON CONFLICT (profile_id, show_id) DO UPDATE SET title = \(bind: show.name), artwork_url = \(bind: show.imageMedium), \
            last_watched_at = \(latest), updated_at = \(bind: clock.now())
            """
        ).run()
    }

    /// Unmarks an episode: every watch of it goes (the diary's too); its rating stays.
    public func unwatch(profile: UUID, showID: Int, episodeID: Int) async throws(EpisodeError) {
        defer { database.changes.publish(.person(profile)) }
        do {
            try await database.write(serializedBy: "episodes|\(showID)", within: profile.uuidString) { db in
                let sql = db as! any SQLDatabase
                guard let episode = try await self.episode(episodeID, on: sql), episode.showID == showID else { throw EpisodeError.notFound }
                try await sql.delete(from: "watches").where("profile_id", .equal, SQLBind(profile)).where("episode_id", .equal, SQLBind(episodeID))
                    .run()
                try await sql.update("episode_states").set("undated_watches", to: SQLLiteral.numeric("0")).set(
                    "updated_at", to: SQLBind(self.clock.now())
                )
                .where("profile_id", .equal, SQLBind(profile)).where("episode_id", .equal, SQLBind(episodeID)).run()
                try await sql.delete(from: "episode_states").where("profile_id", .equal, SQLBind(profile))
                    .where("episode_id", .equal, SQLBind(episodeID)).where(SQLIdentifier("rating"), .is, SQLLiteral.null).run()
            }
        } catch let error as EpisodeError {
            throw error
        } catch {
            throw .storageFailed
        }
    }

    /// Rates an episode 1–10, or clears its rating (nil).
    public func rate(profile: UUID, show: Show, episodeID: Int, rating: Int?) async throws(EpisodeError) {
        defer { database.changes.publish(.person(profile)) }
        if let rating, !Rating.range.contains(rating) {
            throw .invalid(LibraryError.invalidRating(rating).message)
        }
        let now = clock.now()
        do {
            try await database.write(serializedBy: "episodes|\(show.id)", within: profile.uuidString) { db in
                let sql = db as! any SQLDatabase
                guard let episode = try await self.episode(episodeID, on: sql), episode.showID == show.id else { throw EpisodeError.notFound }
                try await Self.setRating(rating, episode: episode.id, of: show.id, profile: profile, now: now, on: sql)
                try await sql.delete(from: "episode_states").where("profile_id", .equal, SQLBind(profile))
                    .where("episode_id", .equal, SQLBind(episodeID)).where("undated_watches", .equal, SQLLiteral.numeric("0"))
                    .where(SQLIdentifier("rating"), .is, SQLLiteral.null).run()
                try await self.touch(profile: profile, show: show, watchedAt: nil, on: sql)
            }
        } catch let error as EpisodeError {
            throw error
        } catch {
            throw .storageFailed
        }
    }

    /// Marks every aired regular episode not yet watched (of one season, or of the whole show)
    /// watched on a day nobody knows. Specials and unaired episodes are never touched. Returns
    /// how many were marked.
    public func watchAll(profile: UUID, show: Show, season: Int?) async throws(EpisodeError) -> Int {
        defer { database.changes.publish(.person(profile)) }
        let now = clock.now()
        do {
            return try await database.write(serializedBy: "episodes|\(show.id)", within: profile.uuidString) { db in
                let sql = db as! any SQLDatabase
                let states = try await self.states(profile: profile, showID: show.id, on: sql)
                let marked = try await self.episodes(showID: show.id, on: sql).filter {
                    !$0.isSpecial && $0.hasAired(by: now) && (season == nil || $0.season == season) && states[$0.id]?.watched != true
                }
                guard !marked.isEmpty else { return 0 }
                for episode in marked { try await Self.markUndated(episode.id, of: show.id, profile: profile, now: now, on: sql) }
                try await self.touch(profile: profile, show: show, watchedAt: now, on: sql)
                return marked.count
            }
        } catch {
            throw .storageFailed
        }
    }

    /// The episode watched once on a day nobody knows (its watches with a day stay as they are).
    static func markUndated(_ episode: Int, of show: Int, profile: UUID, now: Date, on sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            INSERT INTO episode_states (profile_id, episode_id, show_id, undated_watches, updated_at) \
            VALUES (\(bind: profile), \(bind: episode), \(bind: show), 1, \(bind: now)) \
            ON CONFLICT (profile_id, episode_id) DO UPDATE SET undated_watches = 1, updated_at = \(bind: now)
            """
        ).run()
    }

    /// The episode's rating (nil clears it; the row stays while it holds watches).
    static func setRating(_ rating: Int?, episode: Int, of show: Int, profile: UUID, now: Date, on sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            INSERT INTO episode_states (profile_id, episode_id, show_id, undated_watches, rating, updated_at) \
            VALUES (\(bind: profile), \(bind: episode), \(bind: show), 0, \(bind: rating), \(bind: now)) \
            ON CONFLICT (profile_id, episode_id) DO UPDATE SET rating = \(bind: rating), updated_at = \(bind: now)
            """
        ).run()
    }

    /// Sets Stopped (hidden from Up Next) and whether the show's specials count in its progress.
    public func choose(profile: UUID, show: Show, stopped: Bool?, includeSpecials: Bool?) async throws(EpisodeError) -> ShowChoices {
        defer { database.changes.publish(.person(profile)) }
        do {
            return try await database.write(serializedBy: "episodes|\(show.id)", within: profile.uuidString) { db in
                let sql = db as! any SQLDatabase
                try await self.touch(profile: profile, show: show, watchedAt: nil, on: sql)
                let update = sql.update("show_progress").set("updated_at", to: SQLBind(self.clock.now()))
                if let stopped { update.set("stopped", to: SQLLiteral.boolean(stopped)) }
                if let includeSpecials { update.set("include_specials", to: SQLLiteral.boolean(includeSpecials)) }
                try await update.where("profile_id", .equal, SQLBind(profile)).where("show_id", .equal, SQLBind(show.id)).run()
                return try await self.choices(profile: profile, showID: show.id, on: sql)
            }
        } catch {
            throw .storageFailed
        }
    }

    // MARK: Up Next

    /// The person's shows in progress, most recently watched first: with aired episodes left
    /// (`toWatch`), or every aired one watched and another announced (`waiting`). Stopped shows
    /// are left out. Three reads (the shows, the episodes watched, the lists' versions); each
    /// show's episodes come from `lists`, and the counting is done here: correlated subqueries
    /// over 300 shows took 120 ms in SQLite (scripts/bench's Up Next row).
    public func upNext(profile: UUID?, filter: UpNextFilter = .toWatch, limit: Int = 500) async throws -> [UpNextItem] {
        guard let profile else { return [] }
        let sql = try database.sql
        let now = clock.now()
        struct Row: Decodable {
            var show_id: Int
            var title: String
            var artwork_url: String?
            var last_watched_at: Date
            var synced_at: Date?
        }
        let shows = try await sql.raw(
            """
            SELECT p.show_id, p.title, p.artwork_url, p.last_watched_at, l.synced_at FROM show_progress p \
            LEFT JOIN tv_episode_lists l ON l.show_id = p.show_id \
            WHERE p.profile_id = \(bind: profile) AND p.stopped = \(SQLLiteral.boolean(false)) AND p.last_watched_at IS NOT NULL \
            ORDER BY p.last_watched_at DESC LIMIT \(unsafeRaw: String(max(1, min(limit, 2_000))))
            """
        ).all(decoding: Row.self)
        guard !shows.isEmpty else { return [] }
        // Every episode the person watched (a dated watch, or one on no known day) as two lists of
        // ids in one row: 6,500 rows decoded one by one cost more than the rest of Up Next.
        struct Watched: Decodable {
            var dated: String?
            var undated: String?
        }
        let lists = try await sql.raw(
            """
            SELECT (SELECT string_agg(CAST(episode_id AS TEXT), ',') FROM watches \
            WHERE profile_id = \(bind: profile) AND episode_id IS NOT NULL) AS dated, \
            (SELECT string_agg(CAST(episode_id AS TEXT), ',') FROM episode_states \
            WHERE profile_id = \(bind: profile) AND undated_watches > 0) AS undated
            """
        ).first(decoding: Watched.self)
        var watched = Set<Int>()
        for list in [lists?.dated, lists?.undated] {
            for id in list?.split(separator: ",") ?? [] { if let id = Int(id) { watched.insert(id) } }
        }
        var items: [UpNextItem] = []
        for show in shows {
            guard let storedAt = show.synced_at else { continue }
            let episodes = try await kept(showID: show.show_id, storedAt: storedAt)
            var next: Episode?
            var nextAiring: Episode?
            var remaining = 0
            var new = 0
            // By index: an episode is copied (its strings retained) only when it is next.
            for index in episodes.indices where !episodes[index].isSpecial {
                guard let airs = episodes[index].airsAt, airs <= now else {
                    if nextAiring == nil { nextAiring = episodes[index] }
                    continue
                }
                guard !watched.contains(episodes[index].id) else { continue }
                remaining += 1
                if next == nil { next = episodes[index] }
                if airs > show.last_watched_at { new += 1 }
            }
            let wanted =
                switch filter {
                case .toWatch: remaining > 0
                case .waiting: remaining == 0 && nextAiring != nil
                }
            guard wanted else { continue }
            items.append(
                UpNextItem(
                    showID: show.show_id, title: show.title, artworkURL: show.artwork_url, next: next, remaining: remaining, new: new,
                    nextAiring: nextAiring, lastWatchedAt: show.last_watched_at))
        }
        return items
    }
}
