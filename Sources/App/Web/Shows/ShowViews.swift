import Foundation
import Mustache

struct ShowsPage: Page {
    static let template = "shows/list"

    let chrome: Chrome
    /// The cards (`ShowCardView`, rendered by `PageRenderer.card`), in runs with sponsored slots.
    /// The cards, joined with the sponsored slots (`SponsoredSlots.grid`).
    let grid: String
    let hasCards: Bool
    let query: String?
    let heading: String
    let emptyMessage: String
    let previousURL: String?
    let nextURL: String?
    let pageText: String?
    // The Shows | Up Next | Calendar | Favorites tabs (shows/tabs).
    let tabs = ShowTabs(.browse)
    let formURL = Route.shows.path

    init(cards: [RenderedCard], source: CatalogSource, query: String?, page: Int?, isEnd: Bool) {
        chrome = Chrome(
            query.map { "TV shows matching “\($0)”" } ?? "TV Shows", tab: .shows, notice: Formats.sourceNotice(source, provider: "TVMaze"),
            retryURL: query.map(Route.showSearch) ?? Route.showsPage(page ?? 1), tvCredit: true)
        grid = SponsoredSlots.grid(cards)
        hasCards = !cards.isEmpty
        self.query = query
        heading = query.map { "Shows matching “\($0)”" } ?? "TV Shows"
        emptyMessage =
            query != nil
            ? "No TV show matches that name. Check the spelling or try fewer words."
            : (source == .offlineCatalogue
                ? "TVMaze can’t be reached, and the built-in catalogue has only its first page. Retry, or go back to page 1."
                : "You’ve reached the end of TVMaze’s index.")
        previousURL = page.flatMap { $0 > 1 ? Route.showsPage($0 - 1) : nil }
        nextURL = page.flatMap { isEnd ? nil : Route.showsPage($0 + 1) }
        pageText = page.map { "Page \($0)" }
    }
}

struct ShowFavoritesPage: Page {
    static let template = "shows/favorites"

    let chrome: Chrome
    // The Shows | Up Next | Calendar | Favorites tabs (shows/tabs).
    let tabs = ShowTabs(.favorites)
    /// The cards (`ShowCardView`, rendered by `PageRenderer.card`), in runs with sponsored slots.
    /// The cards, joined with the sponsored slots (`SponsoredSlots.grid`).
    let grid: String
    let hasCards: Bool
    let countText: String
    let total: Int
    let previousURL: String?
    let nextURL: String?

    init(cards: [RenderedCard], page: LibraryPage) {
        chrome = Chrome("TV Favorites", tab: .shows, tvCredit: true)
        grid = SponsoredSlots.grid(cards)
        hasCards = !cards.isEmpty
        countText = page.total == 1 ? "1 show" : "\(page.total) shows"
        total = page.total
        previousURL = page.page > 1 ? Route.showFavoritesPage(page.page - 1) : nil
        nextURL = page.page < page.pageCount ? Route.showFavoritesPage(page.page + 1) : nil
    }
}

struct ShowDetailPage: Page {
    static let template = "shows/detail"

    struct Fact {
        let label: String
        let value: String
    }

    let chrome: Chrome
    let id: Int
    let name: String
    let posterURL: String
    /// Sanitised by `HTMLSanitizer`: the only markup from a third party that reaches a page.
    let summaryHTML: String?
    let imdbURL: String?
    let officialSite: String?
    let tvmazeURL: String?
    let facts: [Fact]
    let saved: Bool
    let actionURL: String
    let removeActionURL: String
    let removeURL: String
    let returnTo: String
    let ratingPicker: RatingPicker
    let titleDiary: TitleDiaryView
    let titleLists: TitleListsView
    /// The seasons and episodes, with the person's watches (nil when no list is held).
    let episodes: ShowEpisodesView?

