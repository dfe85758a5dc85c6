import Foundation
import SQLKit

/// Restores a PopcornSwirl backup into a person's lists exactly as it was exported: each title
/// with its flags, note, rating, saved copy and times; each watch with its day, rating, note and
/// the time it was logged; each list with its description, items in order, their notes and
/// times; the searches. Nothing already there is changed or doubled (restoring twice adds
/// nothing); a title already saved keeps its own flags and gains only what it lacked.
struct BackupRestore: Sendable {
    static let batch = 200

    let database: AppDatabase
    let history: SearchHistoryStore

    struct Counts: Equatable {
        var added = 0
        var present = 0
        var total: Int { added + present }
    }

    func restore(_ backup: Backup, profile: UUID) async throws -> Counts {
        guard backup.version <= Backup.currentVersion else {
            throw ImportRefused(
                message: "This backup was made by a newer PopcornSwirl (format \(backup.version)); this one reads format \(Backup.currentVersion).")
        }
        var counts = Counts()
        for start in stride(from: 0, to: backup.titles.count, by: Self.batch) {
            let titles = Array(backup.titles[start..<min(backup.titles.count, start + Self.batch)])
            let added = try await database.write(serializedBy: profile.uuidString) { db in
                try await Self.titles(titles, profile: profile, on: db as! any SQLDatabase)
            }
            counts.added += added
            counts.present += titles.count - added
        }
        for start in stride(from: 0, to: backup.watches.count, by: Self.batch) {
            let watches = Array(backup.watches[start..<min(backup.watches.count, start + Self.batch)])
            let added = try await database.writeSQL { sql in try await Self.watches(watches, profile: profile, on: sql) }
            counts.added += added
            counts.present += watches.count - added
        }
        for list in backup.lists {
            let added = try await database.write(serializedBy: profile.uuidString) { db in
                try await Self.list(list, profile: profile, on: db as! any SQLDatabase)
            }
            counts.added += added
            counts.present += list.items.count + 1 - added
        }
        for start in stride(from: 0, to: backup.episodes?.count ?? 0, by: Self.batch) {
            let marks = Array(backup.episodes![start..<min(backup.episodes!.count, start + Self.batch)])
            let added = try await database.writeSQL { sql in try await Self.episodes(marks, profile: profile, on: sql) }
            counts.added += added
            counts.present += marks.count - added
        }
        if let shows = backup.shows, !shows.isEmpty {
            let added = try await database.writeSQL { sql in try await Self.shows(shows, profile: profile, on: sql) }
            counts.added += added
            counts.present += shows.count - added
        }
        if let ratings = backup.seasonRatings, !ratings.isEmpty {
            let added = try await database.writeSQL { sql in try await Self.seasonRatings(ratings, profile: profile, on: sql) }
            counts.added += added
            counts.present += ratings.count - added
        }
        for search in backup.searches.prefix(SearchHistoryStore.limit).reversed() {
            guard let query = try? SearchQuery(search.query) else { continue }
            try await history.record(profile: profile, query: query, at: search.searchedAt)
        }
        return counts
    }

    static func rating(_ value: Int?) -> Int? { value.flatMap { Rating.range.contains($0) ? $0 : nil } }
    static func note(_ text: String?) -> String? { text.map { String($0.prefix(LibraryService.noteLimit)) } }

