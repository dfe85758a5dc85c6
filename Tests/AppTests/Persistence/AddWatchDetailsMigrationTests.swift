import FluentKit
import Foundation
import SQLKit
import Testing

@testable import App

@Suite("Migration 019: genre and runtime on watches")
struct AddWatchDetailsMigrationTests {
    @Test("watches logged before get the genre and runtime of the person's saved title; other watches and the diary stay as they were")
    func watchesGetDetails() async throws {
        try await TestDatabase.with { database in
            try await database.write { db in try await CreateWatchTallies().revert(on: db) }
            try await database.write { db in try await IndexStatistics().revert(on: db) }
            try await database.write { db in try await AddWatchDetails().revert(on: db) }
            let profile = UUID()
            let now = Date(timeIntervalSince1970: 1_700_000_000)
            let snapshot = try JSONEncoder().encode(Movie(id: 1001, title: "Film 1001", runtimeMinutes: 124))
            try await database.writeSQL { sql in
                try await sql.raw(
                    "INSERT INTO profiles (id, kind, created_at, updated_at) VALUES (\(bind: profile), 'visitor', \(bind: now), \(bind: now))"
                ).run()
                try await sql.raw(
                    """
                    INSERT INTO library_entries (id, profile_id, media_kind, item_id, title, genre, favorite, watched, snapshot, created_at, updated_at)
                    VALUES (\(bind: UUID()), \(bind: profile), 'movie', '1001', 'Film 1001', 'Drama', \(bind: false), \(bind: true), \(bind: snapshot), \(bind: now), \(bind: now))
                    """
                ).run()
                for (item, day) in [("1001", "2023-11-14"), ("1001", "2024-01-02"), ("5555", "2024-02-03")] {
                    try await sql.raw(
                        """
                        INSERT INTO watches (id, profile_id, media_kind, item_id, title, watched_on, created_at)
                        VALUES (\(bind: UUID()), \(bind: profile), 'movie', \(bind: item), \(bind: "Film \(item)"), \(bind: day), \(bind: now))
                        """
                    ).run()
                }
            }
            try await database.write { db in try await AddWatchDetails().prepare(on: db) }
            try await database.write { db in try await IndexStatistics().prepare(on: db) }
            try await database.write { db in try await CreateWatchTallies().prepare(on: db) }
            struct Row: Decodable {
                var item_id: String
                var genre: String?
                var runtime_minutes: Int?
            }
            let rows = try await database.sql.select().columns("item_id", "genre", "runtime_minutes").from("watches").orderBy("watched_on")
                .all(decoding: Row.self)
            #expect(rows.map(\.genre) == ["Drama", "Drama", nil] && rows.map(\.runtime_minutes) == [124, 124, nil])
            let diary = try await DiaryService(database: database, clock: ManualClock()).page(profile: profile, page: 1)
            #expect(diary.total == 3 && diary.watches.first?.day == "2024-02-03")
        }
    }
}
