import FluentKit
import FluentPostgresDriver
import FluentSQLiteDriver
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import SQLKit
import Synchronization

/// The database the app runs on: SQLite (default, one file) or PostgreSQL, same models and migrations.
extension AppConfig.Storage {
    var isPostgres: Bool { if case .postgres = self { true } else { false } }
}

public final class AppDatabase: Sendable {
    let databases: Databases
    let logger: Logger
    let eventLoopGroup: any EventLoopGroup
    public let isPostgres: Bool
    /// `migrations`, and for tests any that come after them.
    let allMigrations: [any Migration]
    /// SQLite's writers, one at a time, committed in groups (see `write`) on SQLite's one writer
    /// connection (nil on PostgreSQL).
    private let groupCommit: GroupCommit?
    /// Write transactions waiting or running now (`db_write_transactions` in the metrics).
    let writesInFlight = Atomic<Int>(0)
    /// Writes the database failed (not refusals of the app's own), since the server started.
    let writeFailures = Atomic<Int>(0)
    /// Each connection's `application_name` on PostgreSQL: this process's connections in
    /// `pg_stat_activity` (the metrics' pool use), one name per server.
    static let applicationName = "popcornswirl-" + RequestTrace.newID().prefix(12)
    /// What this server tells the others sharing the database, and hears from them (`ChangeFeed`).
    let changes: ChangeFeed
    /// PostgreSQL: the connection settings for `ChangeListener`'s own connection.
    let listenConfiguration: PostgresConnection.Configuration?
    /// PostgreSQL: the schema the tables are in when not the default ("" then).
    let schema: String
    /// Connections a PostgreSQL pool opens at most per event loop.
    static let postgresConnectionsPerLoop = 4

    private init(
        databases: Databases, logger: Logger, eventLoopGroup: any EventLoopGroup, isPostgres: Bool, migrations: [any Migration],
        listenConfiguration: PostgresConnection.Configuration? = nil, schema: String? = nil, sqlitePath: String? = nil
    ) {
        self.schema = schema ?? ""
        self.listenConfiguration = listenConfiguration
        var send: (@Sendable (String) async throws -> Void)?
        if isPostgres {
            send = { line in
                let sql = databases.database(logger: logger, on: eventLoopGroup.any())! as! any SQLDatabase
                try await sql.raw("SELECT pg_notify(\(bind: ChangeFeed.channel), \(bind: line))").run()
            }
        }
        changes = ChangeFeed(send: send, logger: logger)
        self.databases = databases
        self.logger = logger
        self.eventLoopGroup = eventLoopGroup
        self.isPostgres = isPostgres
        allMigrations = migrations
        groupCommit = sqlitePath.map { GroupCommit(path: $0, logger: logger) }
    }

    /// A database handle on the event loops in turn. Not `any()`: from code running on an event
    /// loop (a task preferring one, a future's callback) `any()` is that loop, so reads started
    /// there at once would all wait for its one connection. Once `shutdown` has begun it throws
    /// `DatabaseShutDown` (a background task finishing late) where it used to stop the process.
    public var db: any Database {
        get throws {
            guard let db = databases.database(logger: logger, on: eventLoopGroup.next()) else { throw DatabaseShutDown() }
            return db
        }
    }

    var sql: any SQLDatabase {
        get throws { try db as! any SQLDatabase }
    }

    /// Every change goes through here: one transaction, committed or rolled back as a whole.
    /// On SQLite, one writer at a time: writers queue in this process (`GroupCommit`, first come first
    /// served; those waiting together share one transaction, each in a savepoint) and each
    /// transaction starts with `BEGIN IMMEDIATE`, so it holds the write lock from its first
    /// statement and a read is never upgraded into a write (which SQLite refuses with SQLITE_BUSY
    /// at once, whatever the busy timeout). Another process (a CLI command) waits on the
    /// busy timeout. On PostgreSQL it is an ordinary transaction; writes that read a row before
    /// they create it (a library entry) pass `serializedBy` (the profile, or the title within it), and take that key's
    /// transaction-scoped advisory lock first, so two of them for one key never both find nothing
    /// and both insert (every server shares the lock). A write inside a write joins it. Failures
    /// are logged with their cause before they are rethrown.
    func write<T: Sendable>(
        serializedBy key: String? = nil, _ body: @escaping @Sendable (any Database) async throws -> T
    ) async throws -> T {
        try await write(serializedByAll: key.map { [$0] } ?? [], body)
    }

