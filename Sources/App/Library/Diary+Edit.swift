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
        defer { versions.bump(profile) }
        do {
            return try await database.write(serializedBy: profile.uuidString) { db in
                let sql = db as! any SQLDatabase
                guard
                    try await sql.select().column("id").from("watches").where("id", .equal, SQLBind(id))
                        .where("profile_id", .equal, SQLBind(profile)).first() != nil
                else { return false }
                try await sql.update("watches").set("watched_on", to: SQLBind(day)).set("rating", to: SQLBind(rating))
                    .set("note", to: SQLBind(note)).where("id", .equal, SQLBind(id)).run()
                return true
            }
        } catch {
            throw .storageFailed("\(error)")
        }
    }
}
