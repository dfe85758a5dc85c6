import FluentKit
import SQLKit

extension AppDatabase {
    /// Applies pending migrations. On PostgreSQL under a session advisory lock held by one
    /// connection throughout: servers starting together on an empty database migrate one after
    /// another, and each after the first finds nothing left to do.
    /// - Parameter schema: PostgreSQL only: created first (under the same lock) when missing.
    public func migrate(creatingSchema schema: String? = nil) async throws {
        let migrations = Migrations()
        migrations.add(allMigrations)
        let migrator = Migrator(databases: databases, migrations: migrations, logger: logger, on: eventLoopGroup.any())
        guard isPostgres else {
            try await migrator.setupIfNeeded().get()
            try await migrator.prepareBatch().get()
            return
        }
        try await db.withConnection { connection in
            let sql = connection as! any SQLDatabase
            try await sql.raw("SELECT pg_advisory_lock(\(bind: Self.migrationLock))").run()
            do {
                if let schema { try await sql.raw("CREATE SCHEMA IF NOT EXISTS \(ident: schema)").run() }
                try await migrator.setupIfNeeded().get()
                try await migrator.prepareBatch().get()
            } catch {
                _ = try? await sql.raw("SELECT pg_advisory_unlock(\(bind: Self.migrationLock))").run()
                throw error
            }
            try await sql.raw("SELECT pg_advisory_unlock(\(bind: Self.migrationLock))").run()
        }
    }

    /// The advisory lock's key (any constant no other lock uses: "PopcornS" in ASCII).
    static let migrationLock: Int64 = 0x506F_7063_6F72_6E53

    /// Drops a test schema (PostgreSQL only).
    public func dropSchema(_ schema: String) async throws {
        guard isPostgres else { return }
        try await sql.raw("DROP SCHEMA IF EXISTS \(ident: schema) CASCADE").run()
    }
}
