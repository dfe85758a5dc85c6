import FluentKit

/// The last search of each profile, and the per-day count of calls to metered upstreams (OMDb).
struct CreateSearchTables: AsyncMigration {
    var name: String { "App.CreateSearchTables" }

    func prepare(on database: any Database) async throws {
        try await database.schema("last_searches")
            .field("profile_id", .uuid, .identifier(auto: false), .references("profiles", "id", onDelete: .cascade))
            .field("query", .string, .required)
            .field("movie", .data, .required)
            .field("details", .data)
            .field("searched_at", .datetime, .required)
            .create()
        try await database.schema("upstream_calls")
            .field("api", .string, .required)
            .field("day", .string, .required)
            .field("calls", .int, .required)
            .compositeIdentifier(over: "api", "day")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("upstream_calls").delete()
        try await database.schema("last_searches").delete()
    }
}