    private static func titles(_ titles: [Backup.Title], profile: UUID, on sql: any SQLDatabase) async throws -> Int {
        var added = 0
        for title in titles {
            let snapshot: Data
            if let movie = title.movie {
                snapshot = try JSONEncoder().encode(movie)
            } else if let show = title.show {
                snapshot = try JSONEncoder().encode(show)
            } else {
                continue
            }
            // A title is saved under the id of its saved copy, whatever else the file says.
            guard title.id == String(title.movie?.id ?? title.show?.id ?? -1) else { continue }
            let existing = try await sql.select().columns("favorite", "watched", "note", "rating").from(LibraryEntryModel.schema)
                .where("profile_id", .equal, SQLBind(profile)).where("media_kind", .equal, SQLBind(title.kind.rawValue))
                .where("item_id", .equal, SQLBind(title.id)).first()
            if let existing {
                // Only what the entry lacks: its own flags, note and rating win.
                try await sql.raw(
                    """
                    UPDATE library_entries SET favorite = \(bind: try existing.decode(column: "favorite", as: Bool.self) || title.favorite),
                    watched = \(bind: try existing.decode(column: "watched", as: Bool.self) || title.watched),
                    note = COALESCE(note, \(bind: Self.note(title.note))), rating = COALESCE(rating, \(bind: Self.rating(title.rating)))
                    WHERE profile_id = \(bind: profile) AND media_kind = \(bind: title.kind.rawValue) AND item_id = \(bind: title.id)
                    """
                ).run()
                continue
            }
            try await sql.insert(into: LibraryEntryModel.schema)
                .columns(
                    "id", "profile_id", "media_kind", "item_id", "title", "genre", "release_date", "artwork_url", "favorite", "watched", "note",
                    "rating", "snapshot", "created_at", "updated_at"
                )
                .values(
                    SQLBind(UUID()), SQLBind(profile), SQLBind(title.kind.rawValue), SQLBind(title.id), SQLBind(String(title.title.prefix(500))),
                    SQLBind(title.genre), SQLBind(title.releaseDate), SQLBind(title.artworkURL), SQLBind(title.favorite), SQLBind(title.watched),
                    SQLBind(Self.note(title.note)), SQLBind(Self.rating(title.rating)), SQLBind(snapshot), SQLBind(title.addedAt),
                    SQLBind(title.changedAt)
                ).run()
            added += 1
        }
        return added
    }

    /// An episode's watches on no known day and rating, where the person has none of their own.
    private static func episodes(_ marks: [Backup.EpisodeMark], profile: UUID, on sql: any SQLDatabase) async throws -> Int {
        var added = 0
        for mark in marks where mark.episodeID > 0 && mark.showID > 0 {
            let there = try await sql.select().column("episode_id").from("episode_states").where("profile_id", .equal, SQLBind(profile))
                .where("episode_id", .equal, SQLBind(mark.episodeID)).first()
            guard there == nil else { continue }
            try await sql.insert(into: "episode_states").columns("profile_id", "episode_id", "show_id", "undated_watches", "rating", "updated_at")
                .values(
                    SQLBind(profile), SQLBind(mark.episodeID), SQLBind(mark.showID), SQLBind(max(0, min(mark.undatedWatches, 1_000))),
                    SQLBind(Self.rating(mark.rating)), SQLBind(mark.changedAt)
                ).run()
            added += 1
        }
        return added
    }

    /// A season's rating, where the person has not rated it here.
    private static func seasonRatings(_ ratings: [Backup.SeasonRatingEntry], profile: UUID, on sql: any SQLDatabase) async throws -> Int {
        var added = 0
        for entry in ratings where entry.showID > 0 && (1...10_000).contains(entry.season) {
            guard let rating = Self.rating(entry.rating) else { continue }
            let there = try await sql.select().column("season").from("season_ratings").where("profile_id", .equal, SQLBind(profile))
                .where("show_id", .equal, SQLBind(entry.showID)).where("season", .equal, SQLBind(entry.season)).first()
            guard there == nil else { continue }
            try await EpisodeService.setSeasonRating(rating, season: entry.season, of: entry.showID, profile: profile, now: entry.changedAt, on: sql)
            added += 1
        }
        return added
    }

    /// A show begun, where the person has not begun it here.
    private static func shows(_ shows: [Backup.ShowProgressEntry], profile: UUID, on sql: any SQLDatabase) async throws -> Int {
        var added = 0
        for show in shows where show.showID > 0 {
            let there = try await sql.select().column("show_id").from("show_progress").where("profile_id", .equal, SQLBind(profile))
                .where("show_id", .equal, SQLBind(show.showID)).first()
            guard there == nil else { continue }
            try await sql.insert(into: "show_progress")
                .columns("profile_id", "show_id", "title", "artwork_url", "stopped", "include_specials", "last_watched_at", "updated_at")
                .values(
                    SQLBind(profile), SQLBind(show.showID), SQLBind(String(show.title.prefix(500))), SQLBind(show.artworkURL),
                    SQLBind(show.stopped), SQLBind(show.includeSpecials), SQLBind(show.lastWatchedAt), SQLBind(show.changedAt)
                ).run()
            added += 1
        }
        return added
    }

