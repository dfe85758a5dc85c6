import Foundation
import NIOCore
import Synchronization

/// Every in-memory cache of a server, made here once (`AppServices`) and described here
/// (`CacheDeclaration`): its name on `/metrics` (`popcornswirl_cache_{hits,misses,evictions}_total{cache="…"}`),
/// what it keeps, its byte budget and what makes an entry stale. Most are keyed by their whole input
/// and need telling of nothing; the two that hold database rows hear of changes here, from the change
/// feed (`ChangeFeed`: this server's and every other's), and domain services only say what changed.
///
/// Kept because `scripts/bench --mix` (2,000 people, a Zipf mix of pages, reads and writes) shows
/// each paying; the rest went (docs/ARCHITECTURE.md, "The cache layer", has the figures).
struct Caches: Sendable {
    /// Pages every visitor without a profile sees alike (a year's films, TV Shows, a film's or a
    /// show's page), cut at their holes (`PageParts`).
    let sharedPages: DeclaredCache<SharedPageKey, SharedPage>
    /// The static files' gzip answers (`CompressionMiddleware`): each compressed once.
    let staticAnswers: DeclaredCache<StaticAnswerKey, ByteBuffer>
    /// Film and show cards as rendered (`PageRenderer.card`).
    let cards: DeclaredCache<CardKey, String>
    /// Release years' films as decoded from the catalogue's answer (`MovieCatalog`).
    let yearLists: DeclaredCache<YearListKey, YearList>
    /// Who a session cookie belongs to (`SessionService`).
    let sessions: DeclaredCache<SessionKey, KnownSession>
    /// The advertisers and offers pages choose from (`OfferStore`).
    let offers: DeclaredCache<OffersKey, OfferStore.Snapshot>
    /// Offers ranked for a page's titles (`OfferService`).
    let rankings: DeclaredCache<RankingKey, RankedOffers>
    /// A show's episodes as read from `tv_episodes` (`EpisodeService`).
    let episodeLists: DeclaredCache<EpisodeListKey, [Episode]>
    /// Calendar feeds as answered (`CalendarFeedController`), and a count of the changes heard:
    /// an answer made while one arrived is not kept.
    let calendarFeeds: DeclaredCache<CalendarFeedKey, CalendarFeedAnswer>
    let calendarChanges: ChangeCount

    init(metrics: AppMetrics?, changes: ChangeFeed) {
        func declared<Key, Value>(_ name: String, _ keeps: String, _ budget: Int, staleWhen: String) -> DeclaredCache<Key, Value> {
            DeclaredCache(CacheDeclaration(name: name, keeps: keeps, budgetBytes: budget, staleWhen: staleWhen), metrics: metrics)
        }
        sharedPages = declared(
            "shared-pages", "pages of visitors without a profile, by address and catalogue answer", 16 << 20,
            staleWhen: "never: the key names the catalogue answer the page is drawn from")
        staticAnswers = declared(
            "static-gzip", "the gzip answers of /static files, by path and the file's validator", 2 << 20,
            staleWhen: "never: the key names the file's ETag (its size and change time)")
        // Off, the mix's CPU per request rose 55 %: a Movies page is 200 cards.
        cards = declared(
            "cards", "film and show cards as rendered, by every field their template reads", 4 << 20,
            staleWhen: "never: the key is the card's whole view")
        // Off, the mix's CPU per request doubled (a year is 200 films to decode), and film pages
        // asked iTunes for films the lists hold; the 60 s saves reading a 264 KB answer per view.
        yearLists = declared(
            "year-lists", "each release year's films as decoded from the kept answer", 48 << 20,
            staleWhen: "60 s after it was read from the store, where another server's worker may have put a newer answer")
        // Off, the mix's CPU per request rose 15 % (two database reads per request with a cookie).
        sessions = declared(
            "sessions", "who a session belongs to, by its token's hash", 4 << 20,
            staleWhen: "when the session ends on any server (the feed's session, sessions, everything), else 30 s after it was read")
        // Off, the mix's CPU per request rose 30 % (two database reads per page with offers).
        offers = declared(
            "offers", "the advertisers and offers, as read", 1 << 20,
            staleWhen: "when offers or shops change on any server (the feed's offers, everything), else 30 s after it was read")
        // Off, the mix's CPU per request rose 50 %.
        rankings = declared(
            "offer-rankings", "offers ranked for a page's titles", 4 << 20,
            staleWhen: "never: the key is what the ranking reads (the titles, kind, day and offers copy)")
        // Off, a show's page with 1,318 episodes read and decoded all of them on each view (24 % of
        // its CPU, perf on scripts/bench's episodes row).
        episodeLists = declared(
            "episode-lists", "each show's episodes as read from the database, by show and the time its list was stored", 16 << 20,
            staleWhen: "never: the key names the stored list (a newer list is stored at a newer time)")
        // A calendar app asks for its feed every few minutes to hours; kept, those asks read
        // nothing from the database until something on the calendar changes.
        calendarFeeds = declared(
            "calendar-feeds", "calendar feeds as answered, by token, options and site", 8 << 20,
            staleWhen:
                "the feed's person changed (the feed's person: their shows, films, watches, time zone or feed) or one of its shows' lists was "
                + "stored again (episodes), on any server; everything; else at the next day or 6 h after it was made")
        let calendarChanges = ChangeCount()
        self.calendarChanges = calendarChanges
        changes.subscribe { [sessions, offers, calendarFeeds] change in
            switch change {
            case .session(let hash): sessions.remove { key, _ in key.tokenHash == hash }
            case .sessions(let profile, let kept): sessions.remove { key, known in known.identity.profile == profile && key.tokenHash != kept }
            case .offers: offers.remove()
            case .person(let profile):
                calendarChanges.add()
                calendarFeeds.remove { _, answer in answer.profile == profile }
            case .episodes(let show):
                calendarChanges.add()
                calendarFeeds.remove { _, answer in answer.shows.contains(show) }
            case .everything:
                calendarChanges.add()
                sessions.remove()
                offers.remove()
                calendarFeeds.remove()
            }
        }
    }
}

/// A calendar feed asked: its token's hash, its options as written in the query, and the site's address.
struct CalendarFeedKey: Hashable, Sendable {
    let tokenHash: String
    let options: String
    let site: String
}

/// A feed's answer: the document, its validators, whose it is and which shows it covers (what
/// makes it stale), and the day and moment it was made.
struct CalendarFeedAnswer: Sendable {
    let profile: UUID
    let shows: Set<Int>
    let body: String
    let etag: String
    let lastModified: Date
    /// The person's day it was made on, in their zone: the feed's window moves at their midnight.
    let day: String
    let zone: TimeZone

    var bytes: Int { body.utf8.count + shows.count * 16 + 200 }
}

/// How many changes were heard: work that began before one must not be kept.
final class ChangeCount: Sendable {
    private let value = Atomic<Int>(0)

    func add() { value.add(1, ordering: .sequentiallyConsistent) }
    var current: Int { value.load(ordering: .sequentiallyConsistent) }
}

/// A show's stored episode list: the show and when its list was written (`tv_episode_lists.synced_at`).
struct EpisodeListKey: Hashable, Sendable {
    let showID: Int
    let storedAt: Date
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
