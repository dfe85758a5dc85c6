import FluentKit

/// `library_entries.title_state`: whether a saved title's details are still to come (`pending`: it
/// was saved by id before PopcornSwirl had them, and the catalogue worker is asking) or its
/// catalogue does not know it (`unknown`); null once the details are in.
struct AddTitleState: AsyncMigration {
    var name: String { "App.AddTitleState" }

    func prepare(on database: any Database) async throws {
        try await database.schema("library_entries").field("title_state", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("library_entries").deleteField("title_state").update()
    }
}
