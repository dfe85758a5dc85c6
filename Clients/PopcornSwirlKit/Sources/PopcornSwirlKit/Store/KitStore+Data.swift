import Foundation
import GRDB

/// Which of the person's titles a list shows (the seeds' Favorites, Watched, or both combined).
public enum SavedList: String, Sendable, CaseIterable {
    case favorites, watched, combined
}

// MARK: - Reading the person's data

extension KitStore {
    /// The person's films (or shows) in a list, A to Z.
    public func titles(_ list: SavedList, kind: TitleKind = .movie) throws -> [SavedTitle] {
        try writer.read { db in
            var request = SavedTitle.filter(Column("kind") == kind.rawValue)
            switch list {
            case .favorites: request = request.filter(Column("favorite") == true)
            case .watched: request = request.filter(Column("watched") == true)
            case .combined: request = request.filter(Column("favorite") == true || Column("watched") == true)
            }
            return try request.order(Column("title").collating(.localizedCaseInsensitiveCompare), Column("id")).fetchAll(db)
        }
    }

    public func title(_ kind: TitleKind, _ id: Int64) throws -> SavedTitle? {
        try writer.read { db in try SavedTitle.fetchOne(db, key: ["kind": kind.rawValue, "id": id]) }
    }

    /// The diary, newest day first.
    public func diary(limit: Int = 100) throws -> [DiaryWatch] {
        try writer.read { db in try DiaryWatch.order(Column("date").desc, Column("id")).limit(limit).fetchAll(db) }
    }

    /// The custom lists by name, each with its titles in order.
    public func customLists() throws -> [(list: CustomListCopy, items: [ListItemCopy])] {
        try writer.read { db in
            try CustomListCopy.order(Column("name").collating(.localizedCaseInsensitiveCompare)).fetchAll(db).map { list in
                (list, try ListItemCopy.filter(Column("listId") == list.id).order(Column("position")).fetchAll(db))
            }
        }
    }

    /// The episodes of a show the person watched or rated, by id.
    public func episodes(show: Int64) throws -> [Int64: EpisodeCopy] {
        try writer.read { db in
            Dictionary(uniqueKeysWithValues: try EpisodeCopy.filter(Column("showId") == show).fetchAll(db).map { ($0.id, $0) })
        }
    }

    public func show(_ id: Int64) throws -> ShowCopy? {
        try writer.read { db in try ShowCopy.fetchOne(db, key: id) }
    }

    public func seasonRatings(show: Int64) throws -> [Int: Int] {
        try writer.read { db in
            Dictionary(
                try SeasonRatingCopy.filter(Column("showId") == show).fetchAll(db).map { ($0.season, $0.rating) }, uniquingKeysWith: { a, _ in a })
        }
    }
}

// MARK: - Answers kept for offline

extension KitStore {
    /// Keeps a read operation's answer (a generated type) under `key`, replacing the last one.
    public func keep<Value: Encodable>(_ value: Value, as key: String, at date: Date) throws {
        let json = try JSONEncoder().encode(value)
        try writer.write { db in
            try db.execute(
                sql:
                    "INSERT INTO answer (key, json, fetchedAt) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET json = excluded.json, fetchedAt = excluded.fetchedAt",
                arguments: [key, json, date])
        }
    }

    /// The answer last kept under `key`, and when it was fetched.
    public func kept<Value: Decodable>(_ type: Value.Type, as key: String) throws -> (value: Value, fetchedAt: Date)? {
        guard let row = try writer.read({ db in try Row.fetchOne(db, sql: "SELECT json, fetchedAt FROM answer WHERE key = ?", arguments: [key]) })
        else { return nil }
        let json: Data = row["json"]
        let fetchedAt: Date = row["fetchedAt"]
        return (try JSONDecoder().decode(Value.self, from: json), fetchedAt)
    }

    /// Remembers a search (the Search screen shows the last one, online or off).
    public func recordSearch(_ query: String, at date: Date) throws {
        try writer.write { db in
            try db.execute(
                sql: "INSERT INTO search (query, searchedAt) VALUES (?, ?) ON CONFLICT (query) DO UPDATE SET searchedAt = excluded.searchedAt",
                arguments: [query, date])
            // The 20 most recent are kept.
            try db.execute(sql: "DELETE FROM search WHERE query NOT IN (SELECT query FROM search ORDER BY searchedAt DESC LIMIT 20)")
        }
    }

    /// The searches, most recent first.
    public func recentSearches() throws -> [String] {
        try writer.read { db in try String.fetchAll(db, sql: "SELECT query FROM search ORDER BY searchedAt DESC") }
    }
}

