import FluentKit

/// A person's rating of a saved film or show: 1 to 10, where each step is half a star (1 = ½ ★,
/// 10 = 5 ★), so IMDb's and Trakt's 1–10 and Letterboxd's ½–5 all round-trip exactly. Null: not
/// rated. Existing entries are unrated.
struct AddRatings: AsyncMigration {
    var name: String { "App.AddRatings" }

    func prepare(on database: any Database) async throws {
        try await database.schema("library_entries").field("rating", .int16).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("library_entries").deleteField("rating").update()
    }
}
