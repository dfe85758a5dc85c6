import Foundation
import Logging
import SQLKit

/// Every film and show PopcornSwirl has received, searchable without an upstream (`title_index`,
/// migration 027): what search answers from at once and falls back to when iTunes or TVMaze
/// cannot be asked, what a save by id of a never-opened title is read from, and what an import
/// matches against before it asks anyone.
///
/// Fed by every upstream answer as it is stored (`TitleIndexingStore`), by the bundled catalogue
/// (`addBundled`) and by films an import keeps. Case, accents and punctuation are folded in
/// Swift (`words`), the same text on SQLite (FTS5) and PostgreSQL (`to_tsvector('simple', …)`);
/// each word of a query matches as a prefix, and a four-digit year among other words filters by
/// release year ("dune 2021").
public struct TitleIndex: Sendable {
    let database: AppDatabase
    let clock: any AppClock
    let logger: Logger

    /// Kept in `catalog_cache` once the answers kept before the index existed are indexed.
    static let backfilledKey = "meta:title-index-backfilled"

    /// A title as the index folds it: lower case, no accents, letters and digits, one space between words.
    static func words(_ text: String) -> String {
        var folded = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in SearchQuery.fold(text).lowercased().unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                if pendingSpace, !folded.isEmpty { folded.append(" ") }
                pendingSpace = false
                folded.append(scalar)
            } else {
                pendingSpace = true
            }
        }
        return String(folded)
    }

    /// What a query asks of the index: words that must each start a word of the title, and a
    /// release year when the query names one beside other words.
    struct Query: Equatable {
        var terms: [String]
        var year: Int?

        init(_ text: String) {
            var terms = TitleIndex.words(text).split(separator: " ").map(String.init)
            year = nil
            if terms.count > 1, let index = terms.lastIndex(where: { $0.count == 4 && Int($0).map { (1870...2100).contains($0) } == true }) {
                year = Int(terms.remove(at: index))
            }
            self.terms = Array(terms.prefix(12))
        }
    }

    // MARK: Writing

    /// Adds or refreshes films; a failure is logged, never thrown (the index is derived data).
    func add(movies: [Movie]) async {
        await add(movies.map { movie in (.movie, movie.id, movie.title, movie.year, { try JSONEncoder().encode(movie) }) })
    }

    func add(shows: [Show]) async {
        await add(shows.map { show in (.show, show.id, show.name, show.premieredYear, { try JSONEncoder().encode(show) }) })
    }

    private typealias Row = (kind: MediaKind, id: Int, title: String, year: Int?, snapshot: () throws -> Data)

    /// Rows written 200 at a time, each batch one upsert.
    private func add(_ rows: [Row]) async {
        let now = clock.now()
        // One row per title (an upsert may not touch a row twice): the last copy of each id.
        var seen = Set<Int>()
        let rows = Array(rows.reversed().filter { seen.insert($0.id).inserted }.reversed())
        for batch in stride(from: 0, to: rows.count, by: 200).map({ rows[$0..<min($0 + 200, rows.count)] }) {
            var values: [SQLQueryString] = []
            for row in batch {
                guard let snapshot = try? row.snapshot() else { continue }
                let words = Self.words(row.title)
                values.append(
                    "(\(bind: row.kind.rawValue), \(bind: Int64(row.id)), \(bind: row.title), \(bind: row.year.map(Int32.init)), \(bind: words), \(bind: snapshot), \(bind: now))"
                )
            }
            guard !values.isEmpty else { continue }
            let statement: SQLQueryString = """
                INSERT INTO title_index (media_kind, item_id, title, year, words, snapshot, indexed_at) VALUES \(values.joined(separator: ", "))
                ON CONFLICT (media_kind, item_id) DO UPDATE SET title = excluded.title, year = excluded.year,
                words = excluded.words, snapshot = excluded.snapshot, indexed_at = excluded.indexed_at
                """
            do {
                try await database.writeSQL { sql in try await sql.raw(statement).run() }
            } catch {
                logger.warning("indexing titles failed", metadata: ["count": "\(values.count)", "error": "\(error)"])
            }
        }
    }

    /// The titles in an upstream answer as it is stored under `key` (the cache engine's keys).
    static func titles(key: String, body: Data) -> (movies: [Movie], shows: [Show]) {
        if key.hasPrefix("itunes:year:") || key.hasPrefix("itunes:lookup:") || key.hasPrefix("itunes:search:") {
            return ((try? ITunesDecoder.movies(from: body)) ?? [], [])
        }
        if key.hasPrefix("kept:movie:") {
            return ((try? JSONDecoder().decode(Movie.self, from: body)).map { [$0] } ?? [], [])
        }
        if key.hasPrefix("tvmaze:page:") { return ([], (try? TVMazeDecoder.shows(from: body)) ?? []) }
        if key.hasPrefix("tvmaze:search:") { return ([], (try? TVMazeDecoder.search(from: body)) ?? []) }
        if key.hasPrefix("tvmaze:show:") || key.hasPrefix("tvmaze:lookup:") {
            return ([], (try? TVMazeDecoder.show(from: body)).map { [$0] } ?? [])
        }
        return ([], [])
    }

    /// Indexes what an upstream answer holds.
    func ingest(key: String, body: Data) async {
        let found = Self.titles(key: key, body: body)
        if !found.movies.isEmpty { await add(movies: found.movies) }
        if !found.shows.isEmpty { await add(shows: found.shows) }
    }

    /// The bundled catalogue (each time: a new release may bring new films), and once per database
    /// every answer already in `catalog_cache` (a database made before the index existed), read 200
    /// rows at a time; `backfilledKey` in the store says it was done. Upserts: running it again
    /// changes nothing.
    func backfill(bundled: OfflineCatalog, shows: OfflineShows) async throws {
        await add(movies: Array(bundled.moviesByID.values))
        await add(shows: shows.shows)
        let store = SQLCacheStore(database: database)
        guard try await store.read(Self.backfilledKey) == nil else { return }
        var after = ""
        while true {
            let rows = try await database.sql.raw(
                """
                SELECT cache_key, body FROM catalog_cache WHERE cache_key > \(bind: after)
                AND (cache_key LIKE 'itunes:%' OR cache_key LIKE 'tvmaze:%' OR cache_key LIKE 'kept:movie:%')
                ORDER BY cache_key LIMIT 200
                """
            ).all()
            guard let last = rows.last else {
                try await store.write(Self.backfilledKey, CachedBody(body: Data("1".utf8), fetchedAt: clock.now()))
                return
            }
            for row in rows {
                await ingest(key: try row.decode(column: "cache_key", as: String.self), body: try row.decode(column: "body", as: Data.self))
            }
            after = try last.decode(column: "cache_key", as: String.self)
        }
    }
}

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
