import Foundation
import Synchronization

public struct ShowPage: Sendable {
    /// 1-based page of TVMaze's index (TVMaze's own pages are 0-based).
    public var page: Int
    public var shows: [Show]
    public var source: CatalogSource
    /// TVMaze answered 404: there is nothing at or after this page.
    public var isEnd: Bool
}

public struct ShowSearchResult: Sendable {
    public var query: String
    public var shows: [Show]
    public var source: CatalogSource
}

public enum ShowLookup: Sendable {
    case found(Show, CatalogSource)
    case notFound
    case unavailable(UpstreamError)
}

/// TVMaze through the cache engine: index pages, shows and searches are fresh for an hour; stale
/// answers are served when TVMaze fails; the bundled shows answer when nothing is cached.
public final class ShowCatalog: Sendable {
    public static let freshness: TimeInterval = 3600
    public static let maxPage = 10_000

    let upstream: CachedUpstream
    let baseURL: String
    let offline: OfflineShows

    public init(upstream: CachedUpstream, baseURL: String, offline: OfflineShows) {
        self.upstream = upstream
        self.baseURL = baseURL
        self.offline = offline
    }

    public func page(_ page: Int) async -> ShowPage {
        let tvmazePage = page - 1
        let url = URL(string: "\(baseURL)/shows?page=\(tvmazePage)")!
        let fetched = await upstream.fetch(key: "tvmaze:page:\(tvmazePage)", url: url, freshFor: Self.freshness, notFoundBody: Data("[]".utf8)) {
            _ = try TVMazeDecoder.shows(from: $0)
        }
        guard let answer = fetched.answer else {
            return ShowPage(page: page, shows: page == 1 ? offline.shows : [], source: .offlineCatalogue, isEnd: true)
        }
        let shows = (try? TVMazeDecoder.shows(from: answer.body.body)) ?? []
        return ShowPage(page: page, shows: shows, source: answer.source, isEnd: shows.isEmpty)
    }

    public func show(id: Int) async -> ShowLookup {
        let url = URL(string: "\(baseURL)/shows/\(id)")!
        let fetched = await upstream.fetch(key: "tvmaze:show:\(id)", url: url, freshFor: Self.freshness, notFoundBody: Data("null".utf8)) {
            if $0 != Data("null".utf8) { _ = try TVMazeDecoder.show(from: $0) }
        }
        let decode = { (body: CachedBody) in try? TVMazeDecoder.show(from: body.body) }
        switch fetched {
        case .fresh(let body):
            guard let show = decode(body) else { return .notFound }
            return .found(show, .live(fetchedAt: body.fetchedAt))
        case .stale(let body, let error):
            guard let show = decode(body) else { return fallback(id, error) }
            return .found(show, .stale(savedOn: body.fetchedAt))
        case .failed(let error):
            return fallback(id, error)
        }
    }

    /// A show PopcornSwirl holds already, of any age, without asking TVMaze (`.notFound` for a kept
    /// answer that TVMaze has none); nil when nothing is known.
    func known(id: Int) async -> ShowLookup? {
        if let kept = await upstream.kept(key: "tvmaze:show:\(id)") {
            guard let show = try? TVMazeDecoder.show(from: kept.body) else { return .notFound }
            return .found(show, .live(fetchedAt: kept.fetchedAt))
        }
        return offline.show(id: id).map { .found($0, .offlineCatalogue) }
    }

    private func fallback(_ id: Int, _ error: UpstreamError) -> ShowLookup {
        if let show = offline.show(id: id) { return .found(show, .offlineCatalogue) }
        return .unavailable(error)
    }

    /// An id a show has outside TVMaze, as `/lookup/shows` takes it.
    enum ExternalID: Sendable, Equatable {
        case imdb(String)
        case thetvdb(Int)

        var query: String {
            switch self {
            case .imdb(let id): "imdb=\(PercentEncoding.query(id))"
            case .thetvdb(let id): "thetvdb=\(id)"
            }
        }
    }

