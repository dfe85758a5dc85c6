import Foundation

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
    /// PopcornSwirl's own copy (the title index, or the bundled films for a year not fetched yet)
    /// because a limit said no for now: the upstream will be asked again in a moment.
    case local
    /// The person's saved copy, from the day it was saved, while a fresh one is asked for.
    case saved(on: Date)

    public var isLive: Bool { if case .live = self { true } else { false } }

    /// Identifies the answer cheaply (no date formatting): used to key rendered pages.
    var identity: String {
        switch self {
        case .live(let fetchedAt): "live:\(fetchedAt.timeIntervalSince1970)"
        case .stale(let savedOn): "stale:\(savedOn.timeIntervalSince1970)"
        case .offlineCatalogue: "offline"
        case .kept: "kept"
        case .local: "local"
        case .saved(let on): "saved:\(on.timeIntervalSince1970)"
        }
    }
}

public struct MovieList: Sendable {
    public var year: Int
    public var movies: [Movie]
    public var source: CatalogSource
    /// iTunes' list of this year was never fetched: the bundled films stand in, and the catalogue
    /// worker has been asked for it.
    public var notFetchedYet = false
}

public enum MovieLookup: Sendable {
    case found(Movie, CatalogSource)
    /// iTunes answered and has no such film.
    case notFound
    /// Nothing answered and nothing is known about this id.
    case unavailable(UpstreamError)
}

/// Movies from iTunes through the cache engine; each year's list decoded once (`Caches.yearLists`).
public final class MovieCatalog: Sendable {
    /// The earliest year the Movies screen offers.
    static let firstYear = 1950
    /// The API takes years up to this (its schema's maximum); a year after `latestYear` is an empty list.
    static let lastAPIYear = 2100

    /// The latest year offered: next year's films are already announced on iTunes.
    static func latestYear(current: Int) -> Int { current + 1 }

    public static let yearFreshness: TimeInterval = 6 * 3600
    public static let lookupFreshness: TimeInterval = 24 * 3600
    /// iTunes' `lookup?id=a,b,c` answers about 50 ids in one call.
    static let lookupBatch = 50

    let upstream: CachedUpstream
    let baseURL: String
    let country: String
    let offline: OfflineCatalog
    let clock: any AppClock
    /// Years never fetched that a person opened, and films saved by id: the background worker's.
    let requests: CatalogRequests
    /// The years' lists as decoded. Each is read again from the store at most `recheck` after it
    /// was last read, so a list another server's worker refreshed shows here within that time.
    let decoded: DeclaredCache<YearListKey, YearList>
    static let recheck: TimeInterval = 60

    init(
        upstream: CachedUpstream, baseURL: String, country: String, offline: OfflineCatalog, clock: any AppClock, requests: CatalogRequests,
        decoded: DeclaredCache<YearListKey, YearList>
    ) {
        self.decoded = decoded
        self.upstream = upstream
        self.baseURL = baseURL
        self.country = country
        self.offline = offline
        self.clock = clock
        self.requests = requests
    }

    func yearKey(_ year: Int) -> String { "itunes:year:\(country):\(year)" }
    func lookupKey(_ id: Int) -> String { "itunes:lookup:\(country):\(id)" }

    func yearURL(_ year: Int) -> URL {
        URL(string: "\(baseURL)/search?term=\(year)&media=movie&entity=movie&attribute=releaseYearTerm&limit=200&country=\(country)")!
    }

    func lookupURL(_ id: Int) -> URL {
        URL(string: "\(baseURL)/lookup?id=\(id)&entity=movie&country=\(country)")!
    }

    /// The films of a release year, newest first. Never fails and, once the year is warm, never
    /// waits on iTunes: the kept list is shown whatever its age (`CatalogWorker` keeps it fresh,
    /// `YearSchedule`), marked stale past twice its refresh interval. A year never fetched is asked
    /// of iTunes now; when iTunes cannot answer, the bundled films stand in and the worker is asked.
    public func movies(year: Int) async -> MovieList {
        let key = yearKey(year)
        let now = clock.now()
        let current = clock.currentYear
        func list(_ movies: [Movie], fetchedAt: Date) -> MovieList {
            let fresh = now.timeIntervalSince(fetchedAt) < 2 * YearSchedule.interval(of: year, current: current)
            return MovieList(
                year: year, movies: movies,
                source: fresh ? .live(fetchedAt: fetchedAt) : .stale(savedOn: fetchedAt))
        }
        if let hit = decoded.get(YearListKey(year: year), isFresh: { now.timeIntervalSince($0.checkedAt) < Self.recheck }) {
            return list(hit.movies, fetchedAt: hit.fetchedAt)
        }
        if let kept = await upstream.kept(key: key) { return list(decode(year: year, body: kept), fetchedAt: kept.fetchedAt) }
        let fetched = await upstream.fetch(key: key, url: yearURL(year), freshFor: Self.yearFreshness) { body in
            _ = try ITunesDecoder.movies(from: body)
        }
        guard let answer = fetched.answer else {
            await requests.ask(.year, String(year))
            let unreachable = if case .failed(let error) = fetched { error.isUnreachable } else { false }
            return MovieList(
                year: year, movies: offline.movies(year: year), source: unreachable ? .offlineCatalogue : .local, notFetchedYet: true)
        }
        return list(decode(year: year, body: answer.body), fetchedAt: answer.body.fetchedAt)
    }

