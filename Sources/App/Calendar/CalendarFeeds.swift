import Foundation
import SQLKit

/// Each account's private calendar feed: a random token of its own (not a session's nor an API
/// token's), stored as its SHA-256 and shown once when made. Renewing replaces it (the old address
/// then answers 404), revoking deletes it.
public final class CalendarFeeds: Sendable {
    let database: AppDatabase
    let clock: any AppClock

    init(database: AppDatabase, clock: any AppClock) {
        self.database = database
        self.clock = clock
    }

    /// Makes the account's feed token, or a new one in place of the old; the token is returned this once.
    public func renew(profile: UUID) async throws -> String {
        let token = SessionService.newToken()
        let hash = SessionService.hash(token)
        let now = clock.now()
        try await database.writeSQL { sql in
            try await sql.delete(from: "calendar_feeds").where("profile_id", .equal, SQLBind(profile)).run()
            try await sql.insert(into: "calendar_feeds").columns("profile_id", "token_hash", "created_at")
                .values(SQLBind(profile), SQLBind(hash), SQLBind(now)).run()
        }
        database.changes.publish(.person(profile))
        return token
    }

    /// Turns the feed off; false when there was none.
    @discardableResult
    public func revoke(profile: UUID) async throws -> Bool {
        let removed = try await database.writeSQL { sql in
            struct Row: Decodable { var profile_id: UUID }
            return try await sql.delete(from: "calendar_feeds").where("profile_id", .equal, SQLBind(profile)).returning("profile_id")
                .all(decoding: Row.self).count
        }
        database.changes.publish(.person(profile))
        return removed > 0
    }

    /// When the account's feed was made (nil: it has none).
    public func createdAt(profile: UUID) async throws -> Date? {
        struct Row: Decodable { var created_at: Date }
        return try await database.sql.select().column("created_at").from("calendar_feeds").where("profile_id", .equal, SQLBind(profile))
            .first(decoding: Row.self)?.created_at
    }

    /// The account a feed token belongs to (nil: no such feed, or it was revoked or renewed).
    public func profile(token: String) async throws -> UUID? {
        guard token.count == 43, token.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else { return nil }
        struct Row: Decodable { var profile_id: UUID }
        return try await database.sql.select().column("profile_id").from("calendar_feeds")
            .where("token_hash", .equal, SQLBind(SessionService.hash(token))).first(decoding: Row.self)?.profile_id
    }
}
