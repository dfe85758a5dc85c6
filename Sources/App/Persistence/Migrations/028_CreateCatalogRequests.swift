import FluentKit

/// `catalog_requests`: what the catalogue worker (`CatalogWorker`) is asked to fetch in the
/// background, one row per kind and item: a film or show saved by id before PopcornSwirl had its
/// details (`media_kind` movie or show, `item` its id), or a release year a person opened before
/// it was ever fetched (`media_kind` year). `attempts` and `next_try_at` pace a request iTunes or
/// TVMaze would not answer; the row goes once the answer is in.
struct CreateCatalogRequests: AsyncMigration {
    var name: String { "App.CreateCatalogRequests" }

    func prepare(on database: any Database) async throws {
        try await database.schema("catalog_requests")
            .field("media_kind", .string, .required)
            .field("item", .string, .required)
            .field("asked_at", .datetime, .required)
            .field("next_try_at", .datetime, .required)
            .field("attempts", .int32, .required)
            .unique(on: "media_kind", "item")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("catalog_requests").delete()
    }
}
