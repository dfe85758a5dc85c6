import FluentKit
import Foundation
import SQLKit
import Testing

@testable import App

@Suite("Migration 016: the watch diary")
struct CreateWatchesMigrationTests {
    @Test("every title marked Watched before the diary gets one watch, dated the day it last changed, with its note; nothing else moves")
    func watchedEntriesBecomeWatches() async throws {
        try await TestDatabase.with { database in
            // As before migration 016: no watches table, two entries (one watched with a note, one only a favorite).
            try await database.write { db in try await CreateWatches().revert(on: db) }
            let profile = UUID()
            let changed = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14 22:13:20 UTC
            try await database.writeSQL { sql in
                try await sql.raw(
                    "INSERT INTO profiles (id, kind, created_at, updated_at) VALUES (\(bind: profile), 'visitor', \(bind: changed), \(bind: changed))"
                ).run()
                for (item, watched, note) in [("1001", true, "Saw it twice"), ("1002", false, "")] {
                    try await sql.raw(
                        """
                        INSERT INTO library_entries (id, profile_id, media_kind, item_id, title, favorite, watched, note, snapshot, created_at, updated_at, rating)
                        VALUES (\(bind: UUID()), \(bind: profile), 'movie', \(bind: item), \(bind: "Film \(item)"), \(bind: !watched), \(bind: watched),
                                \(bind: note.isEmpty ? nil : note), \(bind: Data()), \(bind: changed), \(bind: changed), \(bind: watched ? 8 : nil))
                        """
                    ).run()
                }
            }
            try await database.write { db in try await CreateWatches().prepare(on: db) }
            // Read as migration 016 left the table (the diary's reads want the columns later migrations add).
            struct Row: Decodable {
                var item_id: String
                var title: String
                var watched_on: String
                var note: String?
                var rating: Int?
            }
            let rows = try await database.sql.select().columns("item_id", "title", "watched_on", "note", "rating").from("watches")
                .all(decoding: Row.self)
            #expect(rows.count == 1)
            let watch = try #require(rows.first)
            #expect(watch.item_id == "1001" && watch.watched_on == "2023-11-14" && watch.note == "Saw it twice" && watch.rating == 8)
            #expect(watch.title == "Film 1001")
            let entries = try await database.sql.select().column("item_id").from("library_entries").all(decodingColumn: "item_id", as: String.self)
            #expect(Set(entries) == ["1001", "1002"], "the lists are untouched")
        }
    }
}
