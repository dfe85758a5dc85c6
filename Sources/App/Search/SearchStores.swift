import FluentKit
import Foundation
import SQLKit

/// The film a search found, as it is remembered for the profile.
public struct LastSearch: Sendable, Equatable {
    public var query: String
    public var movie: Movie
    public var details: OMDbDetails?
    public var searchedAt: Date
}

/// The `last_searches` table: one row per profile, replaced by each successful search.
public struct LastSearchStore: Sendable {
    let database: AppDatabase

    public func remember(profile: UUID, _ search: LastSearch) async throws {
        let encoder = JSONEncoder()
        let movie = try encoder.encode(search.movie)
        let details = try search.details.map { try encoder.encode($0) }
        try await database.writeSQL { sql in
            try await sql.insert(into: LastSearchModel.schema)
                .columns("profile_id", "query", "movie", "details", "searched_at")
                .values(SQLBind(profile), SQLBind(search.query), SQLBind(movie), SQLBind(details), SQLBind(search.searchedAt))
                .onConflict(with: ["profile_id"]) {
                    $0.set(excludedValueOf: "query").set(excludedValueOf: "movie").set(excludedValueOf: "details")
                        .set(excludedValueOf: "searched_at")
                }
                .run()
        }
    }

    public func last(profile: UUID?) async throws -> LastSearch? {
        guard let profile, let row = try await LastSearchModel.find(profile, on: database.db) else { return nil }
        let decoder = JSONDecoder()
        guard let movie = try? decoder.decode(Movie.self, from: row.movie) else { return nil }
        let details = row.details.flatMap { try? decoder.decode(OMDbDetails.self, from: $0) }
        return LastSearch(query: row.query, movie: movie, details: details, searchedAt: row.searchedAt)
    }
}

/// Counts calls to a metered upstream per UTC day in the database, so restarts and several
/// server processes share one count. A database failure lets the call through (and is logged by the caller's engine).
public struct DailyCallCounter: CallBudget {
    let database: AppDatabase
    let api: String
    let limit: Int
    let clock: any AppClock

    public func spend() async -> Bool {
        guard let calls = try? await increment() else { return true }
        return calls <= limit
    }

    /// Calls counted today (including refused attempts past the limit).
    public func callsToday() async throws -> Int {
        let row = try await database.sql.raw("SELECT calls FROM upstream_calls WHERE api = \(bind: api) AND day = \(bind: today())").first()
        return try row?.decode(column: "calls", as: Int.self) ?? 0
    }

    private func increment() async throws -> Int {
        let row = try await database.writeSQL { sql in
            try await sql.raw(
                """
                    INSERT INTO upstream_calls (api, day, calls) VALUES (\(bind: api), \(bind: today()), 1)
                ON CONFLICT (api, day) DO UPDATE SET calls = upstream_calls.calls + 1
                RETURNING calls
                """
            ).first()
        }
        return try row?.decode(column: "calls", as: Int.self) ?? 0
    }

    private func today() -> String { clock.now().formatted(UTCFormatters.dayStyle) }
}
