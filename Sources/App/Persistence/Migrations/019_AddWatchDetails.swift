import FluentKit
import Foundation
import SQLKit

/// Each watch keeps its title's genre and runtime (a film's length, a show's episode length), so
/// the statistics (top genres, hours watched) read the diary alone. Watches logged before get
/// them from the person's saved entry of the title: its genre column and the runtime in its
/// snapshot (read as plain JSON, `runtimeMinutes`, not through today's types).
struct AddWatchDetails: AsyncMigration {
    var name: String { "App.AddWatchDetails" }

    func prepare(on database: any Database) async throws {
        // One column per statement: SQLite adds one at a time.
        try await database.schema("watches").field("genre", .string).update()
        try await database.schema("watches").field("runtime_minutes", .int32).update()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "watches_genre").on("watches").column("profile_id").column("genre").run()
        struct Entry: Decodable {
            var profile_id: UUID
            var media_kind: String
            var item_id: String
            var genre: String?
            var snapshot: Data
        }
        let entries = try await sql.raw(
            """
            SELECT l.profile_id, l.media_kind, l.item_id, l.genre, l.snapshot FROM library_entries l
            WHERE EXISTS (SELECT 1 FROM watches w WHERE w.profile_id = l.profile_id AND w.media_kind = l.media_kind AND w.item_id = l.item_id)
            """
        ).all(decoding: Entry.self)
        for entry in entries {
            let object = (try? JSONSerialization.jsonObject(with: entry.snapshot)) as? [String: Any]
            let runtime = (object?["runtimeMinutes"] as? NSNumber)?.intValue
            guard entry.genre != nil || runtime != nil else { continue }
            try await sql.update("watches").set("genre", to: SQLBind(entry.genre)).set("runtime_minutes", to: SQLBind(runtime))
                .where("profile_id", .equal, SQLBind(entry.profile_id)).where("media_kind", .equal, SQLBind(entry.media_kind))
                .where("item_id", .equal, SQLBind(entry.item_id)).run()
        }
    }

    func revert(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.drop(index: "watches_genre").run()
        try await database.schema("watches").deleteField("genre").update()
        try await database.schema("watches").deleteField("runtime_minutes").update()
    }
}
