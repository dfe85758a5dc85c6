import Foundation
import Synchronization

/// What a search found: the best-matching film first, then the other films, and matching TV shows.
public struct SearchResult: Sendable {
    public var query: String
    /// Best match first, then iTunes' relevance order.
    public var movies: [Movie]
    public var source: CatalogSource
    /// OMDb's part for the best match; nil when there is no film.
    public var omdb: OMDbStatus?
    public var shows: [Show]
    public var showSource: CatalogSource

    public var bestMatch: Movie? { movies.first }
    public var otherMovies: ArraySlice<Movie> { movies.dropFirst() }

    /// What is remembered of this result as the person's last search: its best match, whatever
    /// OMDb answered (OMDb only adds details); nil when no film was found.
    func lastSearch(at time: Date) -> LastSearch? {
        guard let movie = bestMatch else { return nil }
        return LastSearch(query: query, movie: movie, details: omdb?.details, searchedAt: time)
    }

    /// A film was found: the search becomes the person's last search.
    public var isRememberable: Bool { bestMatch != nil }
}

public enum SearchOutcome: Sendable {
    case results(SearchResult)
    /// iTunes gave an unusable answer (error status, malformed body, rate limit) and nothing was cached.
    case failed(UpstreamError)
}

/// Search by title: iTunes (`term=…&media=movie&entity=movie`, cached 12 hours) ranked so the
/// closest title comes first, enriched from OMDb when a key is set; TVMaze's name search alongside.
/// Unreachable upstreams fall back to the cache, then to the bundled catalogue.
public final class SearchService: Sendable {
    public static let freshness: TimeInterval = 12 * 3600
    public static let resultLimit = 25

    let upstream: CachedUpstream
    let catalog: MovieCatalog
    let baseURL: String
    let country: String
    let offline: OfflineCatalog
    let shows: ShowCatalog
    public let omdb: OMDbClient
    let lastSearches: LastSearchStore
    let history: SearchHistoryStore
    let connectivity: Connectivity
    let clock: any AppClock
    /// Every title received: searched at once, whatever the upstreams answer.
    let index: TitleIndex
    /// Moved by every write of a person's last search or recent searches, as by a change to their
    /// lists: a search page kept for a person is reused only while nothing of theirs changed.

    init(
        upstream: CachedUpstream, catalog: MovieCatalog, baseURL: String, country: String, offline: OfflineCatalog, shows: ShowCatalog,
        omdb: OMDbClient,
        lastSearches: LastSearchStore, history: SearchHistoryStore, connectivity: Connectivity, clock: any AppClock,
        index: TitleIndex
    ) {
        self.upstream = upstream
        self.catalog = catalog
        self.baseURL = baseURL
        self.country = country
        self.offline = offline
        self.shows = shows
        self.omdb = omdb
        self.lastSearches = lastSearches
        self.history = history
        self.connectivity = connectivity
        self.clock = clock
        self.index = index
    }

    func url(_ query: SearchQuery) -> URL {
        URL(
            string:
                "\(baseURL)/search?term=\(PercentEncoding.query(query.text))&media=movie&entity=movie&limit=\(Self.resultLimit)&country=\(country)")!
    }

    /// The films and shows for a title: iTunes' and TVMaze's live answers as they are; the local
    /// title index's matches whenever an answer is not live (reading the index on
    /// every view of a kept search page took it from 22,500 to 1,000 req/s, `scripts/bench --only
    /// search`). When a limit keeps iTunes from being asked (its own, our throttle, the client's
    /// share), the index's matches are the answer, marked `.local`; unreachable, the index's and the
    /// bundled catalogue's, marked offline. Only an invalid answer from iTunes fails.
    public func search(_ query: SearchQuery) async -> SearchOutcome {
        async let showResult = showsFound(query)
        let movies: [Movie]
        let source: CatalogSource
        switch await films(query) {
        case .success(let found) where found.1.isLive: (movies, source) = found
        case .success(let found): (movies, source) = (Self.merged(found.0, await indexed(query)), found.1)
        case .failure(let error) where error.isLimit: (movies, source) = (await indexed(query), .local)
        case .failure(let error):
            _ = await showResult
            return .failed(error)
        }
        let ranked = Self.ranked(movies, for: query)
        var omdbStatus: OMDbStatus?
        if let best = ranked.first { omdbStatus = await omdb.details(for: best) }
        let tv = await showResult
        return .results(
            SearchResult(
                query: query.text, movies: ranked, source: source, omdb: omdbStatus, shows: tv.shows, showSource: tv.source
            ))
    }

    /// TVMaze's shows for the query with the index's after them; the index's alone when TVMaze
    /// cannot be asked.
    func showsFound(_ query: SearchQuery) async -> (shows: [Show], source: CatalogSource) {
        let indexed = { (try? await self.index.shows(matching: query.text)) ?? [] }
        switch await shows.find(query.text) {
        case .success(let result) where result.source.isLive: return (result.shows, result.source)
        case .success(let result): return (Self.merged(result.shows, await indexed()), result.source)
        case .failure(let error): return (await indexed(), error.isLimit ? .local : .offlineCatalogue)
        }
    }

    /// The title index's films for the query (none when it cannot be read).
    private func indexed(_ query: SearchQuery) async -> [Movie] {
        (try? await index.movies(matching: query.text)) ?? []
    }