    /// The same, serialized with every write of each of these keys (a visitor merged into an
    /// account): their locks are taken in one order, so two such writes never wait on each other.
    func write<T: Sendable>(
        serializedByAll keys: [String], _ body: @escaping @Sendable (any Database) async throws -> T
    ) async throws -> T {
        try await write(locks: keys.sorted().map { ($0, false) }, body)
    }

    /// A write of one item of a key's (a person's title): serialized with the item's writes and the
    /// key's own (`serializedBy: key`: a merge, an import, the diary), not with its other items'.
    /// On PostgreSQL the key's lock is taken shared, then the item's alone (a key's lock always
    /// first: no wait in a circle). One person's saves of 10 titles at once were one at a time on
    /// the person's lock: 527 a second on the three-server deployment (`scripts/bench --cluster`).
    func write<T: Sendable>(
        serializedBy item: String, within key: String, _ body: @escaping @Sendable (any Database) async throws -> T
    ) async throws -> T {
        try await write(locks: [(key, true), (key + "|" + item, false)], body)
    }

    /// `locks`: advisory locks in the order taken, each shared or alone (PostgreSQL only).
    private func write<T: Sendable>(
        locks: [(key: String, shared: Bool)], _ body: @escaping @Sendable (any Database) async throws -> T
    ) async throws -> T {
        if let current = WriteTransaction.current { return try await body(current) }
        writesInFlight.add(1, ordering: .relaxed)
        defer { writesInFlight.subtract(1, ordering: .relaxed) }
        do {
            if isPostgres {
                return try await db.transaction { db in
                    // Advisory locks are the whole database's: the schema keeps another schema's
                    // (another test's) keys apart.
                    for (key, shared) in locks {
                        let function = shared ? "pg_advisory_xact_lock_shared" : "pg_advisory_xact_lock"
                        try await (db as! any SQLDatabase).raw("SELECT \(unsafeRaw: function)(hashtext(\(bind: self.schema + "|" + key)))").run()
                    }
                    return try await WriteTransaction.$current.withValue(db) { try await body(db) }
                }
            }
            return try await groupCommit!.write(body)
        } catch {
            if !(error is any DomainFailure) {
                writeFailures.add(1, ordering: .relaxed)
                logger.error("database write failed: \(String(reflecting: error))")
            }
            throw error
        }
    }

