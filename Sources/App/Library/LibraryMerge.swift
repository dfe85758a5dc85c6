import FluentKit
import Foundation
import SQLKit

extension LibraryService {
    /// Moves a visitor's lists, custom lists and diary into an account in one transaction; nothing is lost. The
    /// same title in both becomes one entry: flags combined (either list counts), the newer note and
    /// rating kept (older ones survive when the newer entry has none), the newer snapshot kept. The newer last search
    /// is kept too. The visitor's profile is then deleted (with its sessions).
    func merge(visitor: UUID, into account: UUID) async throws {
        guard visitor != account else { return }
        defer { database.changes.publish(.person(account)) }
        // Both people's writes wait: a visitor's write at the same moment would otherwise touch the
        // same diary tallies (migration 026) in another order, or log a watch the merge then misses.
        try await database.write(serializedByAll: [account.uuidString, visitor.uuidString]) { db in
            let incoming = try await LibraryEntryModel.query(on: db).filter(\.$profileID == visitor).all()
            for entry in incoming {
                let existing = try await LibraryEntryModel.query(on: db)
                    .filter(\.$profileID == account)
                    .filter(\.$mediaKind == entry.mediaKind)
                    .filter(\.$itemID == entry.itemID)
                    .first()
                guard let existing else {
                    entry.profileID = account
                    try await entry.update(on: db)
                    continue
                }
                let (newer, older) = entry.updatedAt > existing.updatedAt ? (entry, existing) : (existing, entry)
                existing.favorite = existing.favorite || entry.favorite
                existing.watched = existing.watched || entry.watched
                existing.note = newer.note ?? older.note
                existing.rating = newer.rating ?? older.rating
                existing.title = newer.title
                existing.genre = newer.genre
                existing.releaseDate = newer.releaseDate
                existing.artworkURL = newer.artworkURL
                existing.snapshot = newer.snapshot
                existing.createdAt = min(existing.createdAt, entry.createdAt)
                existing.updatedAt = newer.updatedAt
                try await entry.delete(on: db)
                try await existing.update(on: db)
            }
            // Every watch in the visitor's diary joins the account's (a diary is a history: all kept).
            try await (db as! any SQLDatabase).update("watches").set("profile_id", to: SQLBind(account))
                .where("profile_id", .equal, SQLBind(visitor)).run()
            // So does every custom list, whole (its share link keeps working).
            try await (db as! any SQLDatabase).update("custom_lists").set("profile_id", to: SQLBind(account))
                .where("profile_id", .equal, SQLBind(visitor)).run()
            try await Self.mergeEpisodes(visitor: visitor, into: account, on: db as! any SQLDatabase)
            if let search = try await LastSearchModel.find(visitor, on: db) {
                let kept = try await LastSearchModel.find(account, on: db)
                if kept == nil || kept!.searchedAt < search.searchedAt {
                    try await kept?.delete(on: db)
                    let moved = LastSearchModel()
                    moved.id = account
                    moved.query = search.query
                    moved.movie = search.movie
                    moved.details = search.details
                    moved.searchedAt = search.searchedAt
                    try await search.delete(on: db)
                    try await moved.create(on: db)
                }
            }
            try await ProfileModel.find(visitor, on: db)?.delete(on: db)
        }
    }

    /// The visitor's episodes (watches on no known day, ratings), shows begun and season ratings
    /// join the account's: what only the visitor has moves; for what both have, an episode keeps the
    /// larger count of undated watches and the newer rating, a show the account's choices and the
    /// later last watch, a season the newer rating.
    static func mergeEpisodes(visitor: UUID, into account: UUID, on sql: any SQLDatabase) async throws {
        for (table, key) in [("episode_states", "episode_id"), ("show_progress", "show_id")] {
            try await sql.raw(
                """
                UPDATE \(ident: table) SET profile_id = \(bind: account) WHERE profile_id = \(bind: visitor) AND NOT EXISTS \
                (SELECT 1 FROM \(ident: table) mine WHERE mine.profile_id = \(bind: account) AND mine.\(ident: key) = \(ident: table).\(ident: key))
                """
            ).run()
        }
        try await sql.raw(
            """
            UPDATE season_ratings SET profile_id = \(bind: account) WHERE profile_id = \(bind: visitor) AND NOT EXISTS \
            (SELECT 1 FROM season_ratings mine WHERE mine.profile_id = \(bind: account) AND mine.show_id = season_ratings.show_id \
            AND mine.season = season_ratings.season)
            """
        ).run()
        struct Episode: Decodable {
            var episode_id: Int
            var undated_watches: Int
            var rating: Int?
            var updated_at: Date
        }
        let episodes = try await sql.select().columns("episode_id", "undated_watches", "rating", "updated_at").from("episode_states")
            .where("profile_id", .equal, SQLBind(visitor)).all(decoding: Episode.self)
        for theirs in episodes {
            guard
                let mine = try await sql.select().columns("episode_id", "undated_watches", "rating", "updated_at").from("episode_states")
                    .where("profile_id", .equal, SQLBind(account)).where("episode_id", .equal, SQLBind(theirs.episode_id)).first(
                        decoding: Episode.self)
            else { continue }
            let (newer, older) = theirs.updated_at > mine.updated_at ? (theirs, mine) : (mine, theirs)
            try await sql.update("episode_states").set("undated_watches", to: SQLBind(max(mine.undated_watches, theirs.undated_watches)))
                .set("rating", to: SQLBind(newer.rating ?? older.rating)).set("updated_at", to: SQLBind(newer.updated_at))
                .where("profile_id", .equal, SQLBind(account)).where("episode_id", .equal, SQLBind(theirs.episode_id)).run()
        }
        struct Show: Decodable {
            var show_id: Int
            var last_watched_at: Date?
        }
        let shows = try await sql.select().columns("show_id", "last_watched_at").from("show_progress").where("profile_id", .equal, SQLBind(visitor))
            .all(decoding: Show.self)
        for theirs in shows {
            guard let watched = theirs.last_watched_at else { continue }
            try await sql.raw(
                """
                UPDATE show_progress SET last_watched_at = \(bind: watched) WHERE profile_id = \(bind: account) AND show_id = \(bind: theirs.show_id) \
                AND (last_watched_at IS NULL OR last_watched_at < \(bind: watched))
                """
            ).run()
        }
        struct Season: Decodable {
            var show_id: Int
            var season: Int
            var rating: Int
            var updated_at: Date
        }
        let seasons = try await sql.select().columns("show_id", "season", "rating", "updated_at").from("season_ratings")
            .where("profile_id", .equal, SQLBind(visitor)).all(decoding: Season.self)
        for theirs in seasons {
            try await sql.raw(
                """
                UPDATE season_ratings SET rating = \(bind: theirs.rating), updated_at = \(bind: theirs.updated_at) WHERE profile_id = \(bind: account) \
                AND show_id = \(bind: theirs.show_id) AND season = \(bind: theirs.season) AND updated_at < \(bind: theirs.updated_at)
                """
            ).run()
        }
    }
}
