import FluentKit
import SQLKit

/// TV Favorites (a person's favorite shows, newest change first) read through the index of a
/// person's changes and tested every saved title: 5,000 saved films for 6 shows took 4 ms a page
/// (scripts/bench, the TV Favorites row). This index holds a person's favorites of one kind in the
/// page's order: rows are read only for the page. As 021's, `item_id DESC` on SQLite so that a scan
/// from the end gives newest change first, then id; PostgreSQL's index says the order outright.
struct IndexFavoritesByKind: AsyncMigration {
    var name: String { "App.IndexFavoritesByKind" }

    func prepare(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        let order: SQLQueryString = sql.dialect.name == "postgresql" ? "updated_at DESC, item_id" : "updated_at, item_id DESC"
        try await sql.raw("CREATE INDEX library_entries_favorites ON library_entries (profile_id, media_kind, favorite, \(order))").run()
    }

    func revert(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.drop(index: "library_entries_favorites").run()
    }
}
