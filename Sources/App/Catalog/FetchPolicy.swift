import Foundation

/// A cached body as stored: the upstream's bytes and when they were fetched.
public struct CachedBody: Sendable, Equatable {
    public var body: Data
    public var fetchedAt: Date

    public init(body: Data, fetchedAt: Date) {
        self.body = body
        self.fetchedAt = fetchedAt
    }
}

/// Persistent storage for upstream answers (the `catalog_cache` table in production).
public protocol CatalogCacheStore: Sendable {
    func read(_ key: String) async throws -> CachedBody?
    func write(_ key: String, _ entry: CachedBody) async throws
    /// When each kept answer whose key starts with `prefix` was fetched.
    func fetchedAt(keysStartingWith prefix: String) async throws -> [(key: String, fetchedAt: Date)]
}

extension CatalogCacheStore {
    public func fetchedAt(keysStartingWith prefix: String) async throws -> [(key: String, fetchedAt: Date)] { [] }
}

/// The outcome of asking for a cache key.
public enum Fetched: Sendable {
    /// From the upstream just now, or from a cache entry still inside its freshness window.
    case fresh(CachedBody)
    /// The upstream failed; this is the last good answer.
    case stale(CachedBody, UpstreamError)
    /// The upstream failed and nothing was ever cached.
    case failed(UpstreamError)
}

extension Fetched {
    /// The body to serve and where it came from; nil when the fetch failed with nothing cached.
    var answer: (body: CachedBody, source: CatalogSource)? {
        switch self {
        case .fresh(let body): (body, .live(fetchedAt: body.fetchedAt))
        case .stale(let body, _): (body, .stale(savedOn: body.fetchedAt))
        case .failed: nil
        }
    }
}

/// How one kind of answer is fetched and kept.
public struct FetchPolicy: Sendable {
    /// How long a stored body counts as fresh.
    public var freshness: @Sendable (Data) -> TimeInterval
    public var headers: [(String, String)] = []
    /// Where a 404 is an answer ("no such page"), the body that stands for it.
    public var notFoundBody: Data?
    /// Error statuses whose body is handed to `validate` (which must throw for them, usually an `UpstreamRefusal`).
    public var bodyStatuses: Set<Int> = []
    /// Checked before each call; when spent the fetch fails with `.quotaExhausted`.
    public var budget: (any CallBudget)?
    /// Where a redirect is the answer (TVMaze's `/lookup/shows` points at the show): a 3xx with a
    /// `Location` is kept as `RedirectAnswer`'s JSON, for `validate` and the caller to read.
    public var keepsRedirects = false

    public init(
        freshness: @escaping @Sendable (Data) -> TimeInterval, headers: [(String, String)] = [], notFoundBody: Data? = nil,
        bodyStatuses: Set<Int> = [], budget: (any CallBudget)? = nil, keepsRedirects: Bool = false
    ) {
        self.freshness = freshness
        self.headers = headers
        self.notFoundBody = notFoundBody
        self.bodyStatuses = bodyStatuses
        self.budget = budget
        self.keepsRedirects = keepsRedirects
    }
}
