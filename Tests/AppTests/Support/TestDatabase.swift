import FluentKit
import Foundation
import Logging
import SQLKit

@testable import App

/// One isolated database per test: a temporary SQLite file, or a fresh PostgreSQL schema when
/// `POPCORN_TEST_DATABASE_URL` is set (scripts/test runs the suite both ways).
enum TestDatabase {
    static let logger: Logger = {
        var logger = Logger(label: "test")
        logger.logLevel = .error
        return logger
    }()

    /// `extraMigrations` run after the app's own (tests of migrations yet to come).
    static func with<T>(extraMigrations: [any Migration] = [], _ body: (AppDatabase) async throws -> T) async throws -> T {
        if let url = ProcessInfo.processInfo.environment["POPCORN_TEST_DATABASE_URL"], !url.isEmpty {
            return try await postgres(url: url, extraMigrations: extraMigrations, body)
        }
        return try await sqlite(extraMigrations: extraMigrations, body)
    }

    /// Test databases open at once on PostgreSQL. Every test runs in parallel and each database
    /// holds a pool of connections: unbounded, the whole suite passed the server's `max_connections`.
    /// 32 databases of at most 8 connections stay well under the 500 `scripts/test` allows (48 at
    /// once, with a miss's lease and throttle writes, overloaded 2 cores).
    private static let openPostgres = AsyncLock(permits: 32)

    /// A fresh schema of its own in the PostgreSQL database at `url`, dropped afterwards.
    static func postgres<T>(url: String, extraMigrations: [any Migration] = [], _ body: (AppDatabase) async throws -> T) async throws -> T {
        await openPostgres.acquire()
        do {
            let schema = "t_\(uniqueID())"
            let database = try await AppDatabase.open(.postgres(url: url), schema: schema, logger: logger, extraMigrations: extraMigrations)
            let result = try await run(body, on: database) {
                try? await database.dropSchema(schema)
                await database.shutdown()
            }
            await openPostgres.release()
            return result
        } catch {
            await openPostgres.release()
            throw error
        }
    }

    /// A temporary SQLite file, removed afterwards.
    static func sqlite<T>(extraMigrations: [any Migration] = [], _ body: (AppDatabase) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("popcorn-test-\(uniqueID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("db.sqlite").path
        let database = try await AppDatabase.open(.sqlite(path: path), logger: logger, extraMigrations: extraMigrations)
        return try await run(body, on: database) {
            await database.shutdown()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    private static func uniqueID() -> Substring {
        UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
    }

    private static func run<T>(_ body: (AppDatabase) async throws -> T, on database: AppDatabase, cleanup: () async -> Void) async throws -> T {
        do {
            // The deployment's visitor key is one the tests know, so `Visitors.cookie` can sign ids as the server does.
            try? await database.writeSQL { sql in
                try await sql.raw(
                    "INSERT INTO deployment_keys (name, secret, created_at) VALUES ('visitors', \(bind: Visitors.testKey), \(bind: Date()))"
                ).run()
            }
            let result = try await body(database)
            await cleanup()
            return result
        } catch {
            await cleanup()
            throw error
        }
    }
}
