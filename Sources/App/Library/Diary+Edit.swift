import Foundation
import SQLKit

/// Changing one watch: its day, rating and note, checked as when it was logged.
extension DiaryService {
    /// One of the person's own watches (nil for anyone else's).
    public func watch(profile: UUID?, id: UUID) async throws -> Watch? {
        guard let profile else { return nil }
        return try await Self.rows(database.sql.select(), profile: profile).where("id", .equal, SQLBind(id))
            .first(decoding: Row.self)?.watch(isRewatch: false)
    }

    /// Sets a watch's day, rating and note (nil clears the rating and the note); false when it is
    /// not the person's. Checked before anything is written.
    public func update(profile: UUID, id: UUID, day: String, rating: Int?, note: String?) async throws(LibraryError) -> Bool {
        let day = try Self.validatedDay(day, now: clock.now())
        let rating = try LibraryService.validatedRating(rating)
        let note = try LibraryService.validatedNote(note)
        do {
            return try await database.write(serializedBy: profile.uuidString) { db in
                let sql = db as! any SQLDatabase
                guard
                    let found = try await sql.select().column("media_kind").column("item_id").column("note").column("rating").from("watches")
                        .where("id", .equal, SQLBind(id)).where("profile_id", .equal, SQLBind(profile)).first()
                else { return false }
                let kind = MediaKind(rawValue: try found.decode(column: "media_kind", as: String.self)) ?? .movie
                let itemID = try found.decode(column: "item_id", as: String.self)
                let oldNote = try found.decodeNil(column: "note") ? nil : try found.decode(column: "note", as: String.self)
                let oldRating = try found.decodeNil(column: "rating") ? nil : try found.decode(column: "rating", as: Int.self)
                try await sql.update("watches").set("watched_on", to: SQLBind(day)).set("rating", to: SQLBind(rating))
                    .set("note", to: SQLBind(note)).where("id", .equal, SQLBind(id)).run()
                // Checked after the day is set: the watch may have become, or stopped being, the latest.
                if let entry = try await EntryRow.find(sql, profile: profile, kind: kind, itemID: itemID) {
                    try await WatchNotes.watchChanged(
                        sql, profile: profile, watchID: id, entry: entry, note: .init(old: oldNote, new: note),
                        rating: .init(old: oldRating, new: rating))
                }
                return true
            }
        } catch {
            throw .storageFailed("\(error)")
        }
    }
}
