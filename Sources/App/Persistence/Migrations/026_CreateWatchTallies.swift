import FluentKit
import SQLKit

/// Running tallies of each person's watches, kept by the database itself: per month and kind
/// (watches and minutes), per title, per year and genre. The
/// statistics read these few rows instead of every watch: all time, 12,000 watches took two
/// passes of 4–5 ms each, read again after every watch logged (scripts/bench, the cold rows).
///
/// Triggers on `watches` keep them, so every write that changes the diary (a watch logged,
/// edited or deleted, an import, a visitor's library merged into an account, an account deleted)
/// keeps them in the same transaction, on any instance, with nothing for the code to remember.
/// Existing watches are tallied once, after the triggers exist, in one transaction.
struct CreateWatchTallies: AsyncMigration {
    var name: String { "App.CreateWatchTallies" }

    func prepare(on database: any Database) async throws {
        try await database.schema("watch_months")
            .field("profile_id", .uuid, .required, .references("profiles", "id", onDelete: .cascade))
            .field("month", .string, .required)
            .field("media_kind", .string, .required)
            .field("watch_count", .int64, .required)
            .field("minutes", .int64, .required)
            .unique(on: "profile_id", "month", "media_kind")
            .create()
        try await database.schema("watch_titles")
            .field("profile_id", .uuid, .required, .references("profiles", "id", onDelete: .cascade))
            .field("media_kind", .string, .required)
            .field("item_id", .string, .required)
            .field("watch_count", .int64, .required)
            .unique(on: "profile_id", "media_kind", "item_id")
            .create()
        try await database.schema("watch_genres")
            .field("profile_id", .uuid, .required, .references("profiles", "id", onDelete: .cascade))
            .field("year", .string, .required)
            .field("genre", .string, .required)
            .field("watch_count", .int64, .required)
            .unique(on: "profile_id", "year", "genre")
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        let postgres = sql.dialect.name == "postgresql"
        // The most rewatched: a person's titles by count, most first, read from the top.
        try await sql.raw("CREATE INDEX watch_titles_by_count ON watch_titles (profile_id, watch_count DESC, media_kind, item_id)").run()
        // Migration 020's indexes by day and by genre served only the reads the tallies replace.
        for index in ["watches_by_day", "watches_by_genre"] { try await sql.drop(index: index).run() }
        // One transaction (the caller's, when a test runs this inside a write), so no watch is
        // tallied twice or missed.
        let tally: @Sendable (any Database) async throws -> Void = { transaction in
            let sql = transaction as! any SQLDatabase
            if postgres {
                try await sql.raw(SQLQueryString(Self.postgresFunction)).run()
                try await sql.raw(
                    "CREATE TRIGGER watches_tallies AFTER INSERT OR DELETE OR UPDATE OF \(unsafeRaw: Self.tallied) ON watches "
                        + "FOR EACH ROW EXECUTE FUNCTION watch_tallies()"
                ).run()
            } else {
                try await sql.raw(
                    "CREATE TRIGGER watches_tally_insert AFTER INSERT ON watches BEGIN \(unsafeRaw: Self.add("NEW")) END"
                ).run()
                try await sql.raw("CREATE TRIGGER watches_tally_delete AFTER DELETE ON watches BEGIN \(unsafeRaw: Self.remove("OLD")) END").run()
                try await sql.raw(
                    """
                    CREATE TRIGGER watches_tally_update AFTER UPDATE OF \(unsafeRaw: Self.tallied) ON watches
                    BEGIN \(unsafeRaw: Self.remove("OLD")) \(unsafeRaw: Self.add("NEW")) END
                    """
                ).run()
            }
            try await Self.tallyExisting(sql)
        }
        if database.inTransaction || WriteTransaction.current != nil {
            try await tally(database)
        } else {
            try await database.transaction(tally)
        }
    }

    /// The columns a tally depends on: a change to a watch's rating or note leaves them alone.
    static let tallied = "profile_id, media_kind, item_id, watched_on, genre, runtime_minutes"

