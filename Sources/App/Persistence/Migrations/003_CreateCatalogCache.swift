import FluentKit

/// Upstream answers as they came back, with when they were fetched.
struct CreateCatalogCache: AsyncMigration {
    var name: String { "App.CreateCatalogCache" }

    func prepare(on database: any Database) async throws {
        try await database.schema("catalog_cache")
            .field("cache_key", .string, .identifier(auto: false))
            .field("body", .data, .required)
            .field("fetched_at", .datetime, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("catalog_cache").delete()
    }
}
