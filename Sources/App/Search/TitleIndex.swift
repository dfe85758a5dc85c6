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
