import Foundation
import Hummingbird

/// The Movies screen (a year's films) and the movie detail screen.
struct MoviesController {
    let catalog: MovieCatalog
    let library: LibraryService
    let actions: LibraryActions
    let offers: OfferService
    let titles: TitleLookup
    let clock: any AppClock
    let renderer: PageRenderer
    let sharedPages: DeclaredCache<SharedPageKey, SharedPage>
    /// Film pages (shared with the TV pages' shows).
    let titlePages: TitlePages

    func register(on router: RouterGroup<AppRequestContext>) {
        router.on(Route.home) { request, context in try await list(request, context, yearParameter: nil) }
        router.on(Route.movies) { request, context in
            try await list(request, context, yearParameter: request.uri.queryParameters["year"].map(String.init) ?? "")
        }
        router.on(Route.movie) { request, context in try await detail(request, context) }
        router.on(Route.movieNote) { request, context in try await noteForm(request, context) }
    }

    /// `yearParameter` nil means the home page: the current year.
    func list(_ request: Request, _ context: AppRequestContext, yearParameter: String?) async throws -> Response {
        let currentYear = clock.currentYear
        let latest = MovieCatalog.latestYear(current: currentYear)
        var year = currentYear
        if let yearParameter, !yearParameter.isEmpty {
            guard let parsed = Int(yearParameter.trimmingCharacters(in: .whitespaces)),
                (MovieCatalog.firstYear...latest).contains(parsed)
            else {
                let message =
                    Int(yearParameter) == nil
                    ? "“\(yearParameter.prefix(40))” is not a year. Pick a year between \(MovieCatalog.firstYear) and \(latest)."
                    : "There are no films for \(yearParameter) yet. Pick a year between \(MovieCatalog.firstYear) and \(latest)."
                let page = MoviesPage(year: currentYear, currentYear: currentYear, cards: [], source: nil, error: message)
                return try renderer.for(context).response(page, status: .badRequest)
            }
            year = parsed
        }
        let list = await catalog.movies(year: year)
        let returnTo = yearParameter == nil ? Route.home.path : Route.moviesOf(year: year)
        // Anonymous visitors all see the same bytes: render once per catalogue answer.
        let key = SharedPageKey(page: returnTo, source: list.source.identity)
        // The page with `states` on its cards, and the listing its sponsored cards are chosen for.
        let shown = year
        @Sendable func render(_ states: [Int: LibraryItem]) throws -> (html: String, listing: ListingContext) {
            let cards = list.movies.map { renderer.card(MovieCardView(movie: $0, state: states[$0.id], returnTo: returnTo)) }
            let html = try renderer.html(
                MoviesPage(year: shown, currentYear: currentYear, cards: cards, source: list.source, notFetchedYet: list.notFetchedYet))
            return (html, ListingContext(movies: list.movies, kind: .movie, name: "movies-\(shown)"))
        }
        guard let profile = context.profileID else {
            let page = try sharedPages.page(key) { try render([:]) }
            return await renderer.for(context).listingResponse(page.parts, listing: page.listing, offers: offers)
        }
        // The person's page: their state on each card (cards are kept by what they show, `CardFragments`).
        let made = try render(try await library.states(profile: profile, movieIDs: list.movies.map(\.id)))
        return await renderer.for(context).listingResponse(PageParts(made.html), listing: made.listing, offers: offers)
    }

    func detail(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try Self.movieID(context)
        let profile = context.profileID
        switch await titles.movie(id, profile: profile) {
        case .found(let movie, let source):
            return try await titlePages.response(
                "movie|\(id)", source: source.identity, profile: profile, offers: OfferContext(movie: movie), responder: renderer.for(context)
            ) { [library, actions, renderer, clock] in
                async let saved = library.item(profile: profile, movieID: id)
                let personal = try await actions.personalState(.movie, id, profile: profile)
                return try renderer.html(MovieDetailPage(movie: movie, source: source, saved: try await saved, personal: personal, now: clock.now()))
            }
        case .notFound:
            return try ErrorPages.notFound(
                renderer.for(context),
                "This film isn’t in the film catalogue: it may have been removed, or the link is mistyped. Search for it by name, or browse Movies.")
        case .unavailable:
            return try ErrorPages.fetchFailed(renderer.for(context), retryURL: Route.movie.link(id))
        }
    }

    /// The note form as a page: the no-JavaScript version of the note dialog.
    func noteForm(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try Self.movieID(context)
        let returnTo = Route.safeReturnPath(request.uri.queryParameters["return_to"].map(String.init), fallback: Route.movie.link(id))
        guard let saved = try await library.item(profile: context.profileID, movieID: id) else {
            return try ErrorPages.notFound(renderer.for(context), "This film isn’t in your lists, so it has no note yet. Mark it as watched first.")
        }
        let page = NotePage(id: id, title: saved.title, note: saved.note ?? "", returnTo: returnTo, error: nil)
        return try renderer.for(context).response(page)
    }

    static func movieID(_ context: AppRequestContext) throws -> Int {
        guard let raw = context.parameters.get("id"), let id = Int(raw), id > 0 else {
            throw HTTPError(.notFound, message: "There is no film at this address.")
        }
        return id
    }
}
