import FluentKit
import SQLKit

/// The statistics read a person's watches by day (months, minutes), by title (first watches,
/// rewatches) and by genre; these indexes hold every column those reads need, so each is one pass
/// over index entries instead of a table lookup per watch (12,000 watches: 50 ms cold before).
/// They replace migration 019's (profile, genre).
struct IndexStatistics: AsyncMigration {
    var name: String { "App.IndexStatistics" }

    func prepare(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.drop(index: "watches_genre").run()
        try await sql.create(index: "watches_by_day").on("watches")
            .column("profile_id").column("watched_on").column("media_kind").column("runtime_minutes").run()
        try await sql.create(index: "watches_by_title").on("watches")
            .column("profile_id").column("media_kind").column("item_id").column("watched_on").run()
        try await sql.create(index: "watches_by_genre").on("watches").column("profile_id").column("genre").column("watched_on").run()
    }

    func revert(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        for index in ["watches_by_day", "watches_by_title", "watches_by_genre"] { try await sql.drop(index: index).run() }
        try await sql.create(index: "watches_genre").on("watches").column("profile_id").column("genre").run()
    }
}
