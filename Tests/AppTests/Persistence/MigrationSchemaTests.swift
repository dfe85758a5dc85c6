import FluentKit
import Foundation
import Testing

@testable import App

/// Migrations never change once landed: the schema they build, the names Fluent records them
/// under and the demo rows they seed are compared with checked-in descriptions
/// (`RECORD_SNAPSHOTS=1` re-records them; a change to them is a change to landed migrations).
@Suite("Migrations")
struct MigrationSchemaTests {
    static let postgresURL = ProcessInfo.processInfo.environment["POPCORN_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    static let directory = SnapshotFile.directory(of: #filePath)

    @Test("the migrations keep the names existing databases recorded them under, in order")
    func names() {
        let expected = [
            "App.CreateProfiles", "App.CreateLibraryEntries", "App.CreateCatalogCache", "App.CreateSearchTables", "App.CreateOffers",
            "App.SeedDemoOffers", "App.AddAccounts", "App.CreateLoginFailures", "App.CreateAPITokens", "App.AddSessionDetails",
            "App.CountClicksOnce", "App.CreateClientLimits", "App.CreateSearchHistory", "App.CreateShopSigning", "App.AddRatings",
            "App.CreateWatches", "App.IndexListFilters", "App.CreateCustomLists", "App.AddWatchDetails", "App.IndexStatistics",
            "App.IndexListSorts", "App.CreateImports", "App.CreateIdempotencyKeys", "App.CreateLeases", "App.IndexFavoritesByKind",
            "App.CreateWatchTallies", "App.CreateTitleIndex", "App.CreateCatalogRequests", "App.AddTitleState",
            "App.HardenCountsAndImports", "App.CreateEpisodes", "App.AddShowStatus", "App.CreateCalendar", "App.CreateNotifications",
            "App.CreateIntegrations",
            "App.CreateSeasonRatings",
            "App.CreateSyncLog",
        ]
        #expect(AppDatabase.migrations.map(\.name) == expected)
        // Fluent's default name, which older versions of these migrations were recorded under.
        #expect(AppDatabase.migrations.map { String(reflecting: type(of: $0)) } == expected)
    }

    @Test("an empty SQLite database migrates to the recorded schema")
    func sqliteSchema() async throws {
        try await TestDatabase.sqlite { database in
            SnapshotFile.assertMatches(try await SchemaDescription.of(database), file: Self.directory.appendingPathComponent("schema-sqlite.txt"))
        }
    }

    @Test("an empty PostgreSQL schema migrates to the recorded schema", .enabled(if: postgresURL != nil, "POPCORN_TEST_DATABASE_URL is not set"))
    func postgresSchema() async throws {
        try await TestDatabase.postgres(url: try #require(Self.postgresURL)) { database in
            SnapshotFile.assertMatches(try await SchemaDescription.of(database), file: Self.directory.appendingPathComponent("schema-postgres.txt"))
        }
    }

    @Test("the demo seed writes the recorded shops, logos and offers, all stamped with one time")
    func demoSeed() async throws {
        try await TestDatabase.with { database in
            let seed = try await SeedDescription.of(database)
            SnapshotFile.assertMatches(seed.text, file: Self.directory.appendingPathComponent("seed-demo-offers.txt"))
            #expect(seed.times.count == 1, "created_at and updated_at of every seeded row are the migration's one `now`")
            let time = try #require(seed.times.first)
            #expect(abs(time.timeIntervalSinceNow) < 600, "seeded at migration time: \(time)")
        }
    }

    @Test("reverting the demo seed removes the demo shops and offers and keeps a shop of the owner's")
    func demoSeedRevert() async throws {
        try await TestDatabase.with { database in
            let sql = try database.sql
            try await sql.raw(
                """
                INSERT INTO advertisers (name, description, website, domains, demo, created_at, updated_at)
                VALUES ('Own Shop', '', 'https://own.example', 'own.example', \(bind: false), \(bind: Date()), \(bind: Date()))
                """
            ).run()
            try await SeedDemoOffers().revert(on: database.db)
            let offers = try await sql.raw("SELECT COUNT(*) AS n FROM offers").first()?.decode(column: "n", as: Int.self)
            let shops = try await sql.raw("SELECT name FROM advertisers").all().map { try $0.decode(column: "name", as: String.self) }
            #expect(offers == 0)
            #expect(shops == ["Own Shop"])
        }
    }
}
