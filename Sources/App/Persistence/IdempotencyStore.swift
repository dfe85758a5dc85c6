import Foundation
import SQLKit

/// The answers to writes sent with an `Idempotency-Key`, in the database (`idempotency_keys`), so
/// every server answers a key the same way and a key outlives a restart. Kept two days: at least
/// the 24 hours a phone may take to sync a change made offline.
struct IdempotencyStore: Sendable {
    static let kept: TimeInterval = 48 * 3600
    /// A first request still unanswered after this long is taken to have died with its server:
    /// the next one with the key does the write.
    static let abandonedAfter: TimeInterval = 60
    /// Answers bigger than this are not kept (a write's answer is a few hundred bytes).
    static let maxBody = 256 * 1024

    let database: AppDatabase
    let clock: any AppClock

    struct Answer: Sendable, Equatable {
        var status: Int
        var contentType: String?
        var location: String?
        var body: Data
    }

    enum Claim: Sendable, Equatable {
        /// The key is this request's: do the write, then `keep` its answer (or `release` the key).
        case claimed(UUID)
        /// The key's write was done: its answer.
        case answered(Answer)
        /// The key's first request is still being answered.
        case inProgress
        /// The key was used for another request (another method, address or body).
        case mismatch
    }

    func claim(scope: String, key: String, fingerprint: String) async throws -> Claim {
        let id = UUID()
        let now = clock.now()
        return try await database.writeSQL { sql in
            let inserted = try await sql.insert(into: "idempotency_keys")
                .columns("id", "scope", "request_key", "fingerprint", "created_at")
                .values(SQLBind(id), SQLBind(scope), SQLBind(key), SQLBind(fingerprint), SQLBind(now))
                .ignoringConflicts(with: ["scope", "request_key"])
                .returning("id").all()
            if !inserted.isEmpty { return .claimed(id) }
            guard
                let row = try await sql.raw(
                    """
                    SELECT id, fingerprint, status, content_type, location, body, created_at FROM idempotency_keys
                    WHERE scope = \(bind: scope) AND request_key = \(bind: key)
                    """
                ).first()
            else { return .inProgress }
            guard try row.decode(column: "fingerprint", as: String.self) == fingerprint else { return .mismatch }
            if let status = try row.decode(column: "status", as: Int?.self) {
                return .answered(
                    Answer(
                        status: status, contentType: try row.decode(column: "content_type", as: String?.self),
                        location: try row.decode(column: "location", as: String?.self),
                        body: try row.decode(column: "body", as: Data?.self) ?? Data()))
            }
            let stored = try row.decode(column: "id", as: UUID.self)
            guard try row.decode(column: "created_at", as: Date.self) < now.addingTimeInterval(-Self.abandonedAfter) else { return .inProgress }
            try await sql.raw("UPDATE idempotency_keys SET created_at = \(bind: now) WHERE id = \(bind: stored)").run()
            return .claimed(stored)
        }
    }

    func keep(_ id: UUID, _ answer: Answer) async throws {
        try await database.writeSQL { sql in
            try await sql.raw(
                """
                UPDATE idempotency_keys SET status = \(bind: answer.status), content_type = \(bind: answer.contentType),
                location = \(bind: answer.location), body = \(bind: answer.body) WHERE id = \(bind: id)
                """
            ).run()
        }
    }

    /// The write failed before it had an answer worth repeating: the key may be sent again.
    func release(_ id: UUID) async throws {
        try await database.writeSQL { sql in
            try await sql.raw("DELETE FROM idempotency_keys WHERE id = \(bind: id) AND status IS NULL").run()
        }
    }

    /// The clean-up's view of the table: rows older than `kept` go.
    var expiry: AttemptWindow {
        AttemptWindow(database: database, clock: clock, table: "idempotency_keys", timeColumn: "created_at", limit: 0, window: Self.kept)
    }
}
