import FluentKit
import SQLKit

/// What changed in each person's data, for the devices keeping a copy (`GET /api/v1/changes`,
/// PopcornSwirlKit's sync): one row per thing a person has (a saved title, a diary watch, a
/// custom list, an episode's state, a show's progress, a season's rating), numbered by its last
/// change. A device asks for the rows past the number it last saw.
///
/// Triggers on those tables keep it, so every write that changes them (a page, the API, an
/// import, a media server's event, a visitor merged into an account) is numbered in the same
/// transaction, on any instance, with nothing for the code to remember. A thing changed again
/// takes a new number and gives up its old one, so the log holds one row per thing ever had: a
/// removed thing's row stays as its tombstone (a device that last synced a year ago still hears
/// of it). A person's rows go with the person.
///
/// Order: SQLite has one writer, so numbers are committed in the order they are taken. On
/// PostgreSQL two transactions can take numbers and commit in the other order; a reader between
/// the two commits would pass the first number unseen. Each numbering therefore holds the
/// person's sync lock shared until its transaction ends, and the reader takes it alone before it
/// reads (`SyncFeed`): every number taken before the read is then committed, and every later one
/// is larger.
struct CreateSyncLog: AsyncMigration {
    var name: String { "App.CreateSyncLog" }

    /// The first half of the two-key advisory lock (`pg_advisory_xact_lock(int, int)`); the second
    /// is the person's id hashed. Two-key locks never meet `AppDatabase.write`'s one-key locks.
    static let lockClass = 7201

    func prepare(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        let postgres = sql.dialect.name == "postgresql"
        let create: @Sendable (any Database) async throws -> Void = { transaction in
            let sql = transaction as! any SQLDatabase
            if postgres {
                try await sql.raw("CREATE SEQUENCE sync_log_seq").run()
                try await sql.raw(
                    """
                    CREATE TABLE sync_log (seq BIGINT PRIMARY KEY DEFAULT nextval('sync_log_seq'), \
                    profile_id UUID NOT NULL REFERENCES profiles (id) ON DELETE CASCADE, \
                    entity TEXT NOT NULL, entity_key TEXT NOT NULL, UNIQUE (profile_id, entity, entity_key))
                    """
                ).run()
            } else {
                try await sql.raw(
                    """
                    CREATE TABLE sync_log (seq INTEGER PRIMARY KEY AUTOINCREMENT, \
                    profile_id UUID NOT NULL REFERENCES profiles (id) ON DELETE CASCADE, \
                    entity TEXT NOT NULL, entity_key TEXT NOT NULL, UNIQUE (profile_id, entity, entity_key))
                    """
                ).run()
            }
            try await sql.raw("CREATE INDEX sync_log_profile ON sync_log (profile_id, seq)").run()
            let dialect = Dialect(postgres: postgres)
            for table in Self.tables {
                if postgres {
                    try await sql.raw(SQLQueryString(dialect.function(table))).run()
                    try await sql.raw(
                        "CREATE TRIGGER \(unsafeRaw: table.name)_sync AFTER INSERT OR DELETE OR UPDATE ON \(unsafeRaw: table.name) "
                            + "FOR EACH ROW EXECUTE FUNCTION \(unsafeRaw: table.name)_sync()"
                    ).run()
                } else {
                    let name = table.name
                    try await sql.raw(
                        "CREATE TRIGGER \(unsafeRaw: name)_sync_insert AFTER INSERT ON \(unsafeRaw: name) BEGIN \(unsafeRaw: dialect.log(table, "NEW")) END"
                    ).run()
                    try await sql.raw(
                        """
                        CREATE TRIGGER \(unsafeRaw: name)_sync_update AFTER UPDATE ON \(unsafeRaw: name) \
                        BEGIN \(unsafeRaw: dialect.log(table, "OLD")) \(unsafeRaw: dialect.log(table, "NEW")) END
                        """
                    ).run()
                    try await sql.raw(
                        "CREATE TRIGGER \(unsafeRaw: name)_sync_delete AFTER DELETE ON \(unsafeRaw: name) BEGIN \(unsafeRaw: dialect.log(table, "OLD")) END"
                    ).run()
                }
            }
            // What people have already, numbered once, in the same transaction as the triggers.
            for table in Self.tables {
                for entry in table.entries {
                    try await sql.raw(
                        """
                        INSERT \(unsafeRaw: postgres ? "" : "OR IGNORE ")INTO sync_log (profile_id, entity, entity_key) \
                        SELECT DISTINCT \(unsafeRaw: entry.profile("t")), '\(unsafeRaw: entry.entity)', \(unsafeRaw: entry.key(dialect, "t")) \
                        FROM \(unsafeRaw: table.name) t \(unsafeRaw: entry.source("t")) \
                        WHERE \(unsafeRaw: entry.condition("t")) \(unsafeRaw: postgres ? "ON CONFLICT DO NOTHING" : "")
                        """
                    ).run()
                }
            }
        }
        if database.inTransaction || WriteTransaction.current != nil {
            try await create(database)
        } else {
            try await database.transaction(create)
        }
    }

