import Foundation
import GRDB

/// The device's copy of the person's data, in SQLite through GRDB: what the seeds kept in Core
/// Data. Saved titles, the diary, custom lists, episodes, shows begun and season ratings come from
/// the server's change feed (``SyncEngine``); answers of read operations (Movies of a year, a
/// film, a search, a show and its episodes, Up Next, offers) are kept whole so a screen shows its
/// last answer offline; changes made here wait in the outbox until the server has them.
///
/// The schema grows by numbered migrations (`v1`, `v2`, …), applied when the store opens; a
/// migration that has run never changes.
public final class KitStore: Sendable {
    let writer: any DatabaseWriter

    /// The store in a file (the app's Application Support, the CLI's `~/.popcorn/store.sqlite`).
    public convenience init(path: String) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        try self.init(writer: DatabasePool(path: path, configuration: configuration))
    }

    /// A store in memory (tests, previews).
    public static func inMemory() throws -> KitStore {
        try KitStore(writer: DatabaseQueue())
    }

    init(writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
    }

    /// The migrations, in order. Append; never edit one that has shipped.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "title") { t in
                t.column("kind", .text).notNull()
                t.column("id", .integer).notNull()
                t.column("title", .text).notNull()
                t.column("genre", .text)
                t.column("year", .integer)
                t.column("posterURL", .text)
                t.column("favorite", .boolean).notNull()
                t.column("watched", .boolean).notNull()
                t.column("note", .text)
                t.column("rating", .integer)
                t.column("updatedAt", .datetime)
                t.primaryKey(["kind", "id"])
            }
            try db.create(table: "watch") { t in
                t.primaryKey("id", .text)
                t.column("kind", .text).notNull()
                t.column("titleId", .integer).notNull()
                t.column("title", .text).notNull()
                t.column("date", .text).notNull()
                t.column("rating", .integer)
                t.column("note", .text)
                t.column("rewatch", .boolean).notNull()
                t.column("episodeId", .integer)
                t.column("season", .integer)
                t.column("number", .integer)
                t.column("episodeName", .text)
            }
            try db.create(index: "watch_by_date", on: "watch", columns: ["date"])
            try db.create(table: "customList") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("description", .text)
                t.column("updatedAt", .datetime).notNull()
            }
            try db.create(table: "listItem") { t in
                t.column("listId", .text).notNull().references("customList", onDelete: .cascade)
                t.column("position", .integer).notNull()
                t.column("kind", .text).notNull()
                t.column("titleId", .integer).notNull()
                t.column("title", .text).notNull()
                t.column("year", .integer)
                t.column("note", .text)
                t.primaryKey(["listId", "kind", "titleId"])
            }
            try db.create(table: "episode") { t in
                t.primaryKey("id", .integer)
                t.column("showId", .integer).notNull().indexed()
                t.column("watchCount", .integer).notNull()
                t.column("rating", .integer)
            }
            try db.create(table: "show") { t in
                t.primaryKey("id", .integer)
                t.column("title", .text).notNull()
                t.column("posterURL", .text)
                t.column("stopped", .boolean).notNull()
                t.column("includeSpecials", .boolean).notNull()
                t.column("lastWatchedAt", .datetime)
            }
            try db.create(table: "seasonRating") { t in
                t.column("showId", .integer).notNull()
                t.column("season", .integer).notNull()
                t.column("rating", .integer).notNull()
                t.primaryKey(["showId", "season"])
            }
            // Read answers kept whole (JSON of the generated types), by what was asked.
            try db.create(table: "answer") { t in
                t.primaryKey("key", .text)
                t.column("json", .blob).notNull()
                t.column("fetchedAt", .datetime).notNull()
            }
            try db.create(table: "search") { t in
                t.primaryKey("query", .text)
                t.column("searchedAt", .datetime).notNull()
            }
            try db.create(table: "outbox") { t in
                t.autoIncrementedPrimaryKey("seq")
                t.column("key", .text).notNull().unique()
                t.column("change", .blob).notNull()
                t.column("madeAt", .datetime).notNull()
                t.column("state", .text).notNull()
                t.column("attempts", .integer).notNull()
                t.column("message", .text)
            }
            try db.create(table: "syncState") { t in
                t.primaryKey("name", .text)
                t.column("value", .text).notNull()
            }
        }
        return migrator
    }

    /// The migrations applied, in order (tests check a store opened again keeps its data).
    public func appliedMigrations() throws -> [String] {
        try writer.read { db in try Self.migrator.appliedIdentifiers(db).sorted() }
    }
}
