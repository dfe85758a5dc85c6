import FluentKit
import SQLKit

/// Films and shows in a profile's lists: card columns plus a JSON snapshot of the whole title.
struct CreateLibraryEntries: AsyncMigration {
    var name: String { "App.CreateLibraryEntries" }

    func prepare(on database: any Database) async throws {
        try await database.schema("library_entries")
            .field("id", .uuid, .identifier(auto: false))
            .field("profile_id", .uuid, .required, .references("profiles", "id", onDelete: .cascade))
            .field("media_kind", .string, .required)
            .field("item_id", .string, .required)
            .field("title", .string, .required)
            .field("genre", .string)
            .field("release_date", .datetime)
            .field("artwork_url", .string)
            .field("favorite", .bool, .required)
            .field("watched", .bool, .required)
            .field("note", .string)
            .field("snapshot", .data, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "profile_id", "media_kind", "item_id")
            .create()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "library_entries_profile_updated")
                .on("library_entries").column("profile_id").column("updated_at").run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema("library_entries").delete()
    }
}
