import FluentKit

struct CreateCatalogCache: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(CacheEntryModel.schema)
            .field("cache_key", .string, .identifier(auto: false))
            .field("body", .data, .required)
            .field("fetched_at", .datetime, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(CacheEntryModel.schema).delete()
    }
}
