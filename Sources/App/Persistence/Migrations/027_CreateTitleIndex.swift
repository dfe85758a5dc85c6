import FluentKit
import SQLKit

/// `title_index`: every film and show PopcornSwirl has received (year lists, lookups, searches,
/// imports, the bundled catalogue), one row per kind and id with its whole copy, so search and a
/// save by id answer without an upstream. `words` is the title folded in Swift (case, accents and
/// width dropped, punctuation made spaces), so both databases search the same text.
///
/// Two ways in, both cheap at 100,000 titles: `title_index_by_words` (kind, words) finds the exact
/// title and titles starting with the query; the full-text index finds titles with every word of
/// the query as a word prefix, the release year searchable beside the title's words ("dune 2021").
/// SQLite: a contentless FTS5 table (columns `words` — the title's words and year — and `kind`),
/// kept by triggers in the same transaction as each row. PostgreSQL: a GIN index on
/// `to_tsvector('simple', words || ' ' || year)`. Ranking every match (bm25, ts_rank) cost 25 ms a
/// query at 100,000 titles: the newest 200 matches are read instead (`TitleIndex`).
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
            try await sql.raw(#"CREATE INDEX title_index_by_words ON title_index (media_kind, words COLLATE "C")"#).run()
            try await sql.raw("CREATE INDEX title_index_words ON title_index USING GIN (\(unsafeRaw: Self.postgresText))").run()
            return
        }
        try await sql.raw("CREATE INDEX title_index_by_words ON title_index (media_kind, words)").run()
        try await sql.raw(
            "CREATE VIRTUAL TABLE title_index_words USING fts5(words, kind, content='', tokenize='unicode61 remove_diacritics 2', prefix='2 3')"
        ).run()
        try await sql.raw(
            "CREATE TRIGGER title_index_added AFTER INSERT ON title_index BEGIN "
                + "INSERT INTO title_index_words (rowid, words, kind) VALUES (NEW.seq, \(unsafeRaw: Self.sqliteText("NEW")), NEW.media_kind); END"
        ).run()
        try await sql.raw(
            "CREATE TRIGGER title_index_removed AFTER DELETE ON title_index BEGIN \(unsafeRaw: Self.sqliteDelete) END"
        ).run()
        try await sql.raw(
            "CREATE TRIGGER title_index_changed AFTER UPDATE OF words, year ON title_index BEGIN \(unsafeRaw: Self.sqliteDelete) "
                + "INSERT INTO title_index_words (rowid, words, kind) VALUES (NEW.seq, \(unsafeRaw: Self.sqliteText("NEW")), NEW.media_kind); END"
        ).run()
    }

    /// What the full-text index holds of a row: its words and its year.
    static let postgresText = "to_tsvector('simple', words || ' ' || coalesce(year::text, ''))"
    static func sqliteText(_ row: String) -> String { "\(row).words || ' ' || coalesce(\(row).year, '')" }
    /// A contentless FTS5 table forgets a row given exactly what it was given.
    static let sqliteDelete =
        "INSERT INTO title_index_words (title_index_words, rowid, words, kind) VALUES ('delete', OLD.seq, \(sqliteText("OLD")), OLD.media_kind);"

    func revert(on database: any Database) async throws {
        if let sql = database as? any SQLDatabase, sql.dialect.name != "postgresql" {
            try await sql.raw("DROP TABLE IF EXISTS title_index_words").run()
        }
        try await database.schema("title_index").delete()
    }
}
