import FluentKit
import SQLKit

/// Notifications: where a person is told (`notification_targets`: ntfy, Gotify, Discord or a
/// signed webhook; when: as an episode airs, some hours later, and/or a daily digest at a local
/// hour; how it went: the last delivery, the last error, since when it fails, paused), and every
/// notice to send (`notification_deliveries`): one row per target and thing told, unique, so a
/// notice is claimed and sent once whatever the number of servers.
struct CreateNotifications: AsyncMigration {
    var name: String { "App.CreateNotifications" }

    func prepare(on database: any Database) async throws {
        try await database.schema("notification_targets")
            .field("id", .uuid, .identifier(auto: false))
            .field("profile_id", .uuid, .required, .references("profiles", "id", onDelete: .cascade))
            .field("kind", .string, .required)
            .field("name", .string, .required)
            .field("url", .string, .required)
            .field("token", .string)
            .field("secret", .string)
            .field("on_air", .bool, .required)
            .field("delay_hours", .int, .required)
            .field("digest", .bool, .required)
            .field("digest_hour", .int, .required)
            .field("created_at", .datetime, .required)
            .field("last_attempt_at", .datetime)
            .field("last_success_at", .datetime)
            .field("last_error", .string)
            .field("failing_since", .datetime)
            .field("paused_at", .datetime)
            .create()
        try await database.schema("notification_deliveries")
            .field("id", .uuid, .identifier(auto: false))
            .field("target_id", .uuid, .required, .references("notification_targets", "id", onDelete: .cascade))
            .field("profile_id", .uuid, .required)
            .field("kind", .string, .required)
            .field("subject", .string, .required)
            .field("due_at", .datetime, .required)
            .field("state", .string, .required)
            .field("attempts", .int, .required)
            .field("next_attempt_at", .datetime, .required)
            .field("claimed_by", .string)
            .field("claimed_until", .datetime)
            .field("answer", .string)
            .field("sent_at", .datetime)
            .field("created_at", .datetime, .required)
            .unique(on: "target_id", "kind", "subject")
            .create()
        let sql = database as! any SQLDatabase
        try await sql.create(index: "notification_targets_profile").on("notification_targets").column("profile_id").run()
        try await sql.create(index: "notification_deliveries_due").on("notification_deliveries").column("state").column("next_attempt_at").run()
        try await sql.create(index: "notification_deliveries_target").on("notification_deliveries").column("target_id").column("created_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("notification_deliveries").delete()
        try await database.schema("notification_targets").delete()
    }
}