// MARK: - The outbox

extension KitStore {
    /// Applies the person's change to the device's copy and queues it for the server, in one
    /// transaction: the screens show it at once, and it is sent exactly once when the server is
    /// reachable. `card` names a title the device has not saved before.
    @discardableResult
    public func record(_ change: PendingChange, card: TitleCard? = nil, madeAt: Date) throws -> OutboxEntry {
        try writer.write { db in
            try Self.applyLocally(change, card: card, madeAt: madeAt, db)
            var entry = OutboxEntry(change: change, madeAt: madeAt)
            try entry.insert(db)
            return entry
        }
    }

    /// The changes waiting for the server, in the order they were made.
    public func waiting() throws -> [OutboxEntry] {
        try writer.read { db in try OutboxEntry.filter(Column("state") == OutboxEntry.State.waiting.rawValue).order(Column("seq")).fetchAll(db) }
    }

    /// The changes the server refused, kept to be shown (and retried or dropped by the person).
    public func refused() throws -> [OutboxEntry] {
        try writer.read { db in try OutboxEntry.filter(Column("state") == OutboxEntry.State.refused.rawValue).order(Column("seq")).fetchAll(db) }
    }

    /// The server has the change: it leaves the outbox.
    func sent(_ entry: OutboxEntry) throws {
        _ = try writer.write { db in try OutboxEntry.deleteOne(db, key: ["key": entry.key]) }
    }

    func refuse(_ entry: OutboxEntry, message: String) throws {
        try writer.write { db in
            try db.execute(
                sql: "UPDATE outbox SET state = ?, attempts = attempts + 1, message = ? WHERE key = ?",
                arguments: [OutboxEntry.State.refused.rawValue, message, entry.key])
        }
    }

    func failed(_ entry: OutboxEntry, message: String) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE outbox SET attempts = attempts + 1, message = ? WHERE key = ?", arguments: [message, entry.key])
        }
    }

    /// A refused change, sent again at the next sync (after the person fixed what was wrong elsewhere).
    public func retry(_ key: String) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE outbox SET state = ?, message = NULL WHERE key = ?", arguments: [OutboxEntry.State.waiting.rawValue, key])
        }
    }

    /// A refused change the person gives up: it leaves the outbox (the next sync brings the server's copy back).
    public func discard(_ key: String) throws {
        _ = try writer.write { db in try OutboxEntry.deleteOne(db, key: ["key": key]) }
    }

    static func applyLocally(_ change: PendingChange, card: TitleCard?, madeAt: Date, _ db: Database) throws {
        switch change {
        case .movie(let id, let favorite, let watched, let note, let rating):
            var title =
                try SavedTitle.fetchOne(db, key: ["kind": TitleKind.movie.rawValue, "id": id])
                ?? SavedTitle(
                    kind: .movie, id: id, title: card?.title ?? "Film \(id)", genre: card?.genre, year: card?.year, posterURL: card?.posterURL)
            if let favorite { title.favorite = favorite }
            if let watched { title.watched = watched }
            if let note { title.note = note.isEmpty ? nil : note }
            if let rating { title.rating = rating == 0 ? nil : rating }
            title.updatedAt = madeAt
            if title.favorite || title.watched || title.rating != nil {
                try title.save(db)
            } else {
                _ = try SavedTitle.deleteOne(db, key: ["kind": TitleKind.movie.rawValue, "id": id])
            }
        case .removeMovie(let id):
            _ = try SavedTitle.deleteOne(db, key: ["kind": TitleKind.movie.rawValue, "id": id])
        case .showFavorite(let id, let favorite):
            var title =
                try SavedTitle.fetchOne(db, key: ["kind": TitleKind.show.rawValue, "id": id])
                ?? SavedTitle(
                    kind: .show, id: id, title: card?.title ?? "Show \(id)", genre: card?.genre, year: card?.year, posterURL: card?.posterURL)
            title.favorite = favorite
            title.updatedAt = madeAt
            if title.favorite || title.rating != nil {
                try title.save(db)
            } else {
                _ = try SavedTitle.deleteOne(db, key: ["kind": TitleKind.show.rawValue, "id": id])
            }
        case .episode(let id, let showId, let watched):
            var episode = try EpisodeCopy.fetchOne(db, key: id) ?? EpisodeCopy(id: id, showId: showId, watchCount: 0, rating: nil)
            episode.watchCount = watched ? max(episode.watchCount, 1) : 0
            if episode.watchCount > 0 || episode.rating != nil {
                try episode.save(db)
            } else {
                _ = try EpisodeCopy.deleteOne(db, key: id)
            }
        }
    }
}
