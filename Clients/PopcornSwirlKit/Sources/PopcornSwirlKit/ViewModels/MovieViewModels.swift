import Foundation
import Observation
import PopcornSwirlAPI

/// A film in a list: what the row shows and the person's flags on it.
public struct MovieRow: Sendable, Equatable, Identifiable {
    public var id: Int64
    public var title: String
    public var year: Int?
    public var genre: String?
    public var posterURL: String?
    public var favorite: Bool
    public var watched: Bool

    var card: TitleCard { TitleCard(kind: .movie, id: id, title: title, genre: genre, year: year, posterURL: posterURL) }
}

extension MovieRow {
    init(_ movie: Components.Schemas.Movie, saved: SavedTitle?) {
        self.init(
            id: movie.id, title: movie.title, year: movie.year, genre: movie.genre, posterURL: movie.posterUrl, favorite: saved?.favorite ?? false,
            watched: saved?.watched ?? false)
    }

    init(_ saved: SavedTitle) {
        self.init(
            id: saved.id, title: saved.title, year: saved.year, genre: saved.genre, posterURL: saved.posterURL, favorite: saved.favorite,
            watched: saved.watched)
    }
}

/// The person's changes to films, made on the device and queued for the server: shared by the
/// screens that show a favourite or watched button.
@MainActor
enum FilmChanges {
    /// Nil when it was kept; the seeds' dialog when the device could not keep it.
    static func record(_ core: AppCore, _ change: PendingChange, card: TitleCard?) -> ErrorDialog? {
        do {
            try core.store.record(change, card: card, madeAt: core.now())
            return nil
        } catch {
            return ErrorDialog(message: KitTexts.saveFailed)
        }
    }
}

/// Movies of a year (the seeds' first screen): the year's films with favourite and watched buttons.
@MainActor @Observable
public final class MoviesViewModel {
    public private(set) var year: Int
    public private(set) var rows: [MovieRow] = []
    public private(set) var isLoading = false
    /// Set when the list shown is the copy kept from the last time (the server could not answer).
    public private(set) var offlineNote: String?
    /// The retry dialog, when the year could not be loaded at all or a change could not be kept.
    public var dialog: ErrorDialog?
    private var movies: [Components.Schemas.Movie] = []
    private let core: AppCore

    public init(core: AppCore, year: Int) {
        self.core = core
        self.year = year
    }

    public func load() async {
        isLoading = true
        defer { isLoading = false }
        let year = year
        let api = core.api
        let loaded = await core.load(AnswerKey.movies(year: year)) { () async throws -> Components.Schemas.MovieList? in
            if case .ok(let answer) = try await api.listMovies(query: .init(year: year)) { return try answer.body.json }
            return nil
        }
        guard let loaded else {
            dialog = ErrorDialog(message: KitTexts.fetchFailed)
            return
        }
        movies = loaded.value.movies
        offlineNote = loaded.keptAt.map(KitTexts.offline(since:))
        refreshFlags()
    }

    /// Flips through years.
    public func show(year: Int) async {
        self.year = year
        rows = []
        await load()
    }

    public func toggleFavorite(_ row: MovieRow) {
        dialog = FilmChanges.record(core, .movie(id: row.id, favorite: !row.favorite, watched: nil, note: nil, rating: nil), card: row.card)
        refreshFlags()
    }

    /// Marks watched with the pop-up's comment (nil or empty: no note), or unmarks.
    public func setWatched(_ row: MovieRow, _ watched: Bool, comment: String? = nil) {
        let note = watched ? comment.flatMap { $0.isEmpty ? nil : $0 } : nil
        dialog = FilmChanges.record(core, .movie(id: row.id, favorite: nil, watched: watched, note: note, rating: nil), card: row.card)
        refreshFlags()
    }

    private func refreshFlags() {
        rows = movies.map { MovieRow($0, saved: try? core.store.title(.movie, $0.id)) }
    }
}

