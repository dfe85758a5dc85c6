import FluentKit
import SQLKit

/// A click is counted once per visitor, offer and 30-minute UTC window; the others are kept as
/// discarded. `discarded` says why (nil: counted; "repeat", "cross-site"); `dedupe_key` is
/// "offer:window:visitor" on counted clicks only (nil on discarded ones and on the clicks recorded
/// before this migration, which all stay counted). Its unique index is what lets one click win
/// across concurrent requests and servers (`INSERT … ON CONFLICT DO NOTHING RETURNING id`); NULLs
/// never conflict. One column per statement: SQLite adds one at a time.
struct CountClicksOnce: AsyncMigration {
    var name: String { "App.CountClicksOnce" }

    func prepare(on database: any Database) async throws {
        try await database.schema("offer_clicks").field("discarded", .string).update()
        try await database.schema("offer_clicks").field("dedupe_key", .string).update()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "offer_clicks_dedupe_key").unique().on("offer_clicks").column("dedupe_key").run()
        }
    }

    func revert(on database: any Database) async throws {
        // Plain SQL: Fluent's deleteField does nothing on SQLite, which has DROP COLUMN since 3.35.
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.drop(index: "offer_clicks_dedupe_key").run()
        try await sql.raw("ALTER TABLE offer_clicks DROP COLUMN dedupe_key").run()
        try await sql.raw("ALTER TABLE offer_clicks DROP COLUMN discarded").run()
    }
}
