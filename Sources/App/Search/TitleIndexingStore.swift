import Foundation

/// The catalogue's store, with every answer it keeps indexed as it is written: the one place every
/// film and show PopcornSwirl receives passes through, on every server.
struct TitleIndexingStore: CatalogCacheStore {
    let base: any CatalogCacheStore
    let index: TitleIndex

    func read(_ key: String) async throws -> CachedBody? { try await base.read(key) }

    func fetchedAt(keysStartingWith prefix: String) async throws -> [(key: String, fetchedAt: Date)] {
        try await base.fetchedAt(keysStartingWith: prefix)
    }

    func write(_ key: String, _ entry: CachedBody) async throws {
        try await base.write(key, entry)
        await index.ingest(key: key, body: entry.body)
    }
}
