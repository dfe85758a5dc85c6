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

    func fetchedAt(keysStartingWith prefix: String) async throws -> [(key: String, fetchedAt: Date)] {
        // Keys are written by this code alone: no `%` or `_` of a caller's to escape in the prefix.
        try await database.sql.raw(
            "SELECT cache_key, fetched_at FROM catalog_cache WHERE cache_key LIKE \(bind: prefix + "%")"
        ).all().map { (try $0.decode(column: "cache_key", as: String.self), try $0.decode(column: "fetched_at", as: Date.self)) }
    }
}
