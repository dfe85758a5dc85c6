import FluentKit
import Foundation
import SQLKit

/// The watch diary: one row per time a person watched a film or show, on a day (`yyyy-MM-dd`, the
/// person's own calendar day), with its own rating and note. Title and poster are kept with the
/// watch, so the diary stays whole when the title leaves the lists (and imports can log titles
/// never saved). Every title marked Watched so far gets one watch, dated the day its entry last
/// changed (the best date there is), with the entry's note and rating: nothing is lost.
struct CreateWatches: AsyncMigration {
    var name: String { "App.CreateWatches" }

    func prepare(on database: any Database) async throws {
        try await database.schema("watches")
            .field("id", .uuid, .identifier(auto: false))
            .field("profile_id", .uuid, .required, .references("profiles", "id", onDelete: .cascade))
            .field("media_kind", .string, .required)
            .field("item_id", .string, .required)
            .field("title", .string, .required)
            .field("artwork_url", .string)
            .field("watched_on", .string, .required)
            .field("rating", .int16)
            .field("note", .string)
            .field("created_at", .datetime, .required)
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "watches_diary").on("watches").column("profile_id").column("watched_on").column("created_at").run()
        try await sql.create(index: "watches_title").on("watches").column("profile_id").column("media_kind").column("item_id").run()
        try await carryOverWatched(sql)
    }

    private struct Entry: Decodable {
        var profile_id: UUID
        var media_kind: String
        var item_id: String
        var title: String
        var artwork_url: String?
        var note: String?
        var rating: Int?
        var updated_at: Date
    }

    private func carryOverWatched(_ sql: any SQLDatabase) async throws {
        let entries = try await sql.select()
            .columns("profile_id", "media_kind", "item_id", "title", "artwork_url", "note", "rating", "updated_at")
            .from("library_entries").where("watched", .equal, SQLLiteral.boolean(true))
            .all(decoding: Entry.self)
        let day = DateFormatter()
        day.locale = Locale(identifier: "en_US_POSIX")
        day.timeZone = TimeZone(identifier: "UTC")
        day.dateFormat = "yyyy-MM-dd"
        for batch in stride(from: 0, to: entries.count, by: 200).map({ entries[$0..<min($0 + 200, entries.count)] }) {
            var insert = sql.insert(into: "watches")
                .columns("id", "profile_id", "media_kind", "item_id", "title", "artwork_url", "watched_on", "rating", "note", "created_at")
            for entry in batch {
                insert = insert.values(
                    SQLBind(UUID()), SQLBind(entry.profile_id), SQLBind(entry.media_kind), SQLBind(entry.item_id), SQLBind(entry.title),
                    SQLBind(entry.artwork_url), SQLBind(day.string(from: entry.updated_at)), SQLBind(entry.rating), SQLBind(entry.note),
                    SQLBind(entry.updated_at))
            }
            try await insert.run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema("watches").delete()
    }
}
