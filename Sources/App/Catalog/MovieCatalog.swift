import Foundation
import Synchronization

/// Where the data on a page came from; pages mark anything that is not live.
public enum CatalogSource: Sendable, Equatable {
    /// From iTunes, now or within the freshness window.
    case live(fetchedAt: Date)
    /// iTunes failed; these are the results saved at that time.
    case stale(savedOn: Date)
    /// iTunes failed and nothing was cached: the bundled offline catalogue.
    case offlineCatalogue
    /// A film iTunes does not have, kept by an import with what OMDb knows of it (`KeptFilms`).
    case kept

    public var isLive: Bool { if case .live = self { true } else { false } }

    /// Identifies the answer cheaply (no date formatting): used to key rendered pages.
    var identity: String {
        switch self {
        case .live(let fetchedAt): "live:\(fetchedAt.timeIntervalSince1970)"
        case .stale(let savedOn): "stale:\(savedOn.timeIntervalSince1970)"
        case .offlineCatalogue: "offline"
        case .kept: "kept"
        }
    }
}

public struct MovieList: Sendable {
    public var year: Int
    public var movies: [Movie]
    public var source: CatalogSource
}

public enum MovieLookup: Sendable {
    case found(Movie, CatalogSource)
    /// iTunes answered and has no such film.
    case notFound
    /// Nothing answered and nothing is known about this id.
    case unavailable(UpstreamError)
}

/// Movies from iTunes through the cache engine, decoded once and kept in memory while fresh.
public final class MovieCatalog: Sendable {
    /// The earliest year the Movies screen offers.
    static let firstYear = 1950
    /// The API takes years up to this (its schema's maximum); a year after `latestYear` is an empty list.
    static let lastAPIYear = 2100

    /// The latest year offered: next year's films are already announced on iTunes.
    static func latestYear(current: Int) -> Int { current + 1 }

    public static let yearFreshness: TimeInterval = 6 * 3600
    public static let lookupFreshness: TimeInterval = 24 * 3600

    let upstream: CachedUpstream
    let baseURL: String
    let country: String
    let offline: OfflineCatalog
    let clock: any AppClock
    /// Decoded year lists by cache key: avoids decoding 200 films on every request.
    private let decoded = Mutex<[String: (body: CachedBody, movies: [Movie])]>([:])
    /// Films recently shown in search results: a film can be saved from a result page even when
    /// iTunes stops answering between the search and the click.
    private let seen = Mutex<[Int: (movie: Movie, fetchedAt: Date)]>([:])
    static let seenLimit = 5000

    public init(upstream: CachedUpstream, baseURL: String, country: String, offline: OfflineCatalog, clock: any AppClock) {
        self.upstream = upstream
        self.baseURL = baseURL
        self.country = country
        self.offline = offline
        self.clock = clock
    }

    func yearKey(_ year: Int) -> String { "itunes:year:\(country):\(year)" }
    func lookupKey(_ id: Int) -> String { "itunes:lookup:\(country):\(id)" }

    func yearURL(_ year: Int) -> URL {
        URL(string: "\(baseURL)/search?term=\(year)&media=movie&entity=movie&attribute=releaseYearTerm&limit=200&country=\(country)")!
    }

    func lookupURL(_ id: Int) -> URL {
        URL(string: "\(baseURL)/lookup?id=\(id)&entity=movie&country=\(country)")!
    }

    /// The films of a release year, newest first. Never fails: falls back to stale cache, then to the offline catalogue.
    public func movies(year: Int) async -> MovieList {
        let key = yearKey(year)
        if let hit = decoded.withLock({ $0[key] }),
            clock.now().timeIntervalSince(hit.body.fetchedAt) < Self.yearFreshness
        {
            return MovieList(year: year, movies: hit.movies, source: .live(fetchedAt: hit.body.fetchedAt))
        }
        let fetched = await upstream.fetch(key: key, url: yearURL(year), freshFor: Self.yearFreshness) { body in
            _ = try ITunesDecoder.movies(from: body)
        }
        guard let answer = fetched.answer else {
            return MovieList(year: year, movies: offline.movies(year: year), source: .offlineCatalogue)
        }
        let movies = decode(key: key, body: answer.body)
        return MovieList(year: year, movies: movies.filter { $0.year == year || $0.year == nil }, source: answer.source)
    }

    private func decode(key: String, body: CachedBody) -> [Movie] {
        if let hit = decoded.withLock({ $0[key] }), hit.body == body { return hit.movies }
        let movies = (try? ITunesDecoder.movies(from: body.body)) ?? []
        decoded.withLock { $0[key] = (body, movies) }
        return movies
    }

    /// One film by iTunes id: fresh lookup cache, else a fresh year list that holds it, else iTunes,
    /// else a stale answer, else the offline catalogue.
    public func movie(id: Int) async -> MovieLookup {
        // A film kept by an import is not an iTunes film: `TitleLookup` answers for it.
        if KeptFilms.imdbID(of: id) != nil { return .notFound }
        if let movie = fromYearLists(id, freshOnly: true) { return .found(movie.0, .live(fetchedAt: movie.1)) }
        let fetched = await upstream.fetch(key: lookupKey(id), url: lookupURL(id), freshFor: Self.lookupFreshness) { body in
            _ = try ITunesDecoder.movies(from: body)
        }
        switch fetched {
        case .fresh(let body):
            guard let movie = try? ITunesDecoder.movies(from: body.body).first(where: { $0.id == id }) else { return .notFound }
            return .found(movie, .live(fetchedAt: body.fetchedAt))
        case .stale(let body, let error):
            guard let movie = try? ITunesDecoder.movies(from: body.body).first(where: { $0.id == id }) else {
                return fallback(id, error)
            }
            return .found(movie, .stale(savedOn: body.fetchedAt))
        case .failed(let error):
            return fallback(id, error)
        }
    }

    /// A film found in a decoded year list; `freshOnly` skips lists past their freshness window.
    private func fromYearLists(_ id: Int, freshOnly: Bool) -> (Movie, Date)? {
        let now = clock.now()
        return decoded.withLock { table in
            for entry in table.values where !freshOnly || now.timeIntervalSince(entry.body.fetchedAt) < Self.yearFreshness {
                if let movie = entry.movies.first(where: { $0.id == id }) { return (movie, entry.body.fetchedAt) }
            }
            return nil
        }
    }

    /// Keeps films a search just showed (bounded: the table is emptied when it grows past its limit).
    func noteSeen(_ movies: some Sequence<Movie>, at date: Date) {
        seen.withLock { table in
            if table.count > Self.seenLimit { table.removeAll(keepingCapacity: true) }
            for movie in movies { table[movie.id] = (movie, date) }
        }
    }

    private func fallback(_ id: Int, _ error: UpstreamError) -> MovieLookup {
        if let (movie, savedOn) = fromYearLists(id, freshOnly: false) { return .found(movie, .stale(savedOn: savedOn)) }
        if let hit = seen.withLock({ $0[id] }) { return .found(hit.movie, .stale(savedOn: hit.fetchedAt)) }
        if let movie = offline.movie(id: id) { return .found(movie, .offlineCatalogue) }
        return .unavailable(error)
    }
}
