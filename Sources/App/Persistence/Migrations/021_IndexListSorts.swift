import FluentKit
import SQLKit

/// My Lists sorted by rating, with or without a genre, read the page's 60 rows in index order and
/// stop: the indexes of 017 found the rows but left every one of them (a genre's 1,000 of 5,000)
/// to be read and sorted (scripts/bench, the cold sorted list). `item_id DESC` so that a scan from
/// the end gives the pages' order: rating high to low (unrated last), newest change first, then id.
struct IndexListSorts: AsyncMigration {
    var name: String { "App.IndexListSorts" }

    func prepare(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.drop(index: "library_entries_profile_genre").run()
        try await sql.drop(index: "library_entries_profile_rating").run()
        // SQLite orders NULLs first, so its backward scan is `rating DESC NULLS LAST`; PostgreSQL
        // orders them last, so its index says the order outright (and is read forward).
        let order: SQLQueryString =
            sql.dialect.name == "postgresql" ? "rating DESC NULLS LAST, updated_at DESC, item_id" : "rating, updated_at, item_id DESC"
        try await sql.raw("CREATE INDEX library_entries_by_genre ON library_entries (profile_id, genre, \(order))").run()
        try await sql.raw("CREATE INDEX library_entries_by_rating ON library_entries (profile_id, \(order))").run()
    }

    func revert(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.drop(index: "library_entries_by_genre").run()
        try await sql.drop(index: "library_entries_by_rating").run()
        try await sql.create(index: "library_entries_profile_genre").on("library_entries").column("profile_id").column("genre").run()
        try await sql.create(index: "library_entries_profile_rating").on("library_entries").column("profile_id").column("rating").run()
    }
}
