import FluentKit
import SQLKit

/// Imports (`import_jobs`), each upload's rows as read (`import_rows`, one per row of the files,
/// with what became of it), and every title resolution made for any import (`import_matches`,
/// keyed by what the row gave: an IMDb or TheTVDB id, or a folded title and year), so a second
/// import of the same file asks no upstream again.
///
/// A job is `loading` while its rows are stored, `queued`, `running` once a server holds its lease
/// (`lease_owner`, `lease_until`), then `done`, `cancelled` or `failed`. At most one job per
/// person is loading, queued or running: a partial unique index says so on both databases.
struct CreateImports: AsyncMigration {
    var name: String { "App.CreateImports" }

    func prepare(on database: any Database) async throws {
        try await database.schema("import_jobs")
            .field("id", .uuid, .identifier(auto: false))
            .field("profile_id", .uuid, .required, .references("profiles", "id", onDelete: .cascade))
            .field("source", .string, .required)
            .field("file_name", .string, .required)
            .field("state", .string, .required)
            .field("message", .string)
            .field("total_rows", .int32, .required)
            .field("pending_rows", .int32, .required)
            .field("landed_rows", .int32, .required)
            .field("queued_rows", .int32, .required)
            .field("failed_rows", .int32, .required)
            .field("skipped_rows", .int32, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .field("run_started_at", .datetime)
            .field("run_started_pending", .int32)
            .field("finished_at", .datetime)
            .field("lease_owner", .string)
            .field("lease_until", .datetime)
            .field("next_try_at", .datetime)
            .create()
        try await database.schema("import_rows")
            .field("job_id", .uuid, .required, .references("import_jobs", "id", onDelete: .cascade))
            .field("row_no", .int32, .required)
            .field("file", .string, .required)
            .field("line", .int32, .required)
            .field("title", .string, .required)
            .field("year", .int32)
            .field("watched_on", .string)
            .field("data", .string, .required)
            .field("state", .string, .required)
            .field("step", .string)
            .field("reason", .string)
            .field("match_kind", .string)
            .field("match_id", .string)
            .field("match_title", .string)
            .field("match_how", .string)
            .field("candidates", .string)
            .unique(on: "job_id", "row_no")
            .create()
        try await database.schema("import_matches")
            .field("match_key", .string, .identifier(auto: false))
            .field("media_kind", .string, .required)
            .field("item_id", .string)
            .field("title", .string)
            .field("how", .string, .required)
            .field("snapshot", .string)
            .field("candidates", .string)
            .field("resolved_at", .datetime, .required)
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.raw(
            "CREATE UNIQUE INDEX import_jobs_one_running ON import_jobs (profile_id) WHERE state IN ('loading', 'queued', 'running')"
        ).run()
        try await sql.create(index: "import_jobs_profile").on("import_jobs").column("profile_id").column("created_at").run()
        try await sql.create(index: "import_jobs_state").on("import_jobs").column("state").column("created_at").run()
        try await sql.create(index: "import_rows_state").on("import_rows").column("job_id").column("state").column("row_no").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("import_matches").delete()
        try await database.schema("import_rows").delete()
        try await database.schema("import_jobs").delete()
    }
}
