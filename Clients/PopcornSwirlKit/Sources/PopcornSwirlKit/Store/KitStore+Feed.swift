import Foundation
import GRDB
import PopcornSwirlAPI

/// The server's changes (`GET /api/v1/changes`) written into the device's copy.
extension KitStore {
    /// Where the last sync stopped reading the change feed ("0" before the first).
    public func cursor() throws -> String {
        try writer.read { db in try String.fetchOne(db, sql: "SELECT value FROM syncState WHERE name = 'cursor'") } ?? "0"
    }

    /// When the last sync reached the server, if ever.
    public func lastSynced() throws -> Date? {
        try writer.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM syncState WHERE name = 'syncedAt'").flatMap(Double.init).map(
                Date.init(timeIntervalSince1970:))
        }
    }

    func setSynced(_ date: Date) throws {
        try writer.write { db in try Self.set("syncedAt", String(date.timeIntervalSince1970), db) }
    }

    private static func set(_ name: String, _ value: String, _ db: Database) throws {
        try db.execute(
            sql: "INSERT INTO syncState (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            arguments: [name, value])
    }

    /// Writes one page of changes and its cursor in one transaction (a page half written is never
    /// kept). A thing with a change of the person's still waiting keeps the device's state: the
    /// waiting change is newer than the server's copy, and the next sync brings the settled one.
    /// Returns how many things were written.
    @discardableResult
    func apply(_ changes: [Components.Schemas.Change], cursor: String) throws -> Int {
        try writer.write { db in
            let waiting = Set(
                try OutboxEntry.filter(Column("state") == OutboxEntry.State.waiting.rawValue).fetchAll(db).map {
                    "\($0.change.feedKey.entity) \($0.change.feedKey.key)"
                })
            var written = 0
            for change in changes where !waiting.contains("\(change.entity.rawValue) \(change.key)") {
                try Self.apply(change, db)
                written += 1
            }
            try Self.set("cursor", cursor, db)
            return written
        }
    }

    private static func apply(_ change: Components.Schemas.Change, _ db: Database) throws {
        let parts = change.key.split(separator: ":").map(String.init)
        switch change.entity {
        case .title:
            guard parts.count == 2, let kind = TitleKind(rawValue: parts[0]), let id = Int64(parts[1]) else { return }
            if let entry = change.title, !change.deleted {
                try SavedTitle(
                    kind: kind, id: id, title: entry.title, genre: entry.genre, year: entry.year, posterURL: entry.posterUrl,
                    favorite: entry.favorite,
                    watched: entry.watched, note: entry.note, rating: entry.rating, updatedAt: entry.updatedAt
                ).save(db)
            } else {
                _ = try SavedTitle.deleteOne(db, key: ["kind": kind.rawValue, "id": id])
            }
        case .watch:
            if let watch = change.watch, !change.deleted {
                try DiaryWatch(
                    id: watch.id, kind: watch.kind == .show ? .show : .movie, titleId: watch.titleId, title: watch.title, date: watch.date,
                    rating: watch.rating, note: watch.note, rewatch: watch.rewatch, episodeId: watch.episode?.id, season: watch.episode?.season,
                    number: watch.episode?.number, episodeName: watch.episode?.name
                ).save(db)
            } else {
                _ = try DiaryWatch.deleteOne(db, key: change.key)
            }
        case .list:
            _ = try CustomListCopy.deleteOne(db, key: change.key)  // its items go with it
            guard let synced = change.list, !change.deleted else { return }
            try CustomListCopy(id: change.key, name: synced.list.name, description: synced.list.description, updatedAt: synced.list.updatedAt)
                .insert(db)
            for item in synced.items {
                try ListItemCopy(
                    listId: change.key, position: item.position, kind: item.kind == .show ? .show : .movie, titleId: item.titleId, title: item.title,
                    year: item.year, note: item.note
                ).insert(db)
            }
        case .episode:
            guard parts.count == 2, let show = Int64(parts[0]), let id = Int64(parts[1]) else { return }
            if let episode = change.episode, !change.deleted {
                try EpisodeCopy(id: id, showId: show, watchCount: episode.watchCount, rating: episode.rating).save(db)
            } else {
                _ = try EpisodeCopy.deleteOne(db, key: id)
            }
        case .show:
            guard let id = Int64(change.key) else { return }
            if let show = change.show, !change.deleted {
                try ShowCopy(
                    id: id, title: show.title, posterURL: show.posterUrl, stopped: show.stopped, includeSpecials: show.includeSpecials,
                    lastWatchedAt: show.lastWatchedAt
                ).save(db)
            } else {
                _ = try ShowCopy.deleteOne(db, key: id)
            }
        case .seasonRating:
            guard parts.count == 2, let show = Int64(parts[0]), let season = Int(parts[1]) else { return }
            if let rating = change.seasonRating?.rating, !change.deleted {
                try SeasonRatingCopy(showId: show, season: season, rating: rating).save(db)
            } else {
                _ = try SeasonRatingCopy.deleteOne(db, key: ["showId": show, "season": season])
            }
        }
    }
}
