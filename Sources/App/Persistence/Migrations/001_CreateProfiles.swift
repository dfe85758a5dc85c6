import FluentKit

/// Visitors and accounts, and their browser sessions.
struct CreateProfiles: AsyncMigration {
    var name: String { "App.CreateProfiles" }

    func prepare(on database: any Database) async throws {
        try await database.schema("profiles")
            .field("id", .uuid, .identifier(auto: false))
            .field("kind", .string, .required)
            .field("username", .string)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "username")
            .create()
        try await database.schema("sessions")
            .field("token_hash", .string, .identifier(auto: false))
            .field("profile_id", .uuid, .required, .references("profiles", "id", onDelete: .cascade))
            .field("created_at", .datetime, .required)
            .field("last_seen_at", .datetime, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("sessions").delete()
        try await database.schema("profiles").delete()
    }
}
