import FluentKit

struct CreateProfiles: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ProfileModel.schema)
            .id()
            .field("kind", .string, .required)
            .field("username", .string)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "username")
            .create()
        try await database.schema(SessionModel.schema)
            .field("token_hash", .string, .identifier(auto: false))
            .field("profile_id", .uuid, .required, .references(ProfileModel.schema, .id, onDelete: .cascade))
            .field("created_at", .datetime, .required)
            .field("last_seen_at", .datetime, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(SessionModel.schema).delete()
        try await database.schema(ProfileModel.schema).delete()
    }
}
