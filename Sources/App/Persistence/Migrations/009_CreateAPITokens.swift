import FluentKit
import SQLKit

/// Personal API tokens: a name, the SHA-256 of the token (never the token), and when it was made
/// and last used. They go with their account.
struct CreateAPITokens: AsyncMigration {
    var name: String { "App.CreateAPITokens" }

    func prepare(on database: any Database) async throws {
        try await database.schema("api_tokens")
            .field("id", .uuid, .identifier(auto: false))
            .field("profile_id", .uuid, .required, .references("profiles", "id", onDelete: .cascade))
            .field("name", .string, .required)
            .field("token_hash", .string, .required)
            .field("hint", .string, .required)
            .field("created_at", .datetime, .required)
            .field("last_used_at", .datetime)
            .unique(on: "token_hash")
            .create()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "api_tokens_profile").on("api_tokens").column("profile_id").run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema("api_tokens").delete()
    }
}
