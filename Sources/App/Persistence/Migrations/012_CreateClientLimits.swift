import FluentKit
import SQLKit

/// What a client may cause, counted per client in sliding windows (`AttemptWindow`):
/// - `upstream_shares`: each upstream call a client caused, for its fair share of the upstream's
///   allowance (`ClientShare`): which upstream (`api`: "itunes", "tvmaze", "omdb"), whose call
///   (`client`: "account:<uuid>" or "address:<ip>") and when;
/// - `visitor_starts`: each visitor profile a client address started with a write (`VisitorThrottle`).
/// Rows leave with the hourly clean-up once they are outside their window.
struct CreateClientLimits: AsyncMigration {
    var name: String { "App.CreateClientLimits" }

    func prepare(on database: any Database) async throws {
        try await database.schema("upstream_shares")
            .field("id", .uuid, .identifier(auto: false))
            .field("api", .string, .required)
            .field("client", .string, .required)
            .field("called_at", .datetime, .required)
            .create()
        try await database.schema("visitor_starts")
            .field("id", .uuid, .identifier(auto: false))
            .field("address", .string, .required)
            .field("started_at", .datetime, .required)
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "upstream_shares_client").on("upstream_shares").column("api").column("client").column("called_at").run()
        try await sql.create(index: "visitor_starts_address").on("visitor_starts").column("address").column("started_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("visitor_starts").delete()
        try await database.schema("upstream_shares").delete()
    }
}
