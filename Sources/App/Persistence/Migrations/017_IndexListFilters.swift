import FluentKit
import SQLKit

/// My Lists filtered by genre and sorted by rating read a person's entries through these indexes
/// instead of every row with its snapshot (measured: issue 16's 5,000-title person in scripts/bench).
struct IndexListFilters: AsyncMigration {
    var name: String { "App.IndexListFilters" }

    func prepare(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "library_entries_profile_genre").on("library_entries").column("profile_id").column("genre").run()
        try await sql.create(index: "library_entries_profile_rating").on("library_entries").column("profile_id").column("rating").run()
    }

    func revert(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.drop(index: "library_entries_profile_genre").run()
        try await sql.drop(index: "library_entries_profile_rating").run()
    }
}
