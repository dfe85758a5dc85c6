import Foundation
import Mustache

/// A line above the results: what happened, said plainly. `alert` ones are errors.
struct SearchMessage {
    enum Kind: String { case welcome, info, success, error }
    let kind: Kind
    let heading: String?
    let text: String
    // Stored, not computed: templates read properties through reflection.
    let isAlert: Bool
    let cssClass: String
    /// For failures: repeats the search.
    let retryURL: String?
    /// Said after `text` ("… on 24 Nov 2026, 08:00 UTC."), in the browser's time zone.
    let moment: Moment?

    init(_ kind: Kind, _ text: String, heading: String? = nil, retryURL: String? = nil, moment: Moment? = nil) {
        self.kind = kind
        self.text = text
        self.moment = moment
        self.heading = heading
        self.retryURL = retryURL
        isAlert = kind == .error
        cssClass = "search-message search-\(kind.rawValue)"
    }
}

/// The best-matching film in full: poster, title, year, genre, director, plot, the movie detail's
/// links and buttons, and OMDb's extras when there are any.
struct BestMatchView {
    let film: FilmFields
    let year: String?
    let genre: String?
    let director: String?
    let plot: String?
    let releaseDate: String?
    let releaseDateISO: String?
    let runtime: String?
    let rated: String?
    let actors: String?
    let imdbRating: String?
    let imdbURL: String?
    let storeURL: String?
    let collectionValue: String
    let collectionLabel: String
    let watchedLabel: String
    /// After the no-JavaScript collection button: back to this screen with the outcome to announce.
    let collectionReturnTo: String
    let returnTo: String

    init(movie: Movie, details: OMDbDetails?, saved: LibraryItem?, returnTo: String) {
        film = FilmFields(id: movie.id, title: movie.title, artworkURL: movie.artworkURL, saved: saved)
        year = (movie.year ?? details?.startYear).map(String.init)
        genre = movie.genre ?? details?.genre
        director = details?.director ?? movie.director
        plot = details?.plot ?? movie.synopsis
        releaseDate = movie.releaseDate.map(UTCFormatters.longDay.string) ?? Formats.omdbDay(details?.released)
        releaseDateISO = movie.releaseDate?.formatted(UTCFormatters.dayStyle)
        runtime = Formats.runtime(movie.runtimeMinutes) ?? details?.runtime
        rated = details?.rated ?? movie.contentRating
        actors = details?.actors
        imdbRating = details?.imdbRating.map { "\($0)/10" + (details?.imdbVotes.map { " (\($0) votes)" } ?? "") }
        imdbURL = details?.imdbURL
        storeURL = movie.storeURL
        collectionValue = film.favoriteValue
        collectionLabel = film.favorite ? SearchPage.inCollection : SearchPage.addToCollection
        watchedLabel = film.watched ? "Watched ✓" : "Watched"
        self.returnTo = returnTo
        collectionReturnTo = Route.searchDone(returnTo, film.favorite ? SearchPage.doneRemoved : SearchPage.doneAdded)
    }
}

struct SearchPage: Page {
    static let template = "search/search"

    static let addToCollection = "Favorite"
    static let inCollection = "Favorite ✓"
    static let doneAdded = "added"
    static let doneRemoved = "removed"
    static let added = "Added to your Favorites"
    static let removed = "Removed from your Favorites"
    static let welcome =
        "Type the title of a film or TV show above. The best match is shown in full — poster, director, plot — with the other films and shows that match. Your last search stays here for next time, even offline."
    static let offlineNoSearch =
        "You’re offline, and there is no previous search to show. Searching needs a connection to iTunes: try again when you’re back online."

