import FluentKit
import SQLKit

/// The second hardening pass:
/// - `deployment_keys`: secrets every server of a deployment shares, made once by whichever server
///   asks first (the key that signs visitor ids, `VisitorID`).
/// - `offer_impressions.address`, `offer_clicks.address`: a keyed hash of the client address, so
///   counted impressions and clicks are capped per address, offer and day (`OfferTracker`).
/// - `offer_discarded_clicks`: clicks that were not counted, as counts per offer, day and reason
///   (a discarded click no longer writes a row of its own).
/// - `import_jobs.cancelled_rows`: rows a cancelled import never reached, deleted at the cancel and
///   counted here for the report; `import_jobs.stored_rows`: the rows the job holds, summed against
///   the deployment's cap.
/// - `import_uploads`: each upload's person and address, the upload throttle's window.
/// One column per statement: SQLite adds one at a time.
struct HardenCountsAndImports: AsyncMigration {
    var name: String { "App.HardenCountsAndImports" }

    func prepare(on database: any Database) async throws {
        try await database.schema("deployment_keys")
            .field("name", .string, .identifier(auto: false))
            .field("secret", .string, .required)
            .field("created_at", .datetime, .required)
            .create()
        try await database.schema("offer_impressions").field("address", .string).update()
        try await database.schema("offer_clicks").field("address", .string).update()
        try await database.schema("offer_discarded_clicks")
            .field("offer_id", .int, .required)
            .field("advertiser_id", .int, .required)
            .field("day", .string, .required)
            .field("reason", .string, .required)
            .field("clicks", .int64, .required)
            .compositeIdentifier(over: "offer_id", "day", "reason")
            .create()
        try await database.schema("import_jobs").field("cancelled_rows", .int32, .required, .sql(.default(0))).update()
        try await database.schema("import_jobs").field("stored_rows", .int32, .required, .sql(.default(0))).update()
        try await database.schema("import_uploads")
            .field("id", .uuid, .identifier(auto: false))
            .field("key", .string, .required)
            .field("uploaded_at", .datetime, .required)
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "offer_impressions_address").on("offer_impressions").column("offer_id").column("day").column("address").run()
        try await sql.create(index: "offer_clicks_address").on("offer_clicks").column("offer_id").column("day").column("address").run()
        try await sql.create(index: "offer_discarded_clicks_advertiser").on("offer_discarded_clicks").column("advertiser_id").column("day").run()
        try await sql.create(index: "import_uploads_key").on("import_uploads").column("key").column("uploaded_at").run()
        // The jobs already there hold all their rows.
        try await sql.raw("UPDATE import_jobs SET stored_rows = (SELECT COUNT(*) FROM import_rows WHERE job_id = import_jobs.id)").run()
    }

    func revert(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        for table in ["import_uploads", "offer_discarded_clicks", "deployment_keys"] { try await sql.drop(table: table).run() }
        try await sql.drop(index: "offer_clicks_address").run()
        try await sql.drop(index: "offer_impressions_address").run()
        try await sql.raw("ALTER TABLE offer_clicks DROP COLUMN address").run()
        try await sql.raw("ALTER TABLE offer_impressions DROP COLUMN address").run()
        try await sql.raw("ALTER TABLE import_jobs DROP COLUMN stored_rows").run()
        try await sql.raw("ALTER TABLE import_jobs DROP COLUMN cancelled_rows").run()
    }
}
