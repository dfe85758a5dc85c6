import Foundation
import SQLKit

/// Reading the title index: a query's films and shows, best first, and one title's copy by id.
extension TitleIndex {
    /// Films matching the query, best first: the title exactly, then titles starting with the
    /// query, then the newest full-text matches; at most `limit`.
    func movies(matching text: String, limit: Int = SearchService.resultLimit) async throws -> [Movie] {
        try await matching(text, kind: .movie, limit: limit).compactMap { try? JSONDecoder().decode(Movie.self, from: $0.snapshot) }
    }

    func shows(matching text: String, limit: Int = 10) async throws -> [Show] {
        try await matching(text, kind: .show, limit: limit).compactMap { try? JSONDecoder().decode(Show.self, from: $0.snapshot) }
    }

    /// The exact title and titles starting with the query (the B-tree on kind and words), then
    /// titles with every word of the query as a word prefix (the full-text index; the newest 200:
    /// ranking every match cost 25 ms a query at 100,000 titles); ranked exact, prefix, the rest.
    private func matching(_ text: String, kind: MediaKind, limit: Int) async throws -> [(words: String, snapshot: Data)] {
        let query = Query(text)
        guard !query.terms.isEmpty else { return [] }
        let wanted = query.terms.joined(separator: " ")
        let sql = try database.sql
        let postgres = database.isPostgres
        let upper = wanted + "\u{10FFFF}"
        let starting = try await sql.raw(
            postgres
                ? """
                SELECT seq, words, snapshot, year FROM title_index WHERE media_kind = \(bind: kind.rawValue)
                AND words COLLATE "C" >= \(bind: wanted) AND words COLLATE "C" < \(bind: upper) ORDER BY words COLLATE "C" LIMIT 50
                """
                : """
                SELECT seq, words, snapshot, year FROM title_index WHERE media_kind = \(bind: kind.rawValue)
                AND words >= \(bind: wanted) AND words < \(bind: upper) ORDER BY words LIMIT 50
                """
        ).all()
        // The year is searchable beside the title's words: "dune 2021" is every word a prefix.
        let terms = query.terms + (query.year.map { [String($0)] } ?? [])
        let matched: [any SQLRow]
        if postgres {
            let tsquery = terms.map { "\($0):*" }.joined(separator: " & ")
            matched = try await sql.raw(
                """
                SELECT seq, words, snapshot, year FROM title_index WHERE media_kind = \(bind: kind.rawValue)
                AND \(unsafeRaw: CreateTitleIndex.postgresText) @@ to_tsquery('simple', \(bind: tsquery)) ORDER BY seq DESC LIMIT 200
                """
            ).all()
        } else {
            // Shows, the few, are matched with their kind; films, nearly every title, without it
            // (intersecting every word with the all-films list was a third of a search's SQLite
            // time at 100,000 titles) and told apart once read.
            let match = (kind == .show ? "kind:show " : "") + terms.map { "words:\"\($0)\"*" }.joined(separator: " ")
            let ids = try await sql.raw(
                "SELECT rowid FROM title_index_words WHERE title_index_words MATCH \(bind: match) ORDER BY rowid DESC LIMIT 200"
            ).all().map { try $0.decode(column: "rowid", as: Int64.self) }
            matched =
                ids.isEmpty
                ? []
                : try await sql.raw(
                    """
                    SELECT seq, words, snapshot, year FROM title_index WHERE seq IN (\(binds: ids.map { $0 as any Encodable & Sendable })) \
                    AND +media_kind = \(bind: kind.rawValue)
                    """
                ).all()
        }
        var seen = Set<Int64>()
        var found: [(words: String, snapshot: Data)] = []
        // The full-text matches newest first, as PostgreSQL's query orders them.
        let newestFirst = try matched.map { (seq: try $0.decode(column: "seq", as: Int64.self), row: $0) }.sorted { $0.seq > $1.seq }.map(\.row)
        for row in starting + newestFirst where seen.insert(try row.decode(column: "seq", as: Int64.self)).inserted {
            let words = try row.decode(column: "words", as: String.self)
            if let year = query.year, try row.decodeNil(column: "year") || row.decode(column: "year", as: Int.self) != year,
                !words.split(separator: " ").contains(where: { $0.hasPrefix(String(year)) })
            {
                continue
            }
            found.append((words, try row.decode(column: "snapshot", as: Data.self)))
        }
        func tier(_ words: String) -> Int { words == wanted ? 0 : words.hasPrefix(wanted) ? 1 : 2 }
        return found.enumerated().sorted { (tier($0.element.words), $0.offset) < (tier($1.element.words), $1.offset) }.prefix(limit).map(\.element)
    }

    /// One title's copy by id, as last received.
    func movie(id: Int) async throws -> Movie? {
        try await snapshot(.movie, id).flatMap { try? JSONDecoder().decode(Movie.self, from: $0) }
    }

    func show(id: Int) async throws -> Show? {
        try await snapshot(.show, id).flatMap { try? JSONDecoder().decode(Show.self, from: $0) }
    }

    /// A film's copy when it was received within `seconds` (the background worker's fresh lookup).
    func freshMovie(id: Int, within seconds: TimeInterval) async throws -> (movie: Movie, indexedAt: Date)? {
        guard
            let row = try await database.sql.raw(
                """
                SELECT snapshot, indexed_at FROM title_index WHERE media_kind = \(bind: MediaKind.movie.rawValue) \
                AND item_id = \(bind: Int64(id)) AND indexed_at > \(bind: clock.now().addingTimeInterval(-seconds))
                """
            ).first(),
            let movie = try? JSONDecoder().decode(Movie.self, from: try row.decode(column: "snapshot", as: Data.self))
        else { return nil }
        return (movie, try row.decode(column: "indexed_at", as: Date.self))
    }

    private func snapshot(_ kind: MediaKind, _ id: Int) async throws -> Data? {
        try await database.sql.raw(
            "SELECT snapshot FROM title_index WHERE media_kind = \(bind: kind.rawValue) AND item_id = \(bind: Int64(id))"
        ).first()?.decode(column: "snapshot", as: Data.self)
    }

    /// How many titles of each kind the index holds (the admin page, the bench).
    func count() async throws -> Int {
        try await database.sql.raw("SELECT COUNT(*) AS n FROM title_index").first()?.decode(column: "n", as: Int.self) ?? 0
    }
}
