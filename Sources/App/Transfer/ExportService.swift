import Foundation
import SQLKit

/// Reads everything of one person into a `Backup`, and writes it out as JSON, as a CSV Letterboxd
/// imports, or one custom list as a plain CSV. Pages, the API and `popcornswirl export` share it.
public struct ExportService: Sendable {
    let database: AppDatabase
    let clock: any AppClock

    public init(database: AppDatabase, clock: any AppClock) {
        self.database = database
        self.clock = clock
    }

    /// Everything of `profile` (an empty backup for nobody).
    public func backup(profile: UUID?) async throws -> Backup {
        let now = clock.now()
        guard let profile else { return Backup(exportedAt: now, titles: [], watches: [], lists: [], searches: []) }
        async let titles = self.titles(profile)
        async let watches = self.watches(profile)
        async let lists = self.lists(profile)
        async let searches = self.searches(profile)
        async let episodes = self.episodes(profile)
        async let shows = self.shows(profile)
        async let seasonRatings = self.seasonRatings(profile)
        return Backup(
            exportedAt: now, titles: try await titles, watches: try await watches, lists: try await lists, searches: try await searches,
            episodes: try await episodes, shows: try await shows, seasonRatings: try await seasonRatings)
    }

    /// One of the person's lists as CSV, or nil when they have no list of that id.
    public func listCSV(profile: UUID?, id: UUID) async throws -> (name: String, csv: String)? {
        guard let profile else { return nil }
        guard let list = try await lists(profile, only: id).first else { return nil }
        return (list.name, ExportFormats.listCSV(list))
    }

    private func titles(_ profile: UUID) async throws -> [Backup.Title] {
        // A saved title's card columns with its snapshot and the day it was first saved.
        let rows = try await EntryRow.select(database.sql, adding: ["snapshot", "created_at"]).where("profile_id", .equal, SQLBind(profile))
            .orderBy("created_at").orderBy("media_kind").orderBy("item_id").all()
        let decoder = JSONDecoder()
        return try rows.map { row in
            let entry = try EntryRow(row: row)
            let snapshot = try row.decode(column: "snapshot", as: Data.self)
            let kind = MediaKind(rawValue: entry.media_kind) ?? .movie
            return Backup.Title(
                kind: kind, id: entry.item_id, title: entry.title, genre: entry.genre, releaseDate: entry.release_date,
                artworkURL: entry.artwork_url, favorite: entry.favorite, watched: entry.watched, note: entry.note, rating: entry.rating,
                addedAt: try row.decode(column: "created_at", as: Date.self), changedAt: entry.updated_at,
                movie: kind == .movie ? try? decoder.decode(Movie.self, from: snapshot) : nil,
                show: kind == .show ? try? decoder.decode(Show.self, from: snapshot) : nil)
        }
    }

    private func watches(_ profile: UUID) async throws -> [Backup.Watch] {
        struct Row: Decodable {
            var media_kind: String
            var item_id: String
            var title: String
            var artwork_url: String?
            var watched_on: String
            var rating: Int?
            var note: String?
            var genre: String?
            var runtime_minutes: Int?
            var created_at: Date
            var episode_id: Int?
            var season: Int?
            var episode_number: Int?
            var episode_name: String?
        }
        return try await database.sql.select()
            .columns(
                "media_kind", "item_id", "title", "artwork_url", "watched_on", "rating", "note", "genre", "runtime_minutes", "created_at",
                "episode_id", "season", "episode_number", "episode_name"
            )
            .from("watches").where("profile_id", .equal, SQLBind(profile)).orderBy("watched_on").orderBy("created_at").orderBy("id")
            .all(decoding: Row.self)
            .map { row in
                Backup.Watch(
                    kind: MediaKind(rawValue: row.media_kind) ?? .movie, id: row.item_id, title: row.title, artworkURL: row.artwork_url,
                    day: row.watched_on, rating: row.rating, note: row.note, genre: row.genre, runtimeMinutes: row.runtime_minutes,
                    loggedAt: row.created_at,
                    episode: row.episode_id.map {
                        Backup.EpisodeRef(id: $0, season: row.season ?? 0, number: row.episode_number, name: row.episode_name ?? "")
                    })
            }
    }