    /// The same as `write`, for SQL statements.
    func writeSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await write { db in try await body(db as! any SQLDatabase) }
    }

    /// Opens the database and applies pending migrations.
    /// - Parameter schema: PostgreSQL only: create and use this schema (tests isolate themselves this way).
    public static func open(
        _ storage: AppConfig.Storage, schema: String? = nil, logger: Logger,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> AppDatabase {
        try await open(storage, schema: schema, logger: logger, eventLoopGroup: eventLoopGroup, extraMigrations: [])
    }

    /// `extraMigrations` run after the app's own: tests check that a migration appended later
    /// leaves the app working.
    static func open(
        _ storage: AppConfig.Storage, schema: String? = nil, logger: Logger,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, extraMigrations: [any Migration]
    ) async throws -> AppDatabase {
        let databases = Databases(threadPool: NIOThreadPool.singleton, on: eventLoopGroup)
        var listenConfiguration: PostgresConnection.Configuration?
        var sqlitePath: String?
        switch storage {
        case .sqlite(let path):
            databases.use(.sqlite(.init(storage: .file(path: path)), sqlLogLevel: .trace), as: .sqlite)
            sqlitePath = path
        case .postgres(let url):
            var configuration = try SQLPostgresConfiguration(url: url)
            if let schema { configuration.searchPath = [schema] }
            configuration.coreConfiguration.options.additionalStartupParameters.append(("application_name", applicationName))
            listenConfiguration = configuration.coreConfiguration
            // Four connections per event loop (8 on 2 cores): a write transaction holds one for several
            // round trips, and with one per loop a burst of clicks waited past the pool's timeout.
            databases.use(
                .postgres(configuration: configuration, maxConnectionsPerEventLoop: postgresConnectionsPerLoop, sqlLogLevel: .trace), as: .psql)
        }
        let database = AppDatabase(
            databases: databases, logger: logger, eventLoopGroup: eventLoopGroup, isPostgres: storage.isPostgres,
            migrations: migrations + extraMigrations, listenConfiguration: listenConfiguration, schema: schema, sqlitePath: sqlitePath
        )
        do {
            if case .sqlite = storage {
                try await database.applySQLitePragmas()
                database.groupCommit?.start()
            }
            try await database.migrate(creatingSchema: schema)
        } catch {
            await database.shutdown()
            throw error
        }
        return database
    }

    /// WAL for concurrent readers, FULL sync so a committed change survives power loss, and a 5 s
    /// busy timeout (which replaces SQLiteNIO's retry-forever busy handler). The pool keeps one
    /// long-lived connection per event loop, so each loop's connection is set up here (the writer
    /// connection sets its own: `GroupCommit`).
    private func applySQLitePragmas() async throws {
        let readers = eventLoopGroup.makeIterator().map { databases.database(.sqlite, logger: logger, on: $0)! }
        for database in readers {
            let sql = database as! any SQLDatabase
            try await sql.raw("PRAGMA journal_mode = WAL").run()
            try await sql.raw("PRAGMA synchronous = FULL").run()
            try await sql.raw("PRAGMA busy_timeout = 5000").run()
        }
    }

    public func shutdown() async {
        await databases.shutdownAsync()
        await groupCommit?.shutdown()
    }
}

/// The transaction a task is writing in, so a write called from inside another joins it.
enum WriteTransaction {
    @TaskLocal static var current: (any Database)?
}

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

extension AppDatabase {
    /// One round trip (`SELECT 1`): whether the database answers at all.
    func ping() async throws {
        try await sql.raw("SELECT 1").run()
    }

    /// A write that changes nothing a person sees: the `leases` row named `ready-probe|<server>`,
    /// inserted and deleted in one transaction (nothing is left behind). It fails when no write can
    /// succeed: a full disk, a read-only database file, a PostgreSQL standby.
    func probeWrite(server: String) async throws {
        try await writeSQL { sql in
            let name = "ready-probe|" + server
            try await sql.raw(
                "INSERT INTO leases (name, owner, held_until) VALUES (\(bind: name), \(bind: server), \(bind: Date())) ON CONFLICT (name) DO NOTHING"
            ).run()
            try await sql.raw("DELETE FROM leases WHERE name = \(bind: name)").run()
        }
    }

    /// What the metrics show of this server's connections: on PostgreSQL, how many it has open in
    /// each state (`pg_stat_activity` by `application_name`), and the most its pools open.
    func connectionStates() async throws -> [String: Int] {
        guard isPostgres else { return [:] }
        let rows = try await sql.raw(
            """
            SELECT COALESCE(state, 'unknown') AS state, COUNT(*) AS n FROM pg_stat_activity
            WHERE application_name = \(bind: Self.applicationName) GROUP BY 1
            """
        ).all()
        var states: [String: Int] = [:]
        for row in rows { states[try row.decode(column: "state", as: String.self)] = try row.decode(column: "n", as: Int.self) }
        return states
    }

    /// The most connections this server opens: PostgreSQL's pools, or SQLite's readers and its writer.
    var maxConnections: Int {
        let loops = eventLoopGroup.makeIterator().reduce(0) { count, _ in count + 1 }
        return isPostgres ? loops * Self.postgresConnectionsPerLoop : loops + 1
    }
}
