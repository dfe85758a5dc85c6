import Foundation
import Hummingbird
import Logging
import Mustache

struct LibraryStateJSON: Encodable {
    let inLibrary: Bool
    let favorite: Bool
    let watched: Bool
    let note: String?
    let rating: Int?
    /// The film was just marked watched: the page should offer the note dialog.
    let offerNote: Bool
    /// What Remove would now take away (`RemovalText`): the page's remove dialog says it.
    let removeText: String?
    /// What the change did (`ChangeWords`), for the page to confirm.
    let said: String?

    init(item: LibraryItem?, offerNote: Bool, said: String? = nil) {
        self.said = said
        inLibrary = item != nil
        favorite = item?.favorite ?? false
        watched = item?.watched ?? false
        note = item?.note
        rating = item?.rating
        self.offerNote = offerNote
        removeText = item.map { RemovalText.movie(title: $0.title, item: $0) }
    }
}

struct ConfirmRemovePage: Page {
    static let template = "library/confirm_remove"

    let chrome: Chrome
    let title: String
    let actionURL: String
    let returnTo: String
    /// Back to the page, at the title's card.
    let cancelURL: String
    let isShow: Bool
    let heading: String
    let message: String

    /// `message`: what goes (`RemovalText`); `unwatching`: asked because un-marking Watched would
    /// remove the film, which is not a favorite, with its note.
    init(
        title: String, message: String, actionURL: String, returnTo: String, cancelURL: String, kindLabel: String = "film",
        unwatching: Bool = false
    ) {
        isShow = kindLabel != "film"
        chrome = Chrome(isShow ? "Delete \(title)?" : "Remove \(title)?", tab: isShow ? .shows : .library)
        self.title = title
        self.actionURL = actionURL
        self.returnTo = returnTo
        self.cancelURL = cancelURL
        heading = isShow ? "Delete this TV show?" : (unwatching ? "Remove it and its note?" : "Remove from My Lists?")
        self.message = message
    }
}

struct LibraryTab {
    let label: String
    let url: String
    let selected: Bool
}

struct MyListsPage: Page {
    static let template = "library/lists"

    let chrome: Chrome
    let tabs: [LibraryTab]
    let kindTabs: [LibraryTab]
    let diaryURL = Route.diary.path
    let customListsURL = Route.lists.path
    let statsURL = Route.statisticsPage()
    /// The cards (`MovieCardView` or `ShowCardView`, rendered by `PageRenderer.card`), in runs with sponsored slots.
    /// The cards, joined with the sponsored slots (`SponsoredSlots.grid`).
    let grid: String
    let hasCards: Bool
    let heading: String
    let countText: String
    /// "film", "show" or "title" (mixed): what the count counts.
    let unit: String
    let total: Int
    let emptyMessage: String
    let previousURL: String?
    let nextURL: String?
    let pageText: String?
    let filterForm: ListFilterView

    init(list: LibraryList, filter: LibraryFilter, genres: [String], page: LibraryPage, renderer: PageRenderer) {
        let kind = filter.kind
        filterForm = ListFilterView(list: list, filter: filter, genres: genres)
        let titles: [LibraryList: String] = [.favorites: "Favorites", .watched: "Watched", .all: "All saved"]
        heading = titles[list]!
        chrome = Chrome("My Lists — \(heading)", tab: .library)
        tabs = LibraryList.allCases.map { LibraryTab(label: titles[$0]!, url: Route.libraryList($0, filter: filter), selected: $0 == list) }
        kindTabs = [(nil, "Movies & TV"), (MediaKind.movie, "Movies"), (MediaKind.show, "TV")].map { option, label in
            var choice = filter
            choice.kind = option
            return LibraryTab(label: label, url: Route.libraryList(list, filter: choice), selected: option == kind)
        }
        let returnTo = Route.libraryList(list, page: page.page, filter: filter)
        let cards = page.items.map { item in
            item.kind == .show
                ? renderer.card(ShowCardView(item: item, returnTo: returnTo))
                : renderer.card(MovieCardView(item: item, list: list, returnTo: returnTo))
        }
        grid = SponsoredSlots.grid(cards)
        hasCards = !cards.isEmpty
        unit =
            switch kind {
            case .movie: "film"
            case .show: "show"
            case nil: "title"
            }
        countText = "\(page.total) \(unit)" + (page.total == 1 ? "" : "s")
        total = page.total
        emptyMessage = filter.narrows ? "Nothing here matches your filters. Clear them to see the whole list." : Self.empty(list, kind: kind)
        previousURL = page.page > 1 ? Route.libraryList(list, page: page.page - 1, filter: filter) : nil
        nextURL = page.page < page.pageCount ? Route.libraryList(list, page: page.page + 1, filter: filter) : nil
        pageText = page.pageCount > 1 ? "Page \(page.page) of \(page.pageCount)" : nil
    }
}

extension MyListsPage {
    /// What an empty list says: what belongs in it and where to find some (TV has its own words).
    static func empty(_ list: LibraryList, kind: MediaKind?) -> String {
        switch (list, kind) {
        case (.favorites, .show): "No TV favorites yet. Open TV Shows and tap Favorite on a show to keep it here."
        case (.favorites, _): "No favorites yet. Tap Favorite on any film in Movies to keep it here."
        case (.watched, .show): "TV shows have no Watched list. Log the days you watched a show in the diary on its page."
        case (.watched, _): "Nothing marked as watched yet. Tap Watched on a film you’ve seen — you can add a note to it."
        case (.all, .show): "No TV shows saved yet. Open TV Shows and tap Favorite on a show to keep it here."
        case (.all, .movie): "No films saved yet. Browse Movies and tap Favorite or Watched to start your lists."
        case (.all, nil): "Your lists are empty. Browse Movies and tap Favorite or Watched, or open TV Shows and tap Favorite."
        }
    }
}

/// A card's optional field that is nil (no note, no rating picker) is looked up again in the cards'
/// parents, up to the page: 60 cards made that walk by reflection cost more than the cards (perf,
/// the cold sorted list). The page and its card groups answer by a switch, as the cards do.
extension MyListsPage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": chrome
        case "tabs": tabs
        case "kindTabs": kindTabs
        case "diaryURL": diaryURL
        case "customListsURL": customListsURL
        case "statsURL": statsURL
        case "grid": grid
        case "hasCards": hasCards
        case "heading": heading
        case "countText": countText
        case "unit": unit
        case "total": total
        case "emptyMessage": emptyMessage
        case "previousURL": previousURL
        case "nextURL": nextURL
        case "pageText": pageText
        case "filterForm": filterForm
        default: nil
        }
    }
}
