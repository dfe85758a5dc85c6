import FluentKit

/// `leases`: work that one server does at a time when several share the database. A row names
/// the work (`name`: "upstream:<cache key>" for an upstream call, "clean-up" for the hourly
/// clean-up), which server holds it (`owner`) and until when (`held_until`); a lease past its time is
/// free for anyone to take, so a server that dies holding one holds it only that long.
struct CreateLeases: AsyncMigration {
    var name: String { "App.CreateLeases" }

    func prepare(on database: any Database) async throws {
        try await database.schema("leases")
            .field("name", .string, .identifier(auto: false))
            .field("owner", .string, .required)
            .field("held_until", .datetime, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("leases").delete()
    }
}