/// A film's screen: its details, the person's flags and watched comment, and its partner offers.
@MainActor @Observable
public final class MovieViewModel {
    public let id: Int64
    public private(set) var movie: Components.Schemas.Movie?
    public private(set) var saved: SavedTitle?
    public private(set) var offlineNote: String?
    public var dialog: ErrorDialog?
    public let offers: OffersViewModel
    private let core: AppCore

    public init(core: AppCore, id: Int64) {
        self.core = core
        self.id = id
        offers = OffersViewModel(core: core, kind: .movie, id: id)
    }

    /// iTunes' page of the film ("More on iTunes").
    public var storeURL: URL? { movie?.storeUrl.flatMap(URL.init(string:)) }

    public func load() async {
        let id = id
        let api = core.api
        let loaded = await core.load(AnswerKey.movie(id)) { () async throws -> Components.Schemas.MovieDetail? in
            if case .ok(let answer) = try await api.getMovie(path: .init(id: id)) { return try answer.body.json }
            return nil
        }
        saved = try? core.store.title(.movie, id)
        if let loaded {
            movie = loaded.value.movie
            offlineNote = loaded.keptAt.map(KitTexts.offline(since:))
        } else if let saved {
            // Never fetched on this device, but saved: its saved copy.
            movie = Components.Schemas.Movie(id: saved.id, title: saved.title, year: saved.year, genre: saved.genre, posterUrl: saved.posterURL)
            offlineNote = KitTexts.offline(since: saved.updatedAt ?? core.now())
        } else {
            dialog = ErrorDialog(message: KitTexts.fetchFailed)
        }
        await offers.load()
    }

    public func toggleFavorite() {
        change(.movie(id: id, favorite: !(saved?.favorite ?? false), watched: nil, note: nil, rating: nil))
    }

    public func setWatched(_ watched: Bool, comment: String? = nil) {
        change(.movie(id: id, favorite: nil, watched: watched, note: watched ? comment : nil, rating: nil))
    }

    /// The watched comment; empty clears it.
    public func setNote(_ note: String) {
        change(.movie(id: id, favorite: nil, watched: nil, note: note, rating: nil))
    }

    private func change(_ change: PendingChange) {
        let card = movie.map { TitleCard(kind: .movie, id: $0.id, title: $0.title, genre: $0.genre, year: $0.year, posterURL: $0.posterUrl) }
        dialog = FilmChanges.record(core, change, card: card)
        saved = try? core.store.title(.movie, id)
    }
}

/// Search (the Movie Collection spec): the last search when the screen opens, online or
/// offline; a welcome when there is none; the seeds' error when offline with nothing kept.
@MainActor @Observable
public final class SearchViewModel {
    public private(set) var query = ""
    public private(set) var results: Components.Schemas.SearchResults?
    /// The best match of the last search, as the server remembered it.
    public private(set) var lastMatch: Components.Schemas.SearchMatch?
    public private(set) var welcome: String?
    public private(set) var offlineNote: String?
    public var dialog: ErrorDialog?
    private let core: AppCore

    public init(core: AppCore) { self.core = core }

    /// The screen opens: the last search, from the server (the person's, from any device) or as kept here.
    public func open() async {
        let api = core.api
        var reached = false
        do {
            switch try await api.getLastSearch() {
            case .ok(let answer):
                let last = try answer.body.json
                reached = true
                query = last.query
                lastMatch = last.match
                try? core.store.recordSearch(last.query, at: core.now())
                try? core.store.keep(last, as: AnswerKey.lastSearch, at: core.now())
            case .notFound: reached = true
            default: break
            }
        } catch {}
        if lastMatch == nil, let kept = try? core.store.kept(Components.Schemas.LastSearch.self, as: AnswerKey.lastSearch) {
            query = kept.value.query
            lastMatch = kept.value.match
            offlineNote = reached ? nil : KitTexts.offline(since: kept.fetchedAt)
        }
        if let recent = try? core.store.recentSearches().first, recent != query,
            let kept = try? core.store.kept(Components.Schemas.SearchResults.self, as: AnswerKey.search(recent))
        {
            query = recent
            results = kept.value
        }
        guard lastMatch == nil, results == nil else { return }
        if reached { welcome = KitTexts.searchWelcome } else { dialog = ErrorDialog(message: KitTexts.fetchFailed) }
    }