    /// Counts one watch (`NEW`) in. Statements end with `;`, as a trigger's body wants them.
    static func add(_ row: String) -> String {
        """
        INSERT INTO watch_months (profile_id, month, media_kind, watch_count, minutes)
        VALUES (\(row).profile_id, SUBSTR(\(row).watched_on, 1, 7), \(row).media_kind, 1, COALESCE(\(row).runtime_minutes, 0))
        ON CONFLICT (profile_id, month, media_kind)
        DO UPDATE SET watch_count = watch_months.watch_count + 1, minutes = watch_months.minutes + excluded.minutes;
        INSERT INTO watch_titles (profile_id, media_kind, item_id, watch_count) VALUES (\(row).profile_id, \(row).media_kind, \(row).item_id, 1)
        ON CONFLICT (profile_id, media_kind, item_id) DO UPDATE SET watch_count = watch_titles.watch_count + 1;
        INSERT INTO watch_genres (profile_id, year, genre, watch_count)
        SELECT \(row).profile_id, SUBSTR(\(row).watched_on, 1, 4), \(row).genre, 1 WHERE \(row).genre IS NOT NULL
        ON CONFLICT (profile_id, year, genre) DO UPDATE SET watch_count = watch_genres.watch_count + 1;
        """
    }

    /// Counts one watch (`OLD`) out; a tally that reaches nothing goes. Only counts are kept, so
    /// no tally is read again from the watches (which a concurrent change could make stale).
    static func remove(_ row: String) -> String {
        let month = "profile_id = \(row).profile_id AND month = SUBSTR(\(row).watched_on, 1, 7) AND media_kind = \(row).media_kind"
        let title = "profile_id = \(row).profile_id AND media_kind = \(row).media_kind AND item_id = \(row).item_id"
        let genre = "profile_id = \(row).profile_id AND year = SUBSTR(\(row).watched_on, 1, 4) AND genre = \(row).genre"
        return """
            UPDATE watch_months SET watch_count = watch_count - 1, minutes = minutes - COALESCE(\(row).runtime_minutes, 0) WHERE \(month);
            DELETE FROM watch_months WHERE \(month) AND watch_count <= 0;
            UPDATE watch_titles SET watch_count = watch_count - 1 WHERE \(title);
            DELETE FROM watch_titles WHERE \(title) AND watch_count <= 0;
            UPDATE watch_genres SET watch_count = watch_count - 1 WHERE \(genre);
            DELETE FROM watch_genres WHERE \(genre) AND watch_count <= 0;
            """
    }

    /// PostgreSQL's trigger function: the same statements, chosen by the operation. It keeps the
    /// schema it was made in, so it finds the tallies whatever the caller's search path.
    static var postgresFunction: String {
        """
        CREATE FUNCTION watch_tallies() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
        BEGIN
          IF TG_OP <> 'INSERT' THEN
            \(remove("OLD"))
          END IF;
          IF TG_OP <> 'DELETE' THEN
            \(add("NEW"))
          END IF;
          RETURN NULL;
        END
        $$
        """
    }

    private static func tallyExisting(_ sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            INSERT INTO watch_months (profile_id, month, media_kind, watch_count, minutes)
            SELECT profile_id, SUBSTR(watched_on, 1, 7), media_kind, COUNT(*), COALESCE(SUM(runtime_minutes), 0) FROM watches
            GROUP BY profile_id, SUBSTR(watched_on, 1, 7), media_kind
            """
        ).run()
        try await sql.raw(
            """
            INSERT INTO watch_titles (profile_id, media_kind, item_id, watch_count)
            SELECT profile_id, media_kind, item_id, COUNT(*) FROM watches GROUP BY profile_id, media_kind, item_id
            """
        ).run()
        try await sql.raw(
            """
            INSERT INTO watch_genres (profile_id, year, genre, watch_count)
            SELECT profile_id, SUBSTR(watched_on, 1, 4), genre, COUNT(*) FROM watches WHERE genre IS NOT NULL
            GROUP BY profile_id, SUBSTR(watched_on, 1, 4), genre
            """
        ).run()
    }

    func revert(on database: any Database) async throws {
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "watches_by_day").on("watches")
                .column("profile_id").column("watched_on").column("media_kind").column("runtime_minutes").run()
            try await sql.create(index: "watches_by_genre").on("watches").column("profile_id").column("genre").column("watched_on").run()
            if sql.dialect.name == "postgresql" {
                try await sql.raw("DROP TRIGGER watches_tallies ON watches").run()
                try await sql.raw("DROP FUNCTION watch_tallies()").run()
            } else {
                for trigger in ["watches_tally_insert", "watches_tally_delete", "watches_tally_update"] {
                    try await sql.raw("DROP TRIGGER \(ident: trigger)").run()
                }
            }
        }
        for table in ["watch_months", "watch_titles", "watch_genres"] { try await database.schema(table).delete() }
    }
}
