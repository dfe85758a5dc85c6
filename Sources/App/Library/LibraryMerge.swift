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
}