    let chrome: Chrome
    let query: String
    let maxLength = SearchQuery.maxLength
    let messages: [SearchMessage]
    let bestHeading: String?
    let best: BestMatchView?
    let otherGroups: [CardGroup<MovieCardView>]
    let hasOthers: Bool
    let showGroups: [CardGroup<ShowCardView>]
    let hasShows: Bool
    let flash: String?
    /// The person's recent searches (see `withHistory`).
    private(set) var history: [RecentSearchView] = []
    private(set) var hasHistory = false

    init(
        query: String, messages: [SearchMessage], source: CatalogSource? = nil, showSource: CatalogSource? = nil, bestHeading: String? = nil,
        best: BestMatchView? = nil, otherCards: [MovieCardView] = [], showCards: [ShowCardView] = [], flash: String? = nil
    ) {
        // iTunes' fallback first; when only TVMaze fell back, the shows part says so.
        let notice = source.flatMap { Formats.sourceNotice($0) } ?? showSource.flatMap { Formats.sourceNotice($0, provider: "TVMaze") }
        chrome = Chrome(
            query.isEmpty ? "Search" : "“\(query.prefix(60))” — Search", tab: .search, notice: notice,
            retryURL: query.isEmpty ? nil : Route.searchFor(query), tvCredit: !showCards.isEmpty)
        self.query = query
        self.messages = messages
        self.bestHeading = bestHeading
        self.best = best
        otherGroups = SponsoredSlots.groups(otherCards)
        hasOthers = !otherCards.isEmpty
        showGroups = SponsoredSlots.groups(showCards)
        hasShows = !showCards.isEmpty
        self.flash = flash
    }

    /// The page with the person's recent searches listed under it, each removable from `returnTo`.
    func withHistory(_ entries: [SearchHistoryEntry], returnTo: String) -> SearchPage {
        var page = self
        page.history = entries.map { RecentSearchView($0, returnTo: returnTo) }
        page.hasHistory = !entries.isEmpty
        return page
    }
}

/// One recent search: run it again, or remove it.
struct RecentSearchView {
    let query: String
    let url: String
    let removeURL: String
    let when: Moment
    let returnTo: String

    init(_ entry: SearchHistoryEntry, returnTo: String) {
        query = entry.query
        url = Route.searchFor(entry.query)
        removeURL = Route.removeRecentSearch.link(entry.id.uuidString.lowercased())
        when = Moment(entry.searchedAt)
        self.returnTo = returnTo
    }
}

// The search page's sections (messages, the best match, recent searches) look names up in
// themselves and then up the stack to the page: every view answers by a switch, not reflection
// (`PageViewLookupTests` keeps the answers equal to reflection's).

extension SearchPage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": chrome
        case "query": query
        case "maxLength": maxLength
        case "messages": messages
        case "bestHeading": bestHeading
        case "best": best
        case "otherGroups": otherGroups
        case "hasOthers": hasOthers
        case "showGroups": showGroups
        case "hasShows": hasShows
        case "flash": flash
        case "history": history
        case "hasHistory": hasHistory
        default: nil
        }
    }
}

extension SearchMessage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "kind": kind
        case "heading": heading
        case "text": text
        case "isAlert": isAlert
        case "cssClass": cssClass
        case "retryURL": retryURL
        case "moment": moment
        default: nil
        }
    }
}

extension BestMatchView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "film": film
        case "year": year
        case "genre": genre
        case "director": director
        case "plot": plot
        case "releaseDate": releaseDate
        case "releaseDateISO": releaseDateISO
        case "runtime": runtime
        case "rated": rated
        case "actors": actors
        case "imdbRating": imdbRating
        case "imdbURL": imdbURL
        case "storeURL": storeURL
        case "collectionValue": collectionValue
        case "collectionLabel": collectionLabel
        case "watchedLabel": watchedLabel
        case "collectionReturnTo": collectionReturnTo
        case "returnTo": returnTo
        default: nil
        }
    }
}

extension RecentSearchView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "query": query
        case "url": url
        case "removeURL": removeURL
        case "when": when
        case "returnTo": returnTo
        default: nil
        }
    }
}
