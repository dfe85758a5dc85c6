import Foundation
import SQLKit

/// One of a person's recent searches.
public struct SearchHistoryEntry: Sendable, Equatable {
    public var id: UUID
    public var query: String
    public var searchedAt: Date
}

/// The `search_history` table: a person's recent searches, newest first, at most `limit`. The same
/// query again (letter case aside) moves to the top instead of appearing twice; past the limit the
/// oldest go, in the same write.
public struct SearchHistoryStore: Sendable {
    public static let limit = 20
    let database: AppDatabase

    func record(profile: UUID, query: SearchQuery, at time: Date) async throws {
        try await database.write(serializedBy: "search-history:\(profile)") { db in
            let sql = db as! any SQLDatabase
            try await sql.insert(into: "search_history")
                .columns("id", "profile_id", "query", "query_key", "searched_at")
                .values(SQLBind(UUID()), SQLBind(profile), SQLBind(query.text), SQLBind(query.key), SQLBind(time))
                .onConflict(with: ["profile_id", "query_key"]) { $0.set(excludedValueOf: "query").set(excludedValueOf: "searched_at") }
                .run()
            try await sql.raw(
                """
                DELETE FROM search_history WHERE profile_id = \(bind: profile) AND id NOT IN (
                    SELECT id FROM search_history WHERE profile_id = \(bind: profile)
                    ORDER BY searched_at DESC LIMIT \(unsafeRaw: String(Self.limit)))
                """
            ).run()
        }
    }

    func recent(profile: UUID?) async throws -> [SearchHistoryEntry] {
        guard let profile else { return [] }
        return try await database.sql.raw(
            """
            SELECT id, query, searched_at FROM search_history WHERE profile_id = \(bind: profile)
            ORDER BY searched_at DESC LIMIT \(unsafeRaw: String(Self.limit))
            """
        ).all().map {
            SearchHistoryEntry(
                id: try $0.decode(column: "id", as: UUID.self), query: try $0.decode(column: "query", as: String.self),
                searchedAt: try $0.decode(column: "searched_at", as: Date.self))
        }
    }

    /// Removes one of the person's own entries; false when they have no such entry.
    func remove(profile: UUID?, id: UUID) async throws -> Bool {
        guard let profile else { return false }
        return try await database.writeSQL { sql in
            try await sql.raw("DELETE FROM search_history WHERE id = \(bind: id) AND profile_id = \(bind: profile) RETURNING id").first() != nil
        }
    }
}
