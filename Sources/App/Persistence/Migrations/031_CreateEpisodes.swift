import FluentKit
import SQLKit

/// TV episodes (issue 44):
/// - `tv_episodes`, `tv_seasons`: every show's episodes and seasons as TVMaze (or the bundled
///   catalogue) last answered them, shared by everyone; `tv_episode_lists` says which answer they
///   are (its time, so a newer one replaces them) and when TVMaze last said the show changed.
/// - `episode_states`: a person's episode: the watches with no day, their rating. The dated
///   watches are rows of `watches` (the diary), which now say which episode they were; an episode
///   is watched when it has a watch of either kind.
/// - `show_progress`: a person's show they have begun: when they last watched an episode (Up
///   Next's order), Stopped, and whether its specials count; its name and poster for Up Next.
/// - The diary's tallies (migration 026's triggers, replaced here): an episode's watch counts in
///   `watch_months` under the kind `episode` (episodes and their minutes per month), not in
///   `watch_titles` (an episode watched is no rewatch of its show). No episode was watched before.
/// One column per statement: SQLite adds one at a time.
struct CreateEpisodes: AsyncMigration {
    var name: String { "App.CreateEpisodes" }

    func prepare(on database: any Database) async throws {
        try await database.schema("tv_episodes")
            .field("id", .int64, .identifier(auto: false))
            .field("show_id", .int64, .required)
            .field("position", .int32, .required)
            .field("season", .int32, .required)
            .field("number", .int32)
            .field("kind", .string, .required)
            .field("name", .string, .required)
            .field("airdate", .string)
            .field("airtime", .string)
            .field("airstamp", .datetime)
            .field("airs_at", .datetime)
            .field("runtime_minutes", .int32)
            .field("summary", .string)
            .field("image_url", .string)
            .create()
        try await database.schema("tv_seasons")
            .field("show_id", .int64, .required)
            .field("number", .int32, .required)
            .field("name", .string)
            .field("episode_order", .int32)
            .field("premiere_date", .string)
            .field("end_date", .string)
            .compositeIdentifier(over: "show_id", "number")
            .create()
        try await database.schema("tv_episode_lists")
            .field("show_id", .int64, .identifier(auto: false))
            .field("fetched_at", .datetime, .required)
            .field("source", .string, .required)
            .field("synced_at", .datetime, .required)
            .field("changed_at", .int64)
            .create()
        try await database.schema("episode_states")
            .field("profile_id", .uuid, .required, .references("profiles", "id", onDelete: .cascade))
            .field("episode_id", .int64, .required)
            .field("show_id", .int64, .required)
            .field("undated_watches", .int32, .required, .sql(.default(0)))
            .field("rating", .int16)
            .field("updated_at", .datetime, .required)
            .compositeIdentifier(over: "profile_id", "episode_id")
            .create()
        try await database.schema("show_progress")
            .field("profile_id", .uuid, .required, .references("profiles", "id", onDelete: .cascade))
            .field("show_id", .int64, .required)
            .field("title", .string, .required)
            .field("artwork_url", .string)
            .field("stopped", .bool, .required, .sql(.default(false)))
            .field("include_specials", .bool, .required, .sql(.default(false)))
            .field("last_watched_at", .datetime)
            .field("updated_at", .datetime, .required)
            .compositeIdentifier(over: "profile_id", "show_id")
            .create()
        try await database.schema("watches").field("episode_id", .int64).update()
        try await database.schema("watches").field("season", .int32).update()
        try await database.schema("watches").field("episode_number", .int32).update()
        try await database.schema("watches").field("episode_name", .string).update()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "tv_episodes_show").on("tv_episodes").column("show_id").column("position").run()
        try await sql.create(index: "episode_states_show").on("episode_states").column("profile_id").column("show_id").run()
        try await sql.create(index: "show_progress_recent").on("show_progress").column("profile_id").column("last_watched_at").run()
        try await sql.create(index: "watches_episode").on("watches").column("profile_id").column("episode_id").run()
        if sql.dialect.name == "postgresql" {
            try await sql.raw(SQLQueryString(Self.postgresFunction)).run()
        } else {
            for trigger in ["watches_tally_insert", "watches_tally_delete", "watches_tally_update"] {
                try await sql.raw("DROP TRIGGER \(ident: trigger)").run()
            }
            try await sql.raw("CREATE TRIGGER watches_tally_insert AFTER INSERT ON watches BEGIN \(unsafeRaw: Self.add("NEW")) END").run()
            try await sql.raw("CREATE TRIGGER watches_tally_delete AFTER DELETE ON watches BEGIN \(unsafeRaw: Self.remove("OLD")) END").run()
            try await sql.raw(
                """
                CREATE TRIGGER watches_tally_update AFTER UPDATE OF \(unsafeRaw: Self.tallied) ON watches
                BEGIN \(unsafeRaw: Self.remove("OLD")) \(unsafeRaw: Self.add("NEW")) END
                """
            ).run()
        }
    }

    /// Migration 026's columns (the trigger on PostgreSQL keeps its own list).
    static let tallied = "profile_id, media_kind, item_id, watched_on, genre, runtime_minutes"

    /// The kind a watch is tallied under in `watch_months`.
    static func monthKind(_ row: String) -> String { "CASE WHEN \(row).episode_id IS NULL THEN \(row).media_kind ELSE 'episode' END" }

    /// Counts one watch (`NEW`) in, as migration 026 did, with episodes apart.
    static func add(_ row: String) -> String {
        """
        INSERT INTO watch_months (profile_id, month, media_kind, watch_count, minutes)
        VALUES (\(row).profile_id, SUBSTR(\(row).watched_on, 1, 7), \(monthKind(row)), 1, COALESCE(\(row).runtime_minutes, 0))
        ON CONFLICT (profile_id, month, media_kind)
        DO UPDATE SET watch_count = watch_months.watch_count + 1, minutes = watch_months.minutes + excluded.minutes;
        INSERT INTO watch_titles (profile_id, media_kind, item_id, watch_count)
        SELECT \(row).profile_id, \(row).media_kind, \(row).item_id, 1 WHERE \(row).episode_id IS NULL
        ON CONFLICT (profile_id, media_kind, item_id) DO UPDATE SET watch_count = watch_titles.watch_count + 1;
        INSERT INTO watch_genres (profile_id, year, genre, watch_count)
        SELECT \(row).profile_id, SUBSTR(\(row).watched_on, 1, 4), \(row).genre, 1 WHERE \(row).genre IS NOT NULL
        ON CONFLICT (profile_id, year, genre) DO UPDATE SET watch_count = watch_genres.watch_count + 1;
        """
    }

    /// Counts one watch (`OLD`) out, as migration 026 did, with episodes apart.
    static func remove(_ row: String) -> String {
        let month = "profile_id = \(row).profile_id AND month = SUBSTR(\(row).watched_on, 1, 7) AND media_kind = \(monthKind(row))"
        let title = "profile_id = \(row).profile_id AND media_kind = \(row).media_kind AND item_id = \(row).item_id AND \(row).episode_id IS NULL"
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

    static var postgresFunction: String {
        """
        CREATE OR REPLACE FUNCTION watch_tallies() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
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

    func revert(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.drop(index: "watches_episode").run()
        for column in ["episode_name", "episode_number", "season", "episode_id"] {
            try await sql.raw("ALTER TABLE watches DROP COLUMN \(unsafeRaw: column)").run()
        }
        for table in ["show_progress", "episode_states", "tv_episode_lists", "tv_seasons", "tv_episodes"] {
            try await sql.drop(table: table).run()
        }
    }
}
