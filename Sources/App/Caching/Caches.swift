import Foundation
import NIOCore

/// Every in-memory cache of a server, made here and described here (`CacheDeclaration`): its name on
/// `/metrics` (`popcornswirl_cache_{hits,misses,evictions}_total{cache="…"}`), what it keeps, its
/// byte budget and what makes an entry stale. Each is keyed by its whole input, so none needs
/// telling of a change, on this server or another.
///
/// Kept because `scripts/bench --mix` (2,000 people, a Zipf mix of pages, reads and writes) shows
/// them paying; per-person page caches did not (a person's page asked again, unchanged, within its
/// life is rare: 4–8 % of people's pages at 2 s, 12 % with no expiry and no bound), and went.
struct Caches: Sendable {
    /// Pages every visitor without a profile sees alike (a year's films, TV Shows, a film's or a
    /// show's page), cut at their holes (`PageParts`).
    let sharedPages: DeclaredCache<SharedPageKey, SharedPage>
    /// The static files' gzip answers (`CompressionMiddleware`): each compressed once.
    let staticAnswers: DeclaredCache<StaticAnswerKey, ByteBuffer>

    init(metrics: AppMetrics?) {
        sharedPages = DeclaredCache(
            CacheDeclaration(
                name: "shared-pages", keeps: "pages of visitors without a profile, by address and catalogue answer",
                budgetBytes: 16 << 20, staleWhen: "never: the key names the catalogue answer the page is drawn from"),
            metrics: metrics)
        staticAnswers = DeclaredCache(
            CacheDeclaration(
                name: "static-gzip", keeps: "the gzip answers of /static files, by path and the file's validator",
                budgetBytes: 2 << 20, staleWhen: "never: the key names the file's ETag (its size and change time)"),
            metrics: metrics)
    }
}

/// A static file's answer: its path and its validator (`FileMiddleware`'s ETag).
struct StaticAnswerKey: Hashable, Sendable {
    let path: String
    let etag: String
}

/// A page shared by every visitor without a profile: its address and the identity of the
/// catalogue answer it is drawn from (`CatalogSource.identity`).
struct SharedPageKey: Hashable, Sendable {
    let page: String
    let source: String
}

/// A shared page's pieces and what its sponsored cards are chosen for.
struct SharedPage: Sendable {
    let parts: PageParts
    let listing: ListingContext

    init(html: String, listing: ListingContext) {
        parts = PageParts(html)
        self.listing = listing
    }

    var bytes: Int { parts.pieceBytes }
}

extension DeclaredCache where Key == SharedPageKey, Value == SharedPage {
    /// The kept page, else `render`'s, kept.
    func page(_ key: SharedPageKey, render: () throws -> (html: String, listing: ListingContext)) rethrows -> SharedPage {
        try value(key, bytes: \.bytes) {
            let made = try render()
            return SharedPage(html: made.html, listing: made.listing)
        }
    }

    /// The same for a page rendered asynchronously.
    func page(_ key: SharedPageKey, render: () async throws -> (html: String, listing: ListingContext)) async rethrows -> SharedPage {
        if let kept = get(key) { return kept }
        let made = try await render()
        let page = SharedPage(html: made.html, listing: made.listing)
        put(key, page, bytes: page.bytes)
        return page
    }
}