    /// Fetches a year's list now, for the background worker: the answer is kept for every page.
    func refreshYear(_ year: Int) async -> Result<Int, UpstreamError> {
        let key = yearKey(year)
        let policy = FetchPolicy(freshness: { _ in Self.yearFreshness })
        return await upstream.refresh(key: key, url: yearURL(year), policy: policy) { _ = try ITunesDecoder.movies(from: $0) }
            .map { decode(year: year, body: $0).count }
    }

    /// When each year's kept list was fetched (years never fetched are absent).
    func yearsFetched() async throws -> [Int: Date] {
        let prefix = "itunes:year:\(country):"
        let rows = try await upstream.store.fetchedAt(keysStartingWith: prefix)
        var years: [Int: Date] = [:]
        for (key, date) in rows { if let year = Int(key.dropFirst(prefix.count)) { years[year] = date } }
        return years
    }

    /// Films by id in one iTunes call (`lookup?id=a,b,c`, at most `lookupBatch`), for the
    /// background worker: the films iTunes has; an id it leaves out, it does not know.
    func lookup(ids: [Int]) async -> Result<[Movie], UpstreamError> {
        let list = ids.sorted().map(String.init).joined(separator: ",")
        let url = URL(string: "\(baseURL)/lookup?id=\(list)&entity=movie&country=\(country)")!
        let policy = FetchPolicy(freshness: { _ in Self.lookupFreshness })
        return await upstream.refresh(key: "itunes:lookup:\(country):\(list)", url: url, policy: policy) { _ = try ITunesDecoder.movies(from: $0) }
            .map { (try? ITunesDecoder.movies(from: $0.body)) ?? [] }
    }

    /// A film PopcornSwirl holds already, without asking iTunes: a decoded year list, a kept
    /// lookup (nil for one that found nothing: `.notFound`), the bundled catalogue.
    func known(id: Int) async -> MovieLookup? {
        if let (movie, fetchedAt) = fromYearLists(id, freshOnly: false) { return .found(movie, .live(fetchedAt: fetchedAt)) }
        if let kept = await upstream.kept(key: lookupKey(id)) {
            guard let movie = try? ITunesDecoder.movies(from: kept.body).first(where: { $0.id == id }) else { return .notFound }
            return .found(movie, .live(fetchedAt: kept.fetchedAt))
        }
        return offline.movie(id: id).map { .found($0, .offlineCatalogue) }
    }

    /// A film kept inside its freshness (a year list or a lookup), without asking iTunes.
    func fresh(id: Int) async -> (movie: Movie, fetchedAt: Date)? {
        if let hit = fromYearLists(id, freshOnly: true) { return hit }
        guard let kept = await upstream.kept(key: lookupKey(id)), clock.now().timeIntervalSince(kept.fetchedAt) < Self.lookupFreshness,
            let movie = try? ITunesDecoder.movies(from: kept.body).first(where: { $0.id == id })
        else { return nil }
        return (movie, kept.fetchedAt)
    }

    /// A year list's films of that year (iTunes' `releaseYearTerm` lets a few others in), decoded
    /// and filtered once per answer: working out each film's year on every view was 30 % of a kept
    /// Movies page's CPU (`scripts/bench --only movies --perf`).
    private func decode(year: Int, body: CachedBody) -> [Movie] {
        let movies =
            decoded.get(YearListKey(year: year), isFresh: { $0.fetchedAt == body.fetchedAt && $0.size == body.body.count })?.movies
            ?? ((try? ITunesDecoder.movies(from: body.body)) ?? []).filter { $0.year == year || $0.year == nil }
        let list = YearList(fetchedAt: body.fetchedAt, size: body.body.count, movies: movies, checkedAt: clock.now())
        decoded.put(YearListKey(year: year), list, bytes: list.size)
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
        for entry in decoded.values where !freshOnly || now.timeIntervalSince(entry.fetchedAt) < Self.yearFreshness {
            if let movie = entry.movies.first(where: { $0.id == id }) { return (movie, entry.fetchedAt) }
        }
        return nil
    }

    private func fallback(_ id: Int, _ error: UpstreamError) -> MovieLookup {
        if let (movie, savedOn) = fromYearLists(id, freshOnly: false) { return .found(movie, .stale(savedOn: savedOn)) }
        if let movie = offline.movie(id: id) { return .found(movie, .offlineCatalogue) }
        return .unavailable(error)
    }
}

/// A release year's list (`Caches.yearLists`).
struct YearListKey: Hashable, Sendable {
    let year: Int
}

/// A year's films as decoded from the answer fetched at `fetchedAt` (`size` bytes), and when the
/// store was last read for it.
struct YearList: Sendable {
    let fetchedAt: Date
    let size: Int
    let movies: [Movie]
    let checkedAt: Date
}
