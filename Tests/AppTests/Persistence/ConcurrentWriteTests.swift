import FluentKit
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SQLKit
import Synchronization
import Testing

@testable import App

/// Writes at the same time never fail: on SQLite one writer at a time (`AppDatabase.write`), on
/// PostgreSQL ordinary transactions. Runs on whichever database the suite runs on.
@Suite("Concurrent writes")
struct ConcurrentWriteTests {
    @Test("20 new visitors saving a film at once: every save succeeds and is kept")
    func newVisitorsAtOnce() async throws {
        try await TestApp.with { app in
            let statuses = try await app.test { client in
                try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?).self) { group in
                    for index in 0..<20 {
                        let id = [1001, 1002, 1005, 1006][index % 4]
                        group.addTask {
                            let response = try await client.sendJSON("/api/v1/library/movies/\(id)", method: .put, #"{"favorite": true}"#)
                            return (response.status, response.headers[.setCookie])
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            #expect(statuses.map(\.0).allSatisfy { $0 == .ok || $0 == .created }, "\(statuses.map(\.0.code))")
            let saved = try await LibraryEntryModel.query(on: app.services.database.db).filter(\.$favorite == true).count()
            #expect(saved == 20)
        }
    }

    @Test("one visitor's saves from 8 connections at once: none fails, the last state of each film is kept")
    func oneVisitorManyConnections() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let first = try await client.sendJSON("/api/v1/library/movies/1001", method: .put, #"{"favorite": true}"#)
                let cookie = try #require(first.headers[.setCookie]).prefix { $0 != ";" }
                let failures = try await withThrowingTaskGroup(of: [UInt].self) { group in
                    for worker in 0..<8 {
                        group.addTask {
                            var failed: [UInt] = []
                            for round in 0..<25 {
                                let id = [1002, 1005, 1006][(worker + round) % 3]
                                let body = round % 2 == 0 ? #"{"watched": true, "note": "round \#(round)"}"# : #"{"favorite": true}"#
                                let response = try await client.sendJSON("/api/v1/library/movies/\(id)", method: .put, body, cookie: String(cookie))
                                if response.status != .ok && response.status != .created { failed.append(UInt(response.status.code)) }
                            }
                            return failed
                        }
                    }
                    return try await group.reduce(into: []) { $0 += $1 }
                }
                #expect(failures.isEmpty, "\(failures.count) of 200 saves failed: \(Set(failures))")
                let list = try await client.get("/api/v1/library?list=all", cookie: String(cookie))
                let page = try APITests.decode(Schemas.LibraryPage.self, list)
                #expect(page.total == 4)
            }
        }
    }
}

@Suite("Changes made now")
struct ChangesMadeNowTests {
    @Test(
        "a change made now is applied even when the title's last change carries a later time (another server's clock, or a request that took its time after this one)"
    )
    func nowIsNewest() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let first = try await client.sendJSON("/api/v1/library/movies/1001", method: .put, #"{"favorite": true}"#)
                let cookie = String(try #require(first.headers[.setCookie]).prefix { $0 != ";" })
                let ahead = app.clock.now().addingTimeInterval(5)
                try await app.services.database.sql.update("library_entries").set("updated_at", to: SQLBind(ahead)).run()
                let rated = try await client.sendJSON("/api/v1/library/movies/1001", method: .put, #"{"rating": 7}"#, cookie: cookie)
                #expect(rated.status == .ok, "\(rated.status): \(String(buffer: rated.body))")
                let removed = try await client.execute(uri: "/api/v1/library/movies/1001", method: .delete, headers: [.cookie: cookie])
                #expect(removed.status == .noContent)
            }
        }
    }
}

@Suite("Grouped writes")
struct GroupedWriteTests {
    struct Refused: Error, Equatable { let index: Int }

    @Test("200 writes at once, every tenth failing: each failing one alone is undone and hears its own error, the others are kept")
    func failuresStayTheirOwn() async throws {
        try await TestDatabase.with { database in
            let sql = try database.sql
            try await sql.raw("CREATE TABLE grouped_writes (n INTEGER NOT NULL)").run()
            let outcomes = await withTaskGroup(of: (Int, Result<Int, any Error>).self) { group in
                for index in 0..<200 {
                    group.addTask {
                        do {
                            let kept = try await database.writeSQL { sql in
                                try await sql.raw("INSERT INTO grouped_writes (n) VALUES (\(bind: index))").run()
                                // Written, then refused: the row must not stay.
                                if index % 10 == 0 { throw Refused(index: index) }
                                return index
                            }
                            return (index, .success(kept))
                        } catch {
                            return (index, .failure(error))
                        }
                    }
                }
                return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
            for (index, outcome) in outcomes {
                switch outcome {
                case .success(let value): #expect(index % 10 != 0 && value == index)
                case .failure(let error): #expect(index % 10 == 0 && (error as? Refused) == Refused(index: index), "\(index): \(error)")
                }
            }
            let rows = try await sql.raw("SELECT n FROM grouped_writes ORDER BY n").all().map { try $0.decode(column: "n", as: Int.self) }
            #expect(rows == (0..<200).filter { $0 % 10 != 0 })
        }
    }
}

@Suite("Database at shutdown")
struct DatabaseAtShutdownTests {
    @Test("a write asked for once the database is shut down is refused at once, not left waiting for a writer that has stopped")
    func writeRefusedAfterShutdown() async throws {
        try await TestDatabase.with { database in
            try await database.writeSQL { sql in try await sql.raw("CREATE TABLE late_writes (n INTEGER NOT NULL)").run() }
            try await Self.shutDown(database)
            let answered = Mutex<Bool?>(nil)
            Task {
                do {
                    try await database.writeSQL { sql in try await sql.raw("INSERT INTO late_writes (n) VALUES (1)").run() }
                    answered.withLock { $0 = true }
                } catch {
                    answered.withLock { $0 = false }
                }
            }
            for _ in 0..<100 where answered.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(100)) }
            #expect(answered.withLock { $0 } == false)
        }
    }

    /// A task finishing after shutdown (an import, a background fetch) stopped the whole process:
    /// the handle was force-unwrapped, and FluentKit hands none out once shut down (on PostgreSQL
    /// the write above did the same).
    @Test("a read asked for once the database is shut down fails with its own error; the process goes on")
    func readRefusedAfterShutdown() async throws {
        try await TestDatabase.with { database in
            try await Self.shutDown(database)
            await #expect(throws: DatabaseShutDown.self) {
                _ = try await database.sql.raw("SELECT 1 AS one").first()
            }
        }
    }

    /// Shuts the test's database down; on PostgreSQL its schema is dropped first, as the test
    /// database's own cleanup cannot once it is shut down.
    private static func shutDown(_ database: AppDatabase) async throws {
        if database.isPostgres { try await database.dropSchema(database.schema) }
        await database.shutdown()
    }
}

/// Reads go to every event loop's connection in turn, wherever they are asked from.
@Suite("Concurrent reads")
struct ConcurrentReadTests {
    @Test("reads asked from an event loop spread over every loop's connections")
    func readsSpreadOverLoops() async throws {
        try await TestApp.with { app in
            let database = app.services.database
            let loops = Array(database.eventLoopGroup.makeIterator())
            // Before: `any()` is the caller's own loop there, so reads started at once from a loop
            // all queued on its one connection.
            let used = try await loops[0].submit { Set(try (0..<loops.count * 2).map { _ in ObjectIdentifier(try database.db.eventLoop) }) }.get()
            #expect(used.count == loops.count)
        }
    }
}