    func revert(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        let postgres = sql.dialect.name == "postgresql"
        for table in Self.tables {
            if postgres {
                try await sql.raw("DROP FUNCTION IF EXISTS \(unsafeRaw: table.name)_sync() CASCADE").run()
            } else {
                for operation in ["insert", "update", "delete"] {
                    try await sql.raw("DROP TRIGGER IF EXISTS \(unsafeRaw: table.name)_sync_\(unsafeRaw: operation)").run()
                }
            }
        }
        try await sql.raw("DROP TABLE IF EXISTS sync_log").run()
        if postgres { try await sql.raw("DROP SEQUENCE IF EXISTS sync_log_seq").run() }
    }

    /// A table whose rows are things a device keeps, and which things a row's change touches.
    struct Table: Sendable {
        var name: String
        var entries: [Entry]
    }

    /// One thing a row stands for: its kind (`entity`) and key, from the row (`NEW`, `OLD` or an
    /// alias). A custom list's item is its list's, found through the list.
    struct Entry: Sendable {
        var entity: String
        var key: @Sendable (Dialect, String) -> String
        /// The person, from the row or what `source` joins.
        var profile: @Sendable (String) -> String = { "\($0).profile_id" }
        /// A join giving the person (`FROM table row` + this), "" for none.
        var source: @Sendable (String) -> String = { _ in "" }
        var condition: @Sendable (String) -> String = { _ in "TRUE" }
    }

    struct Dialect: Sendable {
        var postgres: Bool

        /// A UUID column as its lowercase text with dashes (SQLite keeps it as uppercase text).
        func uuid(_ column: String) -> String { postgres ? "CAST(\(column) AS TEXT)" : "LOWER(\(column))" }

        func text(_ column: String) -> String { "CAST(\(column) AS TEXT)" }

        /// The statements numbering the things `row` stands for; each ends with `;`. A row of a
        /// person being deleted numbers nothing (the person's rows go with them).
        func log(_ table: Table, _ row: String) -> String {
            table.entries.map { entry in
                let owner = entry.profile(row)
                let key = entry.key(self, row)
                let from = """
                    FROM (SELECT 1) AS one \(entry.source(row)) \
                    WHERE \(entry.condition(row)) AND EXISTS (SELECT 1 FROM profiles p WHERE p.id = \(owner))
                    """
                let select = "SELECT \(owner), '\(entry.entity)', \(key) \(from)"
                if postgres {
                    // The lock first (`CreateSyncLog`'s note on order), then the number.
                    return """
                        PERFORM pg_advisory_xact_lock_shared(\(CreateSyncLog.lockClass), hashtext(CAST(\(owner) AS TEXT))) \(from);
                        INSERT INTO sync_log (profile_id, entity, entity_key) \(select) \
                        ON CONFLICT (profile_id, entity, entity_key) DO UPDATE SET seq = nextval('sync_log_seq');
                        """
                }
                return """
                    DELETE FROM sync_log WHERE entity = '\(entry.entity)' AND entity_key = \(key) \
                    AND profile_id IN (SELECT \(owner) \(from));
                    INSERT INTO sync_log (profile_id, entity, entity_key) \(select);
                    """
            }.joined(separator: " ")
        }

        /// PostgreSQL's trigger function for a table: the same statements, chosen by the operation.
        func function(_ table: Table) -> String {
            """
            CREATE FUNCTION \(table.name)_sync() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
            BEGIN
              IF TG_OP <> 'INSERT' THEN
                \(log(table, "OLD"))
              END IF;
              IF TG_OP <> 'DELETE' THEN
                \(log(table, "NEW"))
              END IF;
              RETURN NULL;
            END
            $$
            """
        }
    }

    static let tables: [Table] = [
        Table(name: "library_entries", entries: [Entry(entity: "title", key: { d, r in "\(r).media_kind || ':' || \(r).item_id" })]),
        Table(
            name: "watches",
            entries: [
                Entry(entity: "watch", key: { d, r in d.uuid("\(r).id") }),
                // An episode's watch count includes its dated watches.
                Entry(
                    entity: "episode", key: { d, r in "\(r).item_id || ':' || \(d.text("\(r).episode_id"))" },
                    condition: { r in "\(r).episode_id IS NOT NULL" }),
            ]),
        Table(name: "custom_lists", entries: [Entry(entity: "list", key: { d, r in d.uuid("\(r).id") })]),
        Table(
            name: "custom_list_items",
            entries: [
                Entry(
                    entity: "list", key: { d, r in d.uuid("\(r).list_id") }, profile: { _ in "l.profile_id" },
                    source: { r in "JOIN custom_lists l ON l.id = \(r).list_id" })
            ]),
        Table(
            name: "episode_states",
            entries: [Entry(entity: "episode", key: { d, r in "\(d.text("\(r).show_id")) || ':' || \(d.text("\(r).episode_id"))" })]),
        Table(name: "show_progress", entries: [Entry(entity: "show", key: { d, r in d.text("\(r).show_id") })]),
        Table(
            name: "season_ratings",
            entries: [Entry(entity: "seasonRating", key: { d, r in "\(d.text("\(r).show_id")) || ':' || \(d.text("\(r).season"))" })]),
    ]
}
