import Foundation
import SQLKit
import Testing

@testable import App

@Suite("Migrations: servers started together on an empty PostgreSQL database")
struct MigrationLockTests {
    @Test(
        "three servers opening one empty database at once all start, and every migration is applied once",
        .enabled(if: ProcessInfo.processInfo.environment["POPCORN_TEST_DATABASE_URL"].map { !$0.isEmpty } ?? false))
    func threeAtOnce() async throws {
        let url = ProcessInfo.processInfo.environment["POPCORN_TEST_DATABASE_URL"]!
        let schema = "t_lock_\(UUID().uuidString.prefix(8).lowercased())"
        let servers = try await withThrowingTaskGroup(of: AppDatabase.self) { group in
            for _ in 0..<3 {
                group.addTask { try await AppDatabase.open(.postgres(url: url), schema: schema, logger: TestDatabase.logger) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(servers.count == 3)
        let applied = try await servers[0].sql.raw("SELECT name, COUNT(*) AS n FROM _fluent_migrations GROUP BY name").all()
        #expect(applied.count == AppDatabase.migrations.count)
        #expect(try applied.allSatisfy { try $0.decode(column: "n", as: Int.self) == 1 })
        try? await servers[0].dropSchema(schema)
        for server in servers { await server.shutdown() }
    }
}