    /// A watch is there already when the person has one of the title (the episode) on that day logged at that moment.
    private static func watches(_ watches: [Backup.Watch], profile: UUID, on sql: any SQLDatabase) async throws -> Int {
        var added = 0
        for watch in watches {
            let there = try await sql.select().column("id").from("watches").where("profile_id", .equal, SQLBind(profile))
                .where("media_kind", .equal, SQLBind(watch.kind.rawValue)).where("item_id", .equal, SQLBind(watch.id))
                .where("watched_on", .equal, SQLBind(watch.day)).where("created_at", .equal, SQLBind(watch.loggedAt))
                .where(
                    watch.episode.map { SQLBinaryExpression(SQLIdentifier("episode_id"), .equal, SQLBind($0.id)) }
                        ?? SQLBinaryExpression(SQLIdentifier("episode_id"), .is, SQLLiteral.null)
                ).first()
            guard there == nil else { continue }
            let restored = Watch(
                id: UUID(), kind: watch.kind, itemID: watch.id, title: watch.title, artworkURL: watch.artworkURL, day: watch.day,
                rating: watch.rating,
                note: watch.note, isRewatch: false, genre: watch.genre, runtimeMinutes: watch.runtimeMinutes,
                episode: watch.episode.map { WatchedEpisode(id: $0.id, season: $0.season, number: $0.number, name: String($0.name.prefix(300))) })
            try await DiaryService.insert(restored, profile: profile, at: watch.loggedAt, on: sql)
            added += 1
        }
        return added
    }

    /// The list of that name (made as it was when there is none), and its items not in it yet, after the rest.
    private static func list(_ list: Backup.List, profile: UUID, on sql: any SQLDatabase) async throws -> Int {
        var added = 0
        let name = String(list.name.trimmingCharacters(in: .whitespacesAndNewlines).prefix(CustomListError.nameLimit))
        guard !name.isEmpty else { return 0 }
        var id = try await sql.select().column("id").from("custom_lists").where("profile_id", .equal, SQLBind(profile))
            .where("name", .equal, SQLBind(name)).first(decodingColumn: "id", as: UUID.self)
        let lists =
            try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("custom_lists")
            .where("profile_id", .equal, SQLBind(profile)).first(decodingColumn: "n", as: Int.self) ?? 0
        if id == nil, lists < CustomListError.listLimit {
            let new = UUID()
            try await sql.insert(into: "custom_lists").columns("id", "profile_id", "name", "description", "created_at", "updated_at")
                .values(
                    SQLBind(new), SQLBind(profile), SQLBind(list.name), SQLBind(list.description), SQLBind(list.createdAt), SQLBind(list.changedAt)
                )
                .run()
            id = new
            added += 1
        }
        guard let id else { return added }
        var position =
            try await sql.select().column(
                SQLFunction("COALESCE", args: SQLFunction("MAX", args: SQLIdentifier("position")), SQLLiteral.numeric("0")), as: "n"
            )
            .from("custom_list_items").where("list_id", .equal, SQLBind(id)).first(decodingColumn: "n", as: Int.self) ?? 0
        for item in list.items where position < CustomListError.itemLimit {
            let there = try await sql.select().column("list_id").from("custom_list_items").where("list_id", .equal, SQLBind(id))
                .where("media_kind", .equal, SQLBind(item.kind.rawValue)).where("item_id", .equal, SQLBind(item.id)).first()
            guard there == nil else { continue }
            position += 1
            try await sql.insert(into: "custom_list_items")
                .columns("list_id", "media_kind", "item_id", "title", "year", "artwork_url", "position", "note", "added_at")
                .values(
                    SQLBind(id), SQLBind(item.kind.rawValue), SQLBind(String(item.id.prefix(40))), SQLBind(String(item.title.prefix(500))),
                    SQLBind(item.year), SQLBind(item.artworkURL), SQLBind(position), SQLBind(Self.note(item.note)), SQLBind(item.addedAt)
                ).run()
            added += 1
        }
        return added
    }
}