    public func search(_ text: String) async {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return }
        query = text
        welcome = nil
        let api = core.api
        let loaded = await core.load(AnswerKey.search(text)) { () async throws -> Components.Schemas.SearchResults? in
            if case .ok(let answer) = try await api.searchTitles(query: .init(q: text)) { return try answer.body.json }
            return nil
        }
        guard let loaded else {
            dialog = ErrorDialog(message: KitTexts.fetchFailed)
            return
        }
        try? core.store.recordSearch(text, at: core.now())
        results = loaded.value
        lastMatch = loaded.value.bestMatch
        offlineNote = loaded.keptAt.map(KitTexts.offline(since:))
    }

    /// The searches made on this device, most recent first.
    public var recent: [String] { (try? core.store.recentSearches()) ?? [] }
}

/// My Lists: Favorites, Watched or both combined, and the custom lists, from the device's copy
/// (online or offline alike).
@MainActor @Observable
public final class MyListsViewModel {
    public var list: SavedList = .favorites
    public private(set) var rows: [MovieRow] = []
    public private(set) var customLists: [(list: CustomListCopy, items: [ListItemCopy])] = []
    /// Changes waiting for the server, and those it refused (with its reason).
    public private(set) var waiting = 0
    public private(set) var refused: [OutboxEntry] = []
    public var dialog: ErrorDialog?
    private let core: AppCore

    public init(core: AppCore) { self.core = core }

    public func load() {
        do {
            rows = try core.store.titles(list).map(MovieRow.init)
            customLists = try core.store.customLists()
            waiting = try core.store.waiting().count
            refused = try core.store.refused()
        } catch {
            dialog = ErrorDialog(message: KitTexts.fetchFailed)
        }
    }

    public func show(_ list: SavedList) {
        self.list = list
        load()
    }

    /// Takes a film out of the list shown (out of both lists, in the combined one).
    public func remove(_ row: MovieRow) {
        let change: PendingChange =
            switch list {
            case .favorites: .movie(id: row.id, favorite: false, watched: nil, note: nil, rating: nil)
            case .watched: .movie(id: row.id, favorite: nil, watched: false, note: nil, rating: nil)
            case .combined: .removeMovie(id: row.id)
            }
        dialog = FilmChanges.record(core, change, card: row.card)
        load()
    }
}

/// A title's partner offers (Smart-Market's advertisers), with their signed links.
@MainActor @Observable
public final class OffersViewModel {
    public struct Item: Sendable, Equatable, Identifiable {
        public var id: Int
        public var headline: String
        public var description: String
        public var priceText: String
        public var advertiser: String
        /// The signed link that counts the click and goes on to the shop.
        public var link: URL?
    }
    public let kind: TitleKind
    public let id: Int64
    public private(set) var items: [Item] = []
    public private(set) var banner: Item?
    private let core: AppCore

    public init(core: AppCore, kind: TitleKind, id: Int64) {
        self.core = core
        self.kind = kind
        self.id = id
    }

    public func load() async {
        let api = core.api
        let title = "\(kind.rawValue):\(id)"
        let loaded = await core.load(AnswerKey.offers(kind, id)) { () async throws -> Components.Schemas.TitleOffers? in
            if case .ok(let answer) = try await api.listOffers(query: .init(title: title)) { return try answer.body.json }
            return nil
        }
        guard let offers = loaded?.value else { return }
        items = offers.offers.map(item)
        banner = offers.banner.map(item)
    }

    private func item(_ offer: Components.Schemas.Offer) -> Item {
        Item(
            id: offer.id, headline: offer.headline, description: offer.description, priceText: offer.priceText, advertiser: offer.advertiser.name,
            link: URL(string: offer.clickURL, relativeTo: core.serverURL)?.absoluteURL)
    }
}
