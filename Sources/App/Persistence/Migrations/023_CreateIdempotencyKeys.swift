import FluentKit
import SQLKit

/// `idempotency_keys`: the answer to each write a client sent with an `Idempotency-Key` header
/// (the web layer's Idempotency-Key middleware), so the same write sent again (an offline change synced twice, a
/// retry after a lost answer) is answered from here and not done twice.
/// - `scope`: whose key it is ("profile:<uuid>", or "visitor:<hash>" before a profile exists);
/// - `request_key`: the client's key; unique per scope;
/// - `fingerprint`: SHA-256 of the method, path and body, so a key sent again with another
///   request is refused rather than answered with the first request's answer;
/// - `status` … `body`: the answer, null while the first request is still being answered;
/// - `created_at`: rows leave with the hourly clean-up two days later.
struct CreateIdempotencyKeys: AsyncMigration {
    var name: String { "App.CreateIdempotencyKeys" }

    func prepare(on database: any Database) async throws {
        try await database.schema("idempotency_keys")
            .field("id", .uuid, .identifier(auto: false))
            .field("scope", .string, .required)
            .field("request_key", .string, .required)
            .field("fingerprint", .string, .required)
            .field("status", .int)
            .field("content_type", .string)
            .field("location", .string)
            .field("body", .data)
            .field("created_at", .datetime, .required)
            .unique(on: "scope", "request_key")
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "idempotency_keys_created").on("idempotency_keys").column("created_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("idempotency_keys").delete()
    }
}
