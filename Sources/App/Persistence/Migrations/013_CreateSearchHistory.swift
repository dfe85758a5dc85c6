import FluentKit
import SQLKit

/// A person's recent searches (`SearchHistoryStore`): one row per profile and query (`query_key`,
/// the query folded as the cache folds it), the newest 20 kept. They go with their profile
/// (ON DELETE CASCADE).
struct CreateSearchHistory: AsyncMigration {
    var name: String { "App.CreateSearchHistory" }

    func prepare(on database: any Database) async throws {
        try await database.schema("search_history")
            .field("id", .uuid, .identifier(auto: false))
            .field("profile_id", .uuid, .required, .references("profiles", "id", onDelete: .cascade))
            .field("query", .string, .required)
            .field("query_key", .string, .required)
            .field("searched_at", .datetime, .required)
            .unique(on: "profile_id", "query_key")
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "search_history_recent").on("search_history").column("profile_id").column("searched_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("search_history").delete()
    }
}