    private func episodes(_ profile: UUID) async throws -> [Backup.EpisodeMark] {
        struct Row: Decodable {
            var show_id: Int
            var episode_id: Int
            var undated_watches: Int
            var rating: Int?
            var updated_at: Date
        }
        return try await database.sql.select().columns("show_id", "episode_id", "undated_watches", "rating", "updated_at").from("episode_states")
            .where("profile_id", .equal, SQLBind(profile)).orderBy("show_id").orderBy("episode_id").all(decoding: Row.self)
            .map {
                Backup.EpisodeMark(
                    showID: $0.show_id, episodeID: $0.episode_id, undatedWatches: $0.undated_watches, rating: $0.rating, changedAt: $0.updated_at)
            }
    }

    private func seasonRatings(_ profile: UUID) async throws -> [Backup.SeasonRatingEntry] {
        struct Row: Decodable {
            var show_id: Int
            var season: Int
            var rating: Int
            var updated_at: Date
        }
        return try await database.sql.select().columns("show_id", "season", "rating", "updated_at").from("season_ratings")
            .where("profile_id", .equal, SQLBind(profile)).orderBy("show_id").orderBy("season").all(decoding: Row.self)
            .map { Backup.SeasonRatingEntry(showID: $0.show_id, season: $0.season, rating: $0.rating, changedAt: $0.updated_at) }
    }

    private func shows(_ profile: UUID) async throws -> [Backup.ShowProgressEntry] {
        struct Row: Decodable {
            var show_id: Int
            var title: String
            var artwork_url: String?
            var stopped: Bool
            var include_specials: Bool
            var last_watched_at: Date?
            var updated_at: Date
        }
        return try await database.sql.select()
            .columns("show_id", "title", "artwork_url", "stopped", "include_specials", "last_watched_at", "updated_at").from("show_progress")
            .where("profile_id", .equal, SQLBind(profile)).orderBy("show_id").all(decoding: Row.self)
            .map {
                Backup.ShowProgressEntry(
                    showID: $0.show_id, title: $0.title, artworkURL: $0.artwork_url, stopped: $0.stopped, includeSpecials: $0.include_specials,
                    lastWatchedAt: $0.last_watched_at, changedAt: $0.updated_at)
            }
    }

    private func lists(_ profile: UUID, only: UUID? = nil) async throws -> [Backup.List] {
        struct ListRow: Decodable {
            var id: UUID
            var name: String
            var description: String?
            var created_at: Date
            var updated_at: Date
        }
        struct ItemRow: Decodable {
            var list_id: UUID
            var media_kind: String
            var item_id: String
            var title: String
            var year: Int?
            var artwork_url: String?
            var note: String?
            var added_at: Date
        }
        var query = try database.sql.select().columns("id", "name", "description", "created_at", "updated_at").from("custom_lists")
            .where("profile_id", .equal, SQLBind(profile))
        if let only { query = query.where("id", .equal, SQLBind(only)) }
        let lists = try await query.orderBy("created_at").orderBy("id").all(decoding: ListRow.self)
        guard !lists.isEmpty else { return [] }
        let items = try await database.sql.select()
            .columns(["list_id", "media_kind", "item_id", "title", "year", "artwork_url", "note", "added_at"].map { SQLColumn($0, table: "i") })
            .from(SQLAlias(SQLIdentifier("custom_list_items"), as: SQLIdentifier("i")))
            .join(
                SQLAlias(SQLIdentifier("custom_lists"), as: SQLIdentifier("l")), on: SQLColumn("id", table: "l"), .equal,
                SQLColumn("list_id", table: "i")
            )
            .where(SQLColumn("profile_id", table: "l"), .equal, SQLBind(profile))
            .where(SQLColumn("id", table: "l"), .in, SQLBind.group(lists.map(\.id)))
            .orderBy(SQLColumn("list_id", table: "i")).orderBy(SQLColumn("position", table: "i"))
            .all(decoding: ItemRow.self)
        let byList = Dictionary(grouping: items, by: \.list_id)
        return lists.map { list in
            Backup.List(
                name: list.name, description: list.description, createdAt: list.created_at, changedAt: list.updated_at,
                items: (byList[list.id] ?? []).map { item in
                    .init(
                        kind: MediaKind(rawValue: item.media_kind) ?? .movie, id: item.item_id, title: item.title, year: item.year,
                        artworkURL: item.artwork_url, note: item.note, addedAt: item.added_at)
                })
        }
    }

    private func searches(_ profile: UUID) async throws -> [Backup.Search] {
        struct Row: Decodable {
            var query: String
            var searched_at: Date
        }
        return try await database.sql.select().columns("query", "searched_at").from("search_history")
            .where("profile_id", .equal, SQLBind(profile)).orderBy("searched_at", .descending)
            .all(decoding: Row.self).map { Backup.Search(query: $0.query, searchedAt: $0.searched_at) }
    }
}
