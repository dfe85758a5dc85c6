import FluentKit
import SQLKit

/// A person's own lists (`custom_lists`) and the titles in them (`custom_list_items`), in the
/// order the person put them (`position`, 1 upwards). A list is private until it is shared: then
/// `share_token` holds the unguessable part of its read-only link, cleared again on revoke. Each
/// item keeps the title, year and poster it was added with, so a list (and its shared page) shows
/// whole without the catalogue, and imported lists can hold titles never saved elsewhere.
struct CreateCustomLists: AsyncMigration {
    var name: String { "App.CreateCustomLists" }

    func prepare(on database: any Database) async throws {
        try await database.schema("custom_lists")
            .field("id", .uuid, .identifier(auto: false))
            .field("profile_id", .uuid, .required, .references("profiles", "id", onDelete: .cascade))
            .field("name", .string, .required)
            .field("description", .string)
            .field("share_token", .string)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "share_token")
            .create()
        try await database.schema("custom_list_items")
            .field("list_id", .uuid, .required, .references("custom_lists", "id", onDelete: .cascade))
            .field("media_kind", .string, .required)
            .field("item_id", .string, .required)
            .field("title", .string, .required)
            .field("year", .int32)
            .field("artwork_url", .string)
            .field("position", .int32, .required)
            .field("note", .string)
            .field("added_at", .datetime, .required)
            .unique(on: "list_id", "media_kind", "item_id")
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "custom_lists_profile").on("custom_lists").column("profile_id").column("updated_at").run()
        try await sql.create(index: "custom_list_items_order").on("custom_list_items").column("list_id").column("position").run()
        try await sql.create(index: "custom_list_items_title").on("custom_list_items").column("media_kind").column("item_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("custom_list_items").delete()
        try await database.schema("custom_lists").delete()
    }
}
