import FluentKit
import SQLKit

/// Failed sign-ins, for throttling by username and by client address.
struct CreateLoginFailures: AsyncMigration {
    var name: String { "App.CreateLoginFailures" }

    func prepare(on database: any Database) async throws {
        try await database.schema("login_failures")
            .field("id", .uuid, .identifier(auto: false))
            .field("username", .string, .required)
            .field("address", .string, .required)
            .field("failed_at", .datetime, .required)
            .create()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "login_failures_username").on("login_failures").column("username").column("failed_at").run()
            try await sql.create(index: "login_failures_address").on("login_failures").column("address").column("failed_at").run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema("login_failures").delete()
    }
}
