import FluentKit

/// Accounts are profiles with a username and a bcrypt password hash; `role` is "admin" for the
/// offers console (nil: a member). One column per statement: SQLite adds one at a time.
struct AddAccounts: AsyncMigration {
    var name: String { "App.AddAccounts" }

    func prepare(on database: any Database) async throws {
        try await database.schema("profiles").field("password_hash", .string).update()
        try await database.schema("profiles").field("role", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("profiles").deleteField("role").update()
        try await database.schema("profiles").deleteField("password_hash").update()
    }
}