    /// The show TVMaze files under an outside id: `/lookup/shows?imdb=` answers with a redirect to
    /// `/shows/:id` (read, not followed: the show then comes through `show(id:)` and its cache),
    /// 404 when it has none (nil). An answer of the show itself is read too. Both are kept an hour.
    func lookup(_ external: ExternalID) async -> Result<Show?, UpstreamError> {
        let url = URL(string: "\(baseURL)/lookup/shows?\(external.query)")!
        let policy = FetchPolicy(freshness: { _ in Self.freshness }, notFoundBody: Data("null".utf8), keepsRedirects: true)
        let fetched = await upstream.fetch(key: "tvmaze:lookup:\(external.query)", url: url, policy: policy) { body in
            if body != Data("null".utf8), Self.redirectedID(body) == nil { _ = try TVMazeDecoder.show(from: body) }
        }
        guard let answer = fetched.answer else {
            if case .failed(let error) = fetched { return .failure(error) }
            return .success(nil)
        }
        if let show = try? TVMazeDecoder.show(from: answer.body.body) { return .success(show) }
        guard let id = Self.redirectedID(answer.body.body) else { return .success(nil) }
        switch await show(id: id) {
        case .found(let show, _): return .success(show)
        case .notFound: return .success(nil)
        case .unavailable(let error): return .failure(error)
        }
    }

    /// The show id of a redirect to `…/shows/:id`.
    static func redirectedID(_ body: Data) -> Int? {
        guard let answer = RedirectAnswer.decode(body), let path = URLComponents(string: answer.location)?.path else { return nil }
        let parts = path.split(separator: "/")
        guard parts.count == 2, parts[0] == "shows", let id = Int(parts[1]), id > 0 else { return nil }
        return id
    }

    public func search(_ query: String) async -> ShowSearchResult {
        switch await find(query) {
        case .success(let result): return result
        case .failure:
            let normalized = query.trimmingCharacters(in: .whitespacesAndNewlines)
            return ShowSearchResult(query: normalized, shows: offline.search(normalized), source: .offlineCatalogue)
        }
    }

    /// TVMaze's name search; the bundled shows when TVMaze cannot be reached; a failure for any
    /// other refusal (an import waits and asks again rather than read "nothing found" into it).
    /// `search` shows the bundled shows' matches in that case too.
    func find(_ query: String) async -> Result<ShowSearchResult, UpstreamError> {
        let normalized = query.trimmingCharacters(in: .whitespacesAndNewlines)
        let url = URL(string: "\(baseURL)/search/shows?q=\(PercentEncoding.query(normalized))")!
        let key = "tvmaze:search:\(normalized.lowercased())"
        let fetched = await upstream.fetch(key: key, url: url, freshFor: Self.freshness) {
            _ = try TVMazeDecoder.search(from: $0)
        }
        guard let answer = fetched.answer else {
            if case .failed(let error) = fetched, !error.isUnreachable { return .failure(error) }
            return .success(ShowSearchResult(query: normalized, shows: offline.search(normalized), source: .offlineCatalogue))
        }
        return .success(
            ShowSearchResult(
                query: normalized, shows: (try? TVMazeDecoder.search(from: answer.body.body)) ?? [], source: answer.source)
        )
    }
}

/// The bundled shows (`Resources/catalog/shows.json`, TVMaze's `/shows` format), decoded by the same code.
public struct OfflineShows: Sendable {
    public let shows: [Show]
    let byID: [Int: Show]

    public init(shows: [Show]) {
        self.shows = shows.sorted { $0.id < $1.id }
        byID = Dictionary(shows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public static func bundled() throws -> OfflineShows {
        guard let url = Bundle.module.url(forResource: "shows", withExtension: "json", subdirectory: "Resources/catalog") else {
            return OfflineShows(shows: [])
        }
        return OfflineShows(shows: try TVMazeDecoder.shows(from: Data(contentsOf: url)))
    }

    public func show(id: Int) -> Show? { byID[id] }

    public func search(_ query: String) -> [Show] {
        guard !query.isEmpty else { return [] }
        return shows.filter { $0.name.localizedCaseInsensitiveContains(query) }
    }
}
