import FluentKit
import Foundation
import SQLKit
import Testing

@testable import App

/// The tallies of migration 026 (per month and kind, per title, per year and genre), kept by
/// triggers: after any change to the watches they hold what counting the watches gives.
@Suite("Migration 026: watch tallies")
struct WatchTalliesTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// What the tallies must hold, counted from the watches, next to what they hold; one line a row.
    static func tallies(_ sql: any SQLDatabase) async throws -> (counted: [String], kept: [String]) {
        func lines(_ query: SQLQueryString) async throws -> [String] {
            try await sql.raw(query).all().map { row in
                let profile = try row.decode(column: "profile_id", as: UUID.self)
                let key = try row.decode(column: "k", as: String.self)
                return "\(profile) \(key) \(try row.decode(column: "n", as: Int.self)) \(try row.decode(column: "v", as: String.self))"
            }.sorted()
        }
        let counted =
            try await lines(
                """
                SELECT profile_id, 'month ' || SUBSTR(watched_on, 1, 7) || ' ' || media_kind AS k, COUNT(*) AS n,
                  CAST(COALESCE(SUM(runtime_minutes), 0) AS TEXT) AS v FROM watches GROUP BY profile_id, SUBSTR(watched_on, 1, 7), media_kind
                """)
            + (try await lines(
                """
                SELECT profile_id, 'title ' || media_kind || ' ' || item_id AS k, COUNT(*) AS n, '' AS v FROM watches
                GROUP BY profile_id, media_kind, item_id
                """))
            + (try await lines(
                """
                SELECT profile_id, 'genre ' || SUBSTR(watched_on, 1, 4) || ' ' || genre AS k, COUNT(*) AS n, '' AS v FROM watches
                WHERE genre IS NOT NULL GROUP BY profile_id, SUBSTR(watched_on, 1, 4), genre
                """))
        let kept =
            try await lines(
                """
                SELECT profile_id, 'month ' || month || ' ' || media_kind AS k, watch_count AS n, CAST(minutes AS TEXT) AS v FROM watch_months
                """)
            + (try await lines(
                "SELECT profile_id, 'title ' || media_kind || ' ' || item_id AS k, watch_count AS n, '' AS v FROM watch_titles"))
            + (try await lines("SELECT profile_id, 'genre ' || year || ' ' || genre AS k, watch_count AS n, '' AS v FROM watch_genres"))
        return (counted, kept)
    }

    static func addProfile(_ sql: any SQLDatabase) async throws -> UUID {
        let id = UUID()
        try await sql.raw(
            "INSERT INTO profiles (id, kind, created_at, updated_at) VALUES (\(bind: id), 'visitor', \(bind: now), \(bind: now))"
        ).run()
        return id
    }

    static func addWatch(
        _ sql: any SQLDatabase, profile: UUID, kind: String = "movie", item: String, day: String, genre: String?, minutes: Int?
    ) async throws {
        try await sql.raw(
            """
            INSERT INTO watches (id, profile_id, media_kind, item_id, title, watched_on, genre, runtime_minutes, created_at)
            VALUES (\(bind: UUID()), \(bind: profile), \(bind: kind), \(bind: item), \(bind: "Title \(item)"), \(bind: day),
              \(bind: genre), \(bind: minutes), \(bind: now))
            """
        ).run()
    }

    @Test("every insert, edit (day, title, genre, runtime, person), rating change and delete keeps the tallies equal to counting the watches")
    func followEveryChange() async throws {
        try await TestDatabase.with { database in
            let sql = try database.sql
            let people = [try await Self.addProfile(sql), try await Self.addProfile(sql)]
            var generator = SplitMix(seed: 26)
            func random(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &generator) }
            let genres: [String?] = [nil, "Drama", "Comedy", "Thriller"]
            func someDay() -> String { String(format: "20%02d-%02d-%02d", 20 + random(5), 1 + random(12), 1 + random(28)) }
            func ids() async throws -> [UUID] {
                try await sql.raw("SELECT id FROM watches ORDER BY id").all().map { try $0.decode(column: "id", as: UUID.self) }
            }
            for step in 1...240 {
                let known = try await ids()
                let target = known.isEmpty ? nil : known[random(known.count)]
                switch (random(10), target) {
                case (0...4, _), (_, nil):
                    try await Self.addWatch(
                        sql, profile: people[random(2)], kind: random(3) == 0 ? "show" : "movie", item: "\(random(8))",
                        day: someDay(), genre: genres[random(4)], minutes: random(3) == 0 ? nil : 30 + random(150))
                case (5, let id?):
                    try await sql.update("watches").set("watched_on", to: SQLBind(someDay())).where("id", .equal, SQLBind(id)).run()
                case (6, let id?):
                    try await sql.update("watches").set("item_id", to: SQLBind("\(random(8))")).set("genre", to: SQLBind(genres[random(4)]))
                        .set("runtime_minutes", to: SQLBind(random(2) == 0 ? nil : random(200))).where("id", .equal, SQLBind(id)).run()
                case (7, let id?):
                    try await sql.update("watches").set("profile_id", to: SQLBind(people[random(2)])).where("id", .equal, SQLBind(id)).run()
                case (8, let id?):
                    try await sql.update("watches").set("rating", to: SQLBind(1 + random(10))).where("id", .equal, SQLBind(id)).run()
                case (_, let id?):
                    try await sql.delete(from: "watches").where("id", .equal, SQLBind(id)).run()
                }
                if step % 20 == 0 {
                    let (counted, kept) = try await Self.tallies(sql)
                    #expect(Set(kept).symmetricDifference(counted).sorted() == [], "after step \(step)")
                }
            }
            // A visitor's diary moved to an account in one statement, as signing in merges it.
            try await sql.update("watches").set("profile_id", to: SQLBind(people[1])).where("profile_id", .equal, SQLBind(people[0])).run()
            var (counted, kept) = try await Self.tallies(sql)
            #expect(kept == counted && !kept.contains { $0.hasPrefix(people[0].uuidString) })
            // A person deleted takes their tallies along.
            try await sql.delete(from: "profiles").where("id", .equal, SQLBind(people[1])).run()
            (counted, kept) = try await Self.tallies(sql)
            #expect(counted.isEmpty && kept.isEmpty)
        }
    }

    @Test("watches of one title logged at once are all counted")
    func concurrentWatches() async throws {
        try await TestDatabase.with { database in
            let profile = try await Self.addProfile(database.sql)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for n in 0..<24 {
                    group.addTask {
                        try await database.writeSQL { sql in
                            try await Self.addWatch(sql, profile: profile, item: "7", day: "2024-03-\(10 + n)", genre: "Drama", minutes: 100)
                        }
                    }
                }
                try await group.waitForAll()
            }
            let (counted, kept) = try await Self.tallies(database.sql)
            #expect(kept == counted && kept.contains("\(profile.uuidString) title movie 7 24 "))
        }
    }

    @Test("watches logged before the migration are tallied by it, and later ones by the triggers")
    func tallyExisting() async throws {
        try await TestDatabase.with { database in
            try await database.write { db in try await CreateWatchTallies().revert(on: db) }
            let sql = try database.sql
            let profile = try await Self.addProfile(sql)
            for (item, day, genre) in [("1", "2023-11-14", "Drama"), ("1", "2021-01-02", "Drama"), ("2", "2024-02-03", nil)] {
                try await Self.addWatch(sql, profile: profile, item: item, day: day, genre: genre, minutes: 90)
            }
            try await database.write { db in try await CreateWatchTallies().prepare(on: db) }
            var (counted, kept) = try await Self.tallies(sql)
            #expect(kept == counted && kept.contains("\(profile.uuidString) title movie 1 2 "))
            try await Self.addWatch(sql, profile: profile, item: "1", day: "2020-05-05", genre: nil, minutes: nil)
            (counted, kept) = try await Self.tallies(sql)
            #expect(kept == counted && kept.contains("\(profile.uuidString) title movie 1 3 "))
        }
    }
}
