import Foundation
import SQLKit

/// A watch or rating of one episode brought from another tracker's export.
struct EpisodeImport: Sendable, Equatable {
    var episode: Episode
    /// Watched (with `day`, or on no known day when it is nil).
    var watched: Bool
    /// The day of the watch (`yyyy-MM-dd`).
    var day: String?
    /// The moment of the watch, when the tracker kept it (Up Next's order).
    var at: Date?
    var rating: Int?
    /// How many watches of the episode on `day` earlier rows of the same import account for: a
    /// file's two watches of one episode on one day both land, and the same file again adds none.
    var earlier: Int = 0
}

extension EpisodeService {
    /// The show's episode another tracker names by season and number: a regular episode, or for
    /// season 0 (where Trakt and TV Time keep specials, which TVMaze places in their season
    /// without a number) the special of that name.
    func episode(showID: Int, season: Int, number: Int, name: String?) async throws -> Episode? {
        let sql = try database.sql
        if season > 0 {
            return try await sql.select().columns(EpisodeRow.columns.map { SQLIdentifier($0) }).from("tv_episodes")
                .where("show_id", .equal, SQLBind(showID)).where("season", .equal, SQLBind(season)).where("number", .equal, SQLBind(number))
                .first(decoding: EpisodeRow.self)?.episode
        }
        guard let name, !name.isEmpty else { return nil }
        let wanted = SearchQuery.fold(name).lowercased()
        return try await episodes(showID: showID, on: sql).first { $0.isSpecial && SearchQuery.fold($0.name).lowercased() == wanted }
    }

    /// Lands an imported watch and rating, each only when it is not there yet; true when anything
    /// was added. A dated watch of an episode marked watched on no known day takes that mark's
    /// place (the date is what was missing); a watch with no day adds nothing to a watched episode.
    func land(_ imported: EpisodeImport, show: Show, profile: UUID) async throws(EpisodeError) -> Bool {
        let now = clock.now()
        let episode = imported.episode
        defer { database.changes.publish(.person(profile)) }
        do {
            return try await database.write(serializedBy: "episodes|\(show.id)", within: profile.uuidString) { db in
                let sql = db as! any SQLDatabase
                let state = try await self.states(profile: profile, showID: show.id, on: sql)[episode.id] ?? EpisodeState()
                var added = false
                if imported.watched, let day = imported.day {
                    let sameDay =
                        try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("watches")
                        .where("profile_id", .equal, SQLBind(profile)).where("episode_id", .equal, SQLBind(episode.id))
                        .where("watched_on", .equal, SQLBind(day)).first(decodingColumn: "n", as: Int.self) ?? 0
                    if sameDay <= imported.earlier {
                        try await self.log(episode, of: show, profile: profile, day: .day(day), now: now, on: sql)
                        if state.undatedWatches > 0 {
                            try await sql.update("episode_states").set(SQLIdentifier("undated_watches"), to: SQLRaw("undated_watches - 1"))
                                .set("updated_at", to: SQLBind(now)).where("profile_id", .equal, SQLBind(profile))
                                .where("episode_id", .equal, SQLBind(episode.id)).run()
                        }
                        added = true
                    }
                } else if imported.watched, !state.watched {
                    try await Self.markUndated(episode.id, of: show.id, profile: profile, now: now, on: sql)
                    added = true
                }
                if let rating = imported.rating, Rating.range.contains(rating), rating != state.rating {
                    try await Self.setRating(rating, episode: episode.id, of: show.id, profile: profile, now: now, on: sql)
                    added = true
                }
                if added {
                    // Up Next orders by the latest watch: the moment the tracker kept, else the day's
                    // start, else (a watch on no known day) now, as marking it here would.
                    let moment = imported.at ?? imported.day.flatMap(UTCFormatters.startOfDay) ?? now
                    try await self.touch(profile: profile, show: show, watchedAt: imported.watched ? moment : nil, on: sql)
                }
                return added
            }
        } catch let error as EpisodeError {
            throw error
        } catch {
            throw .storageFailed
        }
    }

    /// The show in the person's shows (for Up Next and the calendar), Stopped when `stopped`; true
    /// when that changed anything. A show already there keeps its choices unless it is to stop.
    func follow(profile: UUID, show: Show, stopped: Bool) async throws(EpisodeError) -> Bool {
        defer { database.changes.publish(.person(profile)) }
        do {
            return try await database.write(serializedBy: "episodes|\(show.id)", within: profile.uuidString) { db in
                let sql = db as! any SQLDatabase
                let held = try await sql.select().column("stopped").from("show_progress").where("profile_id", .equal, SQLBind(profile))
                    .where("show_id", .equal, SQLBind(show.id)).first(decodingColumn: "stopped", as: Bool.self)
                if held == nil { try await self.touch(profile: profile, show: show, watchedAt: nil, on: sql) }
                guard stopped, held != true else { return held == nil }
                try await sql.update("show_progress").set("stopped", to: SQLLiteral.boolean(true)).set("updated_at", to: SQLBind(self.clock.now()))
                    .where("profile_id", .equal, SQLBind(profile)).where("show_id", .equal, SQLBind(show.id)).run()
                return true
            }
        } catch {
            throw .storageFailed
        }
    }

    /// Every regular episode up to and including `through` (in season and number order) watched:
    /// those not watched yet are marked on no known day, and `through` itself on `day` when the
    /// tracker kept it. Returns how many episodes were marked, or nil when the show has no such episode.
    func landThrough(_ through: ImportedEpisode, day: String?, at: Date?, show: Show, profile: UUID) async throws(EpisodeError) -> Int? {
        let now = clock.now()
        defer { database.changes.publish(.person(profile)) }
        do {
            return try await database.write(serializedBy: "episodes|\(show.id)", within: profile.uuidString) { db in
                let sql = db as! any SQLDatabase
                let regular = try await self.episodes(showID: show.id, on: sql).filter { !$0.isSpecial }
                guard let last = regular.first(where: { $0.season == through.season && $0.number == through.number }) else { return nil }
                let states = try await self.states(profile: profile, showID: show.id, on: sql)
                let upTo = regular.filter { ($0.season, $0.number ?? 0) <= (through.season, through.number) && states[$0.id]?.watched != true }
                for episode in upTo {
                    if episode.id == last.id, let day {
                        try await self.log(episode, of: show, profile: profile, day: .day(day), now: now, on: sql)
                    } else {
                        try await Self.markUndated(episode.id, of: show.id, profile: profile, now: now, on: sql)
                    }
                }
                if !upTo.isEmpty {
                    try await self.touch(profile: profile, show: show, watchedAt: at ?? day.flatMap(UTCFormatters.startOfDay) ?? now, on: sql)
                }
                return upTo.count
            }
        } catch let error as EpisodeError {
            throw error
        } catch {
            throw .storageFailed
        }
    }
}
