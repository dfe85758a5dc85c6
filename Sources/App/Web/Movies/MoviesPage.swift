import Foundation
import Hummingbird
import Mustache

struct YearOption: MustacheParent {
    let value: Int
    let selected: Bool

    /// 77 options per page: skip reflection.
    func child(named name: String) -> Any? {
        switch name {
        case "value": value
        case "selected": selected
        default: nil
        }
    }
}

struct MoviesPage: Page {
    static let template = "movies/list"

    let chrome: Chrome
    let formURL = Route.movies.path
    let year: Int
    let years: [YearOption]
    /// The cards (`MovieCardView`, rendered by `PageRenderer.card`), in runs with sponsored slots.
    /// The cards, joined with the sponsored slots (`SponsoredSlots.grid`).
    let grid: String
    let hasCards: Bool
    let countText: String
    let emptyMessage: String
    let error: String?

    /// `notFetchedYet`: iTunes' list of the year was never fetched (the bundled films stand in).
    init(year: Int, currentYear: Int, cards: [RenderedCard], source: CatalogSource?, notFetchedYet: Bool = false, error: String? = nil) {
        let notice =
            notFetchedYet && source == .local
            ? SourceNotice(text: "\(year)’s films are on their way from iTunes — showing PopcornSwirl’s built-in catalogue meanwhile.", savedOn: nil)
            : source.flatMap { Formats.sourceNotice($0) }
        chrome = Chrome(error == nil ? "Movies of \(year)" : "Movies", tab: .movies, notice: notice, retryURL: Route.moviesOf(year: year))
        self.year = year
        years = (MovieCatalog.firstYear...MovieCatalog.latestYear(current: currentYear)).reversed().map {
            YearOption(value: $0, selected: $0 == year)
        }
        grid = SponsoredSlots.grid(cards)
        hasCards = !cards.isEmpty
        countText = cards.count == 1 ? "1 film" : "\(cards.count) films"
        emptyMessage =
            switch source {
            case .offlineCatalogue: "No films from \(year) are in the offline catalogue. Try again when you’re back online, or pick another year."
            case .local where notFetchedYet:
                "\(year)’s films are being fetched from iTunes and will be here in a moment. Retry shortly, or pick another year."
            default: "No films from \(year) were found on iTunes. Pick another year."
            }
        self.error = error
    }
}

/// A card's nil field (no note, no rating picker) is looked up again in the page around it: the
/// page answers by a switch, as its cards do (`PageViewLookupTests` keeps it equal to reflection).
extension MoviesPage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": chrome
        case "formURL": formURL
        case "year": year
        case "years": years
        case "grid": grid
        case "hasCards": hasCards
        case "countText": countText
        case "emptyMessage": emptyMessage
        case "error": error
        default: nil
        }
    }
}
