import FluentKit
import Foundation
import SQLKit

/// Sessions learn when they end and what they are: an absolute end (`expires_at`; NULL for a
/// visitor's, which ends by idle expiry only), whether "remember me" was ticked, and a short label
/// of the browser for the account page. Sign-ups are counted per client address. One column per
/// statement: SQLite adds one at a time.
///
/// Existing rows: an account's session was a 400-day cookie, so it becomes a remembered one ending
/// 30 days after it began (older ones end now and their owner signs in again); a visitor's keeps
/// no absolute end. Their device is unknown (NULL).
struct AddSessionDetails: AsyncMigration {
    var name: String { "App.AddSessionDetails" }

    func prepare(on database: any Database) async throws {
        try await database.schema("sessions").field("expires_at", .datetime).update()
        try await database.schema("sessions")
            .field("remember", .bool, .required, .custom(SQLColumnConstraintAlgorithm.default(false))).update()
        try await database.schema("sessions").field("device", .string).update()
        try await database.schema("signup_attempts")
            .field("id", .uuid, .identifier(auto: false))
            .field("address", .string, .required)
            .field("attempted_at", .datetime, .required)
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "sessions_profile").on("sessions").column("profile_id").run()
        try await sql.create(index: "sessions_last_seen").on("sessions").column("last_seen_at").run()
        try await sql.create(index: "sessions_expires").on("sessions").column("expires_at").run()
        try await sql.create(index: "signup_attempts_address").on("signup_attempts").column("address").column("attempted_at").run()
        try await Self.backfill(sql)
    }

    /// Existing accounts' sessions: remembered, ending 30 days after they began. Dates are REAL in
    /// SQLite and timestamps in PostgreSQL, so the arithmetic is done here, per row (one-off, at
    /// start, before the server answers).
    static func backfill(_ sql: any SQLDatabase) async throws {
        let rows = try await sql.raw(
            """
            SELECT s.token_hash, s.created_at FROM sessions s JOIN profiles p ON p.id = s.profile_id
            WHERE p.kind = \(bind: "account")
            """
        ).all()
        for row in rows {
            let hash = try row.decode(column: "token_hash", as: String.self)
            let ends = try row.decode(column: "created_at", as: Date.self).addingTimeInterval(30 * 86_400)
            try await sql.raw("UPDATE sessions SET remember = \(bind: true), expires_at = \(bind: ends) WHERE token_hash = \(bind: hash)").run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema("signup_attempts").delete()
        if let sql = database as? any SQLDatabase {
            for index in ["sessions_profile", "sessions_last_seen", "sessions_expires"] {
                try await sql.drop(index: index).run()
            }
        }
        try await database.schema("sessions").deleteField("device").update()
        try await database.schema("sessions").deleteField("remember").update()
        try await database.schema("sessions").deleteField("expires_at").update()
    }
}