    /// `first`, then those of `then` it lacks (by id).
    static func merged<Title: Identifiable>(_ first: [Title], _ then: [Title]) -> [Title] {
        let ids = Set(first.map(\.id))
        return first + then.filter { !ids.contains($0.id) }
    }

    /// iTunes' films for a title in its relevance order (cached 12 hours); the bundled catalogue's
    /// when iTunes cannot be reached; a failure for any other refusal (rate limit, bad answer).
    func films(_ query: SearchQuery) async -> Result<([Movie], CatalogSource), UpstreamError> {
        let key = "itunes:search:\(country):\(query.key)"
        let fetched = await upstream.fetch(key: key, url: url(query), freshFor: Self.freshness) { body in
            _ = try ITunesDecoder.moviesInRelevanceOrder(from: body)
        }
        if case .failed(let error) = fetched, !error.isUnreachable { return .failure(error) }
        guard let answer = fetched.answer else { return .success((offline.search(query.text), .offlineCatalogue)) }
        return .success(((try? ITunesDecoder.moviesInRelevanceOrder(from: answer.body.body)) ?? [], answer.source))
    }

    /// Exact title first, then titles that start with the query, then the rest; iTunes' order within each.
    static func ranked(_ movies: [Movie], for query: SearchQuery) -> [Movie] {
        let wanted = SearchQuery.fold(query.text)
        func rank(_ movie: Movie) -> Int {
            let title = SearchQuery.fold(movie.title)
            if title == wanted { return 0 }
            if title.hasPrefix(wanted) { return 1 }
            return title.contains(wanted) ? 2 : 3
        }
        return movies.enumerated()
            .map { (rank: rank($0.element), index: $0.offset, movie: $0.element) }
            .sorted { ($0.rank, $0.index) < ($1.rank, $1.index) }
            .map(\.movie)
    }

    /// Keeps the result's best match as the profile's last search (only for rememberable results).
    public func remember(_ result: SearchResult, profile: UUID) async throws {
        let now = clock.now()
        guard let search = result.lastSearch(at: now) else { return }
        // The same search again within the hour: the row already says so (a read is far cheaper than a durable write).
        if let current = try await lastSearches.last(profile: profile), current.query == search.query, current.movie == search.movie,
            current.details == search.details, now.timeIntervalSince(current.searchedAt) < 3600
        {
            return
        }
        try await lastSearches.remember(profile: profile, search)
    }

    /// A last search kept outside the database (a visitor without a profile keeps the query and its
    /// time in a cookie): the search runs again, from the cache when it can.
    public func last(query: SearchQuery, searchedAt: Date) async -> LastSearch? {
        guard case .results(let result) = await search(query) else { return nil }
        return result.lastSearch(at: searchedAt)
    }

    public func last(profile: UUID?) async throws -> LastSearch? {
        try await lastSearches.last(profile: profile)
    }

    /// Whether iTunes can be reached now (remembered for a few seconds).
    public func isOnline() async -> Bool {
        await connectivity.isOnline()
    }
}

/// Answers "are we online?" for screens that must say so before any search ran: offline mode,
/// an open breaker, or a HEAD request to the iTunes host that gets no answer.
final class Connectivity: Sendable {
    static let memory: TimeInterval = 10
    let http: any UpstreamHTTP
    let probeURL: URL
    let offlineMode: Bool
    let breaker: HostBreaker
    let clock: any AppClock
    private let last = Mutex<(at: Date, online: Bool)?>(nil)

    init(http: any UpstreamHTTP, probeURL: URL, offlineMode: Bool, breaker: HostBreaker, clock: any AppClock) {
        self.http = http
        self.probeURL = probeURL
        self.offlineMode = offlineMode
        self.breaker = breaker
        self.clock = clock
    }

    func isOnline() async -> Bool {
        if offlineMode || breaker.isOpen(probeURL.host ?? "") { return false }
        let now = clock.now()
        if let last = last.withLock({ $0 }), now.timeIntervalSince(last.at) < Self.memory { return last.online }
        let online = await http.isReachable(probeURL)
        last.withLock { $0 = (now, online) }
        return online
    }
}

/// Recent searches (`SearchHistoryStore`), for the pages and the API alike.
extension SearchService {
    /// The search joins the person's recent searches (any answered search, results or none), and
    /// the list after it is returned. The newest search again within the hour is already on top:
    /// nothing is written (a read is far cheaper than a durable write, and pages are reloaded).
    @discardableResult
    public func recordInHistory(_ query: SearchQuery, profile: UUID) async throws -> [SearchHistoryEntry] {
        let now = clock.now()
        let recent = try await history.recent(profile: profile)
        if let newest = recent.first, newest.query.lowercased() == query.key, now.timeIntervalSince(newest.searchedAt) < 3600 {
            return recent
        }
        try await history.record(profile: profile, query: query, at: now)
        return try await history.recent(profile: profile)
    }

    /// The person's recent searches, newest first (none without a profile).
    public func recentSearches(profile: UUID?) async throws -> [SearchHistoryEntry] {
        try await history.recent(profile: profile)
    }

    /// Removes one of the person's recent searches; false when it is not theirs or not there.
    public func removeFromHistory(_ id: UUID, profile: UUID?) async throws -> Bool {
        let removed = try await history.remove(profile: profile, id: id)
        return removed
    }
}
