import Foundation
import Hummingbird
import Mustache

/// The Movies screen (a year's films) and the movie detail screen.
struct MoviesController {
    static let firstYear = 1950
    /// The API takes years up to this (its schema's maximum); a year after the current one is an empty list.
    static let lastAPIYear = 2100
    let services: AppServices
    let renderer: PageRenderer
    let sharedPages: RenderedPageCache

    func register(on router: Router<AppRequestContext>) {
        router.get("/") { request, context in try await list(request, context, yearParameter: nil) }
        router.get("/movies") { request, context in
            try await list(request, context, yearParameter: request.uri.queryParameters["year"].map(String.init) ?? "")
        }
        router.get("/movies/:id") { request, context in try await detail(request, context) }
        router.get("/movies/:id/note") { request, context in try await noteForm(request, context) }
    }

    /// `yearParameter` nil means the home page: the current year.
    func list(_ request: Request, _ context: AppRequestContext, yearParameter: String?) async throws -> Response {
        let currentYear = services.currentYear
        var year = currentYear
        if let yearParameter, !yearParameter.isEmpty {
            guard let parsed = Int(yearParameter.trimmingCharacters(in: .whitespaces)),
                  (Self.firstYear...currentYear).contains(parsed)
            else {
                let message = Int(yearParameter) == nil
                    ? "“\(yearParameter.prefix(40))” is not a year. Pick a year between \(Self.firstYear) and \(currentYear)."
                    : "There are no films for \(yearParameter) yet. Pick a year between \(Self.firstYear) and \(currentYear)."
                let page = MoviesPage(year: currentYear, currentYear: currentYear, cards: [], source: nil, error: message)
                return try renderer.response("movies", page, status: .badRequest)
            }
            year = parsed
        }
        let list = await services.catalog.movies(year: year)
        let returnTo = yearParameter == nil ? Paths.home : Paths.movies(year: year)
        // Anonymous visitors all see the same bytes: render once per catalogue answer.
        let key = "\(returnTo)|\(list.source.identity)"
        guard let profile = context.profileID else {
            let page = try sharedPages.get(key) ?? sharedPages.put(key, renderer.html("movies", MoviesPage(
                year: year, currentYear: currentYear, cards: list.movies.map { MovieCardView(movie: $0, state: nil, returnTo: returnTo) },
                source: list.source
            )), listing: ListingContext(movies: list.movies, kind: .movie, key: key))
            return await renderer.listingResponse(page.parts, listing: page.listing, offers: services.offers, visitor: context.visitor)
        }
        let states = try await services.library.states(profile: profile, movieIDs: list.movies.map(\.id))
        let cards = list.movies.map { MovieCardView(movie: $0, state: states[$0.id], returnTo: returnTo) }
        let page = MoviesPage(year: year, currentYear: currentYear, cards: cards, source: list.source)
        return try await renderer.listingResponse(
            "movies", page, listing: ListingContext(movies: list.movies, kind: .movie, key: key), offers: services.offers, visitor: context.visitor
        )
    }

    func detail(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try movieID(context)
        let saved = try await services.library.item(profile: context.profileID, movieID: id)
        switch await resolveMovie(id, profile: context.profileID) {
        case .found(let movie, let source):
            let offers = await services.offers.forTitle(OfferContext(movie: movie), visitor: context.visitor)
            let page = MovieDetailPage(movie: movie, source: source, saved: saved, offers: offers)
            return try renderer.response("movie", page)
        case .notFound:
            return try ErrorPages.notFound(renderer, "We couldn’t find a film with the id \(id) on iTunes.")
        case .unavailable:
            return try ErrorPages.fetchFailed(renderer, retryURL: Paths.movie(id))
        }
    }

    /// The note form as a page: the no-JavaScript version of the note dialog.
    func noteForm(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try movieID(context)
        let returnTo = Paths.safeReturnPath(request.uri.queryParameters["return_to"].map(String.init), fallback: Paths.movie(id))
        guard let saved = try await services.library.item(profile: context.profileID, movieID: id) else {
            return try ErrorPages.notFound(renderer, "This film isn’t in your lists, so it has no note yet. Mark it as watched first.")
        }
        let page = NotePage(id: id, title: saved.title, note: saved.note ?? "", returnTo: returnTo, error: nil)
        return try renderer.response("note", page)
    }

    /// A film from the catalogue, or the snapshot saved with the visitor's lists.
    func resolveMovie(_ id: Int, profile: UUID?) async -> MovieLookup {
        let lookup = await services.catalog.movie(id: id)
        if case .unavailable = lookup, let snapshot = try? await services.library.snapshot(profile: profile, movieID: id) {
            return .found(snapshot.movie, .stale(savedOn: snapshot.savedAt))
        }
        return lookup
    }

    func movieID(_ context: AppRequestContext) throws -> Int {
        guard let raw = context.parameters.get("id"), let id = Int(raw), id > 0 else {
            throw HTTPError(.notFound, message: "There is no film at this address.")
        }
        return id
    }
}

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

struct MoviesPage {
    let chrome: Chrome
    let year: Int
    let years: [YearOption]
    let groups: [CardGroup<MovieCardView>]
    let hasCards: Bool
    let countText: String
    let emptyMessage: String
    let error: String?

    init(year: Int, currentYear: Int, cards: [MovieCardView], source: CatalogSource?, error: String? = nil) {
        chrome = Chrome(
            error == nil ? "Movies of \(year)" : "Movies", tab: .movies, notice: source.flatMap { Formats.sourceNotice($0) }
        )
        self.year = year
        years = (MoviesController.firstYear...currentYear).reversed().map { YearOption(value: $0, selected: $0 == year) }
        groups = SponsoredSlots.groups(cards)
        hasCards = !cards.isEmpty
        countText = cards.count == 1 ? "1 film" : "\(cards.count) films"
        emptyMessage = source == .offlineCatalogue
            ? "No films from \(year) are in the offline catalogue. Try again when you’re back online, or pick another year."
            : "No films from \(year) were found on iTunes. Pick another year."
        self.error = error
    }
}
