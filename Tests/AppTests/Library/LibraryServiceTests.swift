import Foundation
import SQLKit
import Testing

@testable import App

@Suite("Library: favorites, watched, notes")
struct LibraryServiceTests {
    static func movie(_ id: Int, _ title: String = "Film") -> Movie {
        Movie(id: id, title: "\(title) \(id)", director: "Someone", genre: "Drama", releaseDate: ITunesDates.parse("2026-05-01"), synopsis: "Plot.")
    }

    func withProfile(_ body: (LibraryService, UUID, ManualClock) async throws -> Void) async throws {
        try await TestDatabase.with { database in
            let clock = ManualClock()
            let sessions = SessionService(database: database, clock: clock)
            let profile = try await sessions.startVisitor().profile
            try await body(LibraryService(database: database, clock: clock), profile, clock)
        }
    }

    @Test("favorite, then mark watched with a note, then move back to favorites")
    func flags() async throws {
        try await withProfile { library, profile, _ in
            let movie = Self.movie(7)
            var item = try await library.update(profile: profile, movie: movie, change: .init(favorite: true))
            #expect(item?.favorite == true && item?.watched == false)
            item = try await library.update(profile: profile, movie: movie, change: .init(favorite: false, watched: true, note: "Loved it"))
            #expect(item?.favorite == false && item?.watched == true && item?.note == "Loved it")
            item = try await library.update(profile: profile, movie: movie, change: .init(favorite: true, watched: false))
            #expect(item?.favorite == true && item?.watched == false && item?.note == "Loved it", "moving keeps the note")
            #expect(try await library.list(profile: profile, list: .favorites, page: 1).total == 1)
            #expect(try await library.list(profile: profile, list: .watched, page: 1).total == 0)
        }
    }

    @Test("a title in no list any more is removed; remove says whether there was anything")
    func removal() async throws {
        try await withProfile { library, profile, _ in
            try await library.update(profile: profile, movie: Self.movie(1), change: .init(favorite: true))
            let gone = try await library.update(profile: profile, movie: Self.movie(1), change: .init(favorite: false))
            #expect(gone == nil)
            #expect(try await library.list(profile: profile, list: .all, page: 1).total == 0)
            try await library.update(profile: profile, movie: Self.movie(2), change: .init(watched: true))
            #expect(try await library.remove(profile: profile, movieID: 2))
            #expect(try await !library.remove(profile: profile, movieID: 2))
        }
    }

    @Test("notes: trimmed, empty clears, more than 2,000 characters is refused and nothing is written")
    func notes() async throws {
        try await withProfile { library, profile, _ in
            let movie = Self.movie(3)
            try await library.update(profile: profile, movie: movie, change: .init(watched: true, note: "  Great ending  "))
            #expect(try await library.item(profile: profile, movieID: 3)?.note == "Great ending")
            await #expect(throws: LibraryError.noteTooLong(limit: 2000, actual: 2001)) {
                try await library.update(profile: profile, movie: movie, change: .init(note: String(repeating: "é", count: 2001)))
            }
            #expect(try await library.item(profile: profile, movieID: 3)?.note == "Great ending")
            try await library.update(profile: profile, movie: movie, change: .init(note: String(repeating: "🍿", count: 2000)))
            #expect(try await library.item(profile: profile, movieID: 3)?.note?.count == 2000)
            try await library.update(profile: profile, movie: movie, change: .init(note: ""))
            #expect(try await library.item(profile: profile, movieID: 3)?.note == nil)
        }
    }

    @Test("a saved film keeps its full snapshot")
    func snapshot() async throws {
        try await withProfile { library, profile, _ in
            let movie = Self.movie(9)
            try await library.update(profile: profile, movie: movie, change: .init(favorite: true))
            #expect(try await library.snapshot(profile: profile, movieID: 9)?.movie == movie)
        }
    }

    @Test("lists come in pages of 60, most recently changed first, and belong to their profile")
    func paging() async throws {
        try await TestDatabase.with { database in
            let clock = ManualClock()
            let sessions = SessionService(database: database, clock: clock)
            let library = LibraryService(database: database, clock: clock)
            let mine = try await sessions.startVisitor().profile
            let theirs = try await sessions.startVisitor().profile
            for id in 1...130 {
                clock.advance(1)
                try await library.update(profile: mine, movie: Self.movie(id), change: .init(favorite: id % 2 == 0, watched: id % 2 == 1))
            }
            let first = try await library.list(profile: mine, list: .all, page: 1)
            #expect(first.total == 130 && first.items.count == 60 && first.pageCount == 3)
            #expect(first.items.first?.itemID == "130")
            let last = try await library.list(profile: mine, list: .all, page: 3)
            #expect(last.items.count == 10 && last.items.last?.itemID == "1")
            #expect(try await library.list(profile: mine, list: .favorites, page: 1).total == 65)
            #expect(try await library.list(profile: theirs, list: .all, page: 1).total == 0)
            #expect(try await library.item(profile: theirs, movieID: 1) == nil)
        }
    }
}

@Suite("SQLite settings")
struct SQLiteSettingsTests {
    @Test(
        "WAL, synchronous=FULL and a busy timeout of at least 5 s on every pooled connection",
        .enabled(if: ProcessInfo.processInfo.environment["POPCORN_TEST_DATABASE_URL"] == nil, "SQLite only")
    )
    func pragmas() async throws {
        try await TestDatabase.with { database in
            for _ in 0..<4 {
                let sql = try database.sql
                let journal = try await sql.raw("PRAGMA journal_mode").first(decodingColumn: "journal_mode", as: String.self)
                let synchronous = try await sql.raw("PRAGMA synchronous").first(decodingColumn: "synchronous", as: Int.self)
                let busy = try await sql.raw("PRAGMA busy_timeout").first(decodingColumn: "timeout", as: Int.self)
                #expect(journal == "wal")
                #expect(synchronous == 2)
                #expect((busy ?? 0) >= 5000)
            }
        }
    }
}
