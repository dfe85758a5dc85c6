import FluentKit
import SQLKit

/// `title_index`: every film and show PopcornSwirl has received (year lists, lookups, searches,
/// imports, the bundled catalogue), one row per kind and id with its whole copy, so search and a
/// save by id answer without an upstream. `words` is the title folded in Swift (case, accents and
/// width dropped, punctuation made spaces), so both databases search the same text.
///
/// SQLite searches it through an FTS5 table over `words` (external content: the words are stored
/// once, in `title_index`), kept by triggers in the same transaction as each row; PostgreSQL through
/// a GIN index on `to_tsvector('simple', words)`.
struct CreateTitleIndex: AsyncMigration {
    var name: String { "App.CreateTitleIndex" }

    func prepare(on database: any Database) async throws {
        try await database.schema("title_index")
            .field("seq", .int64, .identifier(auto: true))
            .field("media_kind", .string, .required)
            .field("item_id", .int64, .required)
            .field("title", .string, .required)
            .field("year", .int32)
            .field("words", .string, .required)
            .field("snapshot", .data, .required)
            .field("indexed_at", .datetime, .required)
            .unique(on: "media_kind", "item_id")
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        if sql.dialect.name == "postgresql" {
            try await sql.raw("CREATE INDEX title_index_words ON title_index USING GIN (to_tsvector('simple', words))").run()
            return
        }
        try await sql.raw(
            """
            CREATE VIRTUAL TABLE title_index_words USING fts5(words, content='title_index', content_rowid='seq', \
            tokenize='unicode61 remove_diacritics 2', prefix='2 3')
            """
        ).run()
        try await sql.raw(
            "CREATE TRIGGER title_index_added AFTER INSERT ON title_index BEGIN "
                + "INSERT INTO title_index_words (rowid, words) VALUES (NEW.seq, NEW.words); END"
        ).run()
        try await sql.raw(
            "CREATE TRIGGER title_index_removed AFTER DELETE ON title_index BEGIN "
                + "INSERT INTO title_index_words (title_index_words, rowid, words) VALUES ('delete', OLD.seq, OLD.words); END"
        ).run()
        try await sql.raw(
            "CREATE TRIGGER title_index_changed AFTER UPDATE OF words ON title_index BEGIN "
                + "INSERT INTO title_index_words (title_index_words, rowid, words) VALUES ('delete', OLD.seq, OLD.words); "
                + "INSERT INTO title_index_words (rowid, words) VALUES (NEW.seq, NEW.words); END"
        ).run()
    }

    func revert(on database: any Database) async throws {
        if let sql = database as? any SQLDatabase, sql.dialect.name != "postgresql" {
            try await sql.raw("DROP TABLE IF EXISTS title_index_words").run()
        }
        try await database.schema("title_index").delete()
    }
}
