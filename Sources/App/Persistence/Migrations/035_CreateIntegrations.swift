import FluentKit
import SQLKit

/// Media servers telling what a person watched: each person's integration URLs
/// (`integrations`: the server's kind, the token stored as its SHA-256, the progress that counts as
/// watched, the server user followed, whether "mark unplayed" erases a watch); every event
/// received (`integration_events`: one row per server and event, unique by the event's id or its
/// body's digest, so a retry is the same receipt; what it was, what it came to, and the state of
/// its matching, claimed by one server at a time); and the titles remembered for a server's ids
/// (`integration_choices`: the person's pick from Needs review, or the match found before).
struct CreateIntegrations: AsyncMigration {
    var name: String { "App.CreateIntegrations" }

    func prepare(on database: any Database) async throws {
        try await database.schema("integrations")
            .field("id", .uuid, .identifier(auto: false))
            .field("profile_id", .uuid, .required, .references("profiles", "id", onDelete: .cascade))
            .field("kind", .string, .required)
            .field("token_hash", .string, .required)
            .field("threshold", .int, .required)
            .field("server_user", .string)
            .field("unplayed_erases", .bool, .required)
            .field("created_at", .datetime, .required)
            .field("last_event_at", .datetime)
            .unique(on: "token_hash")
            .create()
        try await database.schema("integration_events")
            .field("id", .uuid, .identifier(auto: false))
            .field("integration_id", .uuid, .required, .references("integrations", "id", onDelete: .cascade))
            .field("profile_id", .uuid, .required)
            .field("event_key", .string, .required)
            .field("received_at", .datetime, .required)
            .field("event", .string, .required)
            .field("said", .string, .required)
            .field("state", .string, .required)
            .field("result", .string)
            .field("detail", .string)
            .field("matched_kind", .string)
            .field("matched_id", .int)
            .field("watched_at", .datetime)
            .field("candidates", .string)
            .field("attempts", .int, .required)
            .field("next_attempt_at", .datetime, .required)
            .field("claimed_until", .datetime)
            .unique(on: "integration_id", "event_key")
            .create()
        try await database.schema("integration_choices")
            .field("integration_id", .uuid, .required, .references("integrations", "id", onDelete: .cascade))
            .field("server_key", .string, .required)
            .field("media_kind", .string, .required)
            .field("item_id", .int, .required)
            .field("snapshot", .string, .required)
            .field("chosen", .bool, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "integration_id", "server_key")
            .create()
        let sql = database as! any SQLDatabase
        try await sql.create(index: "integrations_profile").on("integrations").column("profile_id").run()
        try await sql.create(index: "integration_events_profile").on("integration_events").column("profile_id").column("received_at").run()
        try await sql.create(index: "integration_events_due").on("integration_events").column("state").column("next_attempt_at").run()
        try await sql.create(index: "integration_events_integration").on("integration_events").column("integration_id").column("received_at")
            .run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("integration_choices").delete()
        try await database.schema("integration_events").delete()
        try await database.schema("integrations").delete()
    }
}
