import FluentKit
import Foundation
import SQLKit

/// Personal API tokens: a name, the SHA-256 of the token (never the token), and when it was made
/// and last used. They go with their account.
struct CreateAPITokens: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(APITokenModel.schema)
            .id()
            .field("profile_id", .uuid, .required, .references(ProfileModel.schema, .id, onDelete: .cascade))
            .field("name", .string, .required)
            .field("token_hash", .string, .required)
            .field("hint", .string, .required)
            .field("created_at", .datetime, .required)
            .field("last_used_at", .datetime)
            .unique(on: "token_hash")
            .create()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "api_tokens_profile").on(APITokenModel.schema).column("profile_id").run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(APITokenModel.schema).delete()
    }
}

final class APITokenModel: Model, @unchecked Sendable {
    static let schema = "api_tokens"

    @ID(key: .id) var id: UUID?
    @Field(key: "profile_id") var profileID: UUID
    @Field(key: "name") var name: String
    @Field(key: "token_hash") var tokenHash: String
    /// The token's first characters, so its owner can tell tokens apart.
    @Field(key: "hint") var hint: String
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "last_used_at") var lastUsedAt: Date?

    init() {}

    init(profileID: UUID, name: String, tokenHash: String, hint: String, now: Date) {
        self.profileID = profileID
        self.name = name
        self.tokenHash = tokenHash
        self.hint = hint
        self.createdAt = now
    }
}