    /// `saved`: the person's entry for the show (a favorite, rated, or both), if any.
    init(
        show: Show, source: CatalogSource, saved entry: LibraryItem?, personal: PersonalTitleState, episodes: ShowEpisodesView?, now: Date
    ) {
        self.episodes = episodes
        let saved = entry?.favorite == true
        chrome = Chrome(
            show.name, tab: .shows, notice: Formats.sourceNotice(source, provider: "TVMaze"), retryURL: Route.show.link(show.id),
            bodyClass: "show-detail", tvCredit: true)
        id = show.id
        name = show.name
        posterURL = Route.posterImage(source: show.imageOriginal ?? show.imageMedium, seed: show.id, title: show.name)
        summaryHTML = show.summaryHTML.map(HTMLSanitizer.sanitize).flatMap { $0.isEmpty ? nil : $0 }
        imdbURL = show.imdbURL
        officialSite = show.officialSite
        tvmazeURL = show.tvmazeURL
        var facts: [Fact] = []
        func add(_ label: String, _ value: String?) {
            if let value, !value.isEmpty { facts.append(Fact(label: label, value: value)) }
        }
        add("Genres", show.genres.joined(separator: ", "))
        add("Status", show.status)
        add("Premiered", Formats.day(show.premiered))
        add("Ended", Formats.day(show.ended))
        add("Network", show.network.map { name in show.networkCountry.map { "\(name) (\($0))" } ?? name })
        add("Streaming", show.webChannel)
        add("Schedule", show.scheduleText)
        add("Runtime", show.runtimeMinutes.map { "\($0) min" })
        add("TVMaze rating", show.rating.map { String(format: "%.1f / 10", $0) })
        add("Type", show.type)
        add("Language", show.language)
        self.facts = facts
        self.saved = saved
        actionURL = Route.saveShow.link(show.id)
        removeActionURL = Route.removeShow.link(show.id)
        returnTo = Route.show.link(show.id)
        removeURL = Route.removeShowConfirmation(show.id, returnTo: Route.show.link(show.id))
        ratingPicker = RatingPicker(
            actionURL: actionURL, returnTo: returnTo, anchor: Route.cardAnchor(show: show.id), title: show.name, rating: entry?.rating)
        titleDiary = TitleDiaryView(kind: .show, id: show.id, title: show.name, watches: personal.watches, saved: entry != nil, now: now)
        titleLists = TitleListsView(kind: .show, id: show.id, title: show.name, lists: personal.lists, holding: personal.holding)
    }
}

// A card's or a section's missing name is looked up again in every view around it, up to the page:
// the show pages answer by a switch, not reflection (`PageViewLookupTests` keeps them equal).

extension ShowsPage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": chrome
        case "grid": grid
        case "hasCards": hasCards
        case "query": query
        case "heading": heading
        case "emptyMessage": emptyMessage
        case "previousURL": previousURL
        case "nextURL": nextURL
        case "pageText": pageText
        case "tabs": tabs
        case "formURL": formURL
        default: nil
        }
    }
}

extension ShowFavoritesPage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": chrome
        case "tabs": tabs
        case "grid": grid
        case "hasCards": hasCards
        case "countText": countText
        case "total": total
        case "previousURL": previousURL
        case "nextURL": nextURL
        default: nil
        }
    }
}

extension ShowDetailPage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": chrome
        case "id": id
        case "name": self.name
        case "posterURL": posterURL
        case "summaryHTML": summaryHTML
        case "imdbURL": imdbURL
        case "officialSite": officialSite
        case "tvmazeURL": tvmazeURL
        case "facts": facts
        case "saved": saved
        case "actionURL": actionURL
        case "removeActionURL": removeActionURL
        case "removeURL": removeURL
        case "returnTo": returnTo
        case "ratingPicker": ratingPicker
        case "titleDiary": titleDiary
        case "titleLists": titleLists
        case "episodes": episodes
        default: nil
        }
    }
}

extension ShowDetailPage.Fact: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "label": label
        case "value": value
        default: nil
        }
    }
}

/// The TV Shows tabs (shows/tabs): which one is open.
struct ShowTabs {
    enum Tab { case browse, upNext, calendar, favorites }

    let browseURL = Route.shows.path
    let upNextURL = Route.upNext.path
    let calendarURL = Route.calendar.path
    let favoritesURL = Route.showFavorites.path
    let onBrowse: Bool
    let onUpNext: Bool
    let onCalendar: Bool
    let onFavorites: Bool

    init(_ open: Tab) {
        onBrowse = open == .browse
        onUpNext = open == .upNext
        onCalendar = open == .calendar
        onFavorites = open == .favorites
    }
}

extension ShowTabs: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "browseURL": browseURL
        case "upNextURL": upNextURL
        case "calendarURL": calendarURL
        case "favoritesURL": favoritesURL
        case "onBrowse": onBrowse
        case "onUpNext": onUpNext
        case "onCalendar": onCalendar
        case "onFavorites": onFavorites
        default: nil
        }
    }
}
