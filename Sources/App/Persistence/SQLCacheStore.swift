import FluentKit
import Foundation
import SQLKit

/// `CatalogCacheStore` on the `catalog_cache` table (one row per key, replaced on refresh).
struct SQLCacheStore: CatalogCacheStore {
    let database: AppDatabase

    func read(_ key: String) async throws -> CachedBody? {
        guard let row = try await CacheEntryModel.find(key, on: database.db) else { return nil }
        return CachedBody(body: row.body, fetchedAt: row.fetchedAt)
    }

    func write(_ key: String, _ entry: CachedBody) async throws {
        try await database.writeSQL { sql in
            try await sql.insert(into: CacheEntryModel.schema)
                .columns("cache_key", "body", "fetched_at")
                .values(SQLBind(key), SQLBind(entry.body), SQLBind(entry.fetchedAt))
                .onConflict(with: ["cache_key"]) { $0.set(excludedValueOf: "body").set(excludedValueOf: "fetched_at") }
                .run()
        }
    }
}
