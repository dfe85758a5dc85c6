import Foundation
import Hummingbird
import Logging

/// TV Shows (TVMaze index and name search), show detail, TV Favorites, and the save/delete actions.
struct ShowsController {
    static let maxQueryLength = SearchQuery.maxLength
    let shows: ShowCatalog
    let library: LibraryService
    let sessions: SessionService
    let offers: OfferService
    let titles: TitleLookup
    let actions: LibraryActions
    let renderer: PageRenderer
    /// Show pages (shared with the Movies pages' films).
    let titlePages: TitlePages
    /// TV Shows' index and search pages of visitors without a profile.
    let sharedPages: DeclaredCache<SharedPageKey, SharedPage>
    let episodes: EpisodeActions

    func register(on router: RouterGroup<AppRequestContext>) {
        router.on(Route.shows) { request, context in try await list(request, context) }
        router.on(Route.showFavorites) { request, context in try await favorites(request, context) }
        router.on(Route.show) { request, context in try await detail(request, context) }
        router.on(Route.saveShow) { request, context in try await change(request, context) }
        router.on(Route.confirmRemoveShow) { request, context in try await confirmRemove(request, context) }
        router.on(Route.removeShow) { request, context in try await remove(request, context) }
    }

    func list(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        if let q = try FormInput.queryFields(request)["q"], !q.trimmingCharacters(in: .whitespaces).isEmpty {
            guard TextRules.length(q) <= Self.maxQueryLength else {
                return try ErrorPages.badRequest(
                    renderer.for(context), "Search for at most \(Self.maxQueryLength) characters.", backURL: Route.showsPage(1))
            }
            let result = await shows.search(q)
            let view = Listed(shows: result.shows, source: result.source, query: result.query, page: nil, isEnd: true, name: "tv-search")
            return try await listing(view, returnTo: Route.showSearch(result.query), context)
        }
        let pageText = query["page"].map(String.init) ?? "1"
        guard let page = Int(pageText), (1...ShowCatalog.maxPage).contains(page) else {
            return try ErrorPages.badRequest(
                renderer.for(context), "“\(pageText.prefix(20))” is not a page of the TV index (1 to \(ShowCatalog.maxPage)).",
                backURL: Route.showsPage(1))
        }
        let result = await shows.page(page)
        let view = Listed(shows: result.shows, source: result.source, query: nil, page: page, isEnd: result.isEnd, name: "tv-shows-page-\(page)")
        return try await listing(view, returnTo: Route.showsPage(page), context)
    }

    func favorites(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let page: Int
        do { page = try FormInput.pageNumber(request) } catch {
            return try ErrorPages.badRequest(renderer.for(context), error.message, backURL: Route.showFavorites.path)
        }
        let profile = context.profileID
        let result = try await library.list(profile: profile, list: .favorites, page: page, kind: .show)
        let cards = result.items.map { renderer.card(ShowCardView(item: $0, returnTo: Route.showFavorites.path)) }
        let listing = ListingContext(items: result.items, kind: .show, name: "tv-favorites")
        let html = try renderer.html(ShowFavoritesPage(cards: cards, page: result))
        return await renderer.for(context).listingResponse(PageParts(html), listing: listing, offers: offers)
    }

    func detail(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try showID(context)
        let profile = context.profileID
        let seasonQuery = try FormInput.queryFields(request)["season"]
        let open = ShowEpisodesView.OpenPart(query: seasonQuery)
        if let seasonQuery, open == nil {
            return try ErrorPages.badRequest(
                renderer.for(context), "“\(seasonQuery.prefix(20))” is not a season: use a season’s number, or “specials”.",
                backURL: Route.show.link(id))
        }
        switch await titles.show(id, profile: profile) {
        case .found(let show, let source):
            // Who sees which list: the held list's answer and the hour (episodes air), per opened part.
            let held = await episodes.catalog.prepare(showID: id)
            let now = actions.diary.clock.now()
            let listKey = held.map { "\($0.source.rawValue)@\(Int($0.fetchedAt?.timeIntervalSince1970 ?? 0))" } ?? "none"
            let hour = Int(now.timeIntervalSince1970 / 3600)
            return try await titlePages.response(
                "show|\(id)|\(open?.query ?? "")|\(listKey)|\(hour)", source: source.identity, profile: profile, offers: OfferContext(show: show),
                responder: renderer.for(context)
            ) { [library, actions, renderer, episodes] in
                async let saved = library.item(profile: profile, movieID: id, kind: .show)
                let personal = try await actions.personalState(.show, id, profile: profile)
                var view: ShowEpisodesView?
                if let held {
                    let tracked = try await episodes.episodes.show(show, held: held, profile: profile)
                    view = ShowEpisodesView(tracked, showID: id, open: open, hasProfile: profile != nil, row: renderer.row)
                }
                return try renderer.html(
                    ShowDetailPage(show: show, source: source, saved: try await saved, personal: personal, episodes: view, now: now))
            }
        case .notFound:
            return try ErrorPages.notFound(
                renderer.for(context),
                "This show isn’t in the TV catalogue: it may have been removed, or the link is mistyped. Search TV Shows by name, or browse the index."
            )
        case .unavailable:
            return try ErrorPages.fetchFailed(renderer.for(context), retryURL: Route.show.link(id))
        }
    }

    struct ChangeForm: Decodable {
        var favorite: String?
        var rating: String?
        var return_to: String?
    }

    func change(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try showID(context)
        let form = try await FormInput.decode(ChangeForm.self, request, context)
        let wantsJSON = FormInput.wantsJSON(request)
        let returnTo = Route.safeReturnPath(form.return_to, fallback: Route.show.link(id))
        // The Favorite button sends favorite=1 (or nothing, as older pages did); the rating form sends only a rating.
        let favorite: Bool?
        let rating: Int??
        do {
            rating = try FormInput.rating(form.rating)
            favorite = try FormInput.flag(form.favorite, "favorite") ?? (rating == nil ? true : nil)
        } catch {
            return try renderer.for(context).unreadableForm(error.message, wantsJSON: wantsJSON, backURL: returnTo)
        }
        let writer = WriteProfile(context, sessions)
        let outcome = await actions.saveShow(
            id, favorite: favorite, rating: rating, madeAt: try FormInput.madeAt(request), profile: context.profileID, writer: writer.start)
        let fields = [("favorite", favorite.map { $0 ? "1" : "0" }), ("rating", form.rating), ("return_to", returnTo)]
        let retry = RetryForm(action: Route.saveShow.link(id), fields: fields.compactMap { name, value in value.map { (name, $0) } })
        if let failure = try renderer.for(context).libraryFailure(
            outcome, kind: .show, id: id, wantsJSON: wantsJSON, retry: retry, returnTo: returnTo, note: nil
        ) {
            return failure
        }
        let back = Route.back(to: returnTo, show: id)
        let item: LibraryItem? = if case .saved(let saved, _) = outcome { saved } else { nil }
        let state = ShowStateJSON(saved: item?.favorite ?? false, rating: item?.rating)
        let name = item?.title ?? "The show"
        let said =
            favorite == nil
            ? "“\(name)”: " + (item?.rating.map { "rated \(Rating.words($0))." } ?? "rating cleared.")
            : "“\(name)”: " + (item?.favorite == true ? "added to TV Favorites." : "deleted from TV Favorites.")
        var response: Response = wantsJSON ? try JSONAnswer.ok(state) : .redirect(to: back, done: said, context)
        writer.setCookie(on: &response)
        return response
    }

    func confirmRemove(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try showID(context)
        let returnTo = Route.safeReturnPath(request.uri.queryParameters["return_to"].map(String.init), fallback: Route.showFavorites.path)
        guard let item = try await library.item(profile: context.profileID, movieID: id, kind: .show) else {
            return try ErrorPages.notFound(renderer.for(context), "This show isn’t in your favorites.")
        }
        let page = ConfirmRemovePage(
            title: item.title, message: RemovalText.show(title: item.title, rating: item.rating), actionURL: Route.removeShow.link(id),
            returnTo: returnTo, cancelURL: Route.back(to: returnTo, show: id), kindLabel: "TV show")
        return try renderer.for(context).response(page)
    }

    struct RemoveForm: Decodable {
        var return_to: String?
    }

    func remove(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try showID(context)
        let form = try await FormInput.decode(RemoveForm.self, request, context)
        let returnTo = Route.safeReturnPath(form.return_to, fallback: Route.showFavorites.path)
        let wantsJSON = FormInput.wantsJSON(request)
        let outcome = await actions.remove(id, kind: .show, profile: context.profileID, madeAt: try FormInput.madeAt(request))
        let retry = RetryForm(action: Route.removeShow.link(id), fields: [("return_to", returnTo)])
        if let failure = try renderer.for(context).libraryFailure(
            outcome, kind: .show, id: id, wantsJSON: wantsJSON, retry: retry, returnTo: returnTo, note: nil
        ) {
            return failure
        }
        return wantsJSON ? try JSONAnswer.ok(ShowStateJSON(saved: false)) : .redirect(to: returnTo, done: "Deleted from TV Favorites.", context)
    }

    func showID(_ context: AppRequestContext) throws -> Int {
        guard let raw = context.parameters.get("id"), let id = Int(raw), id > 0, id < 100_000_000 else {
            throw HTTPError(.notFound, message: "There is no TV show at this address.")
        }
        return id
    }
}

struct ShowStateJSON: Encodable {
    let saved: Bool
    var rating: Int? = nil
}

extension ShowsController {
    /// A page of TVMaze's shows (the index or a name search) as drawn from one catalogue answer.
    struct Listed: Sendable {
        let shows: [Show]
        let source: CatalogSource
        let query: String?
        let page: Int?
        let isEnd: Bool
        /// The listing's name in a sponsored card's click.
        let name: String
    }

    /// The page with the person's favorites marked on its cards (every visitor without a profile
    /// gets one page per catalogue answer, `Caches.sharedPages`), and this visitor's sponsored cards.
    func listing(_ view: Listed, returnTo: String, _ context: AppRequestContext) async throws -> Response {
        let key = SharedPageKey(page: returnTo, source: view.source.identity)
        @Sendable func render(_ saved: Set<Int>) throws -> (html: String, listing: ListingContext) {
            let cards = view.shows.map { renderer.card(ShowCardView(show: $0, saved: saved.contains($0.id), returnTo: returnTo)) }
            let page = ShowsPage(cards: cards, source: view.source, query: view.query, page: view.page, isEnd: view.isEnd)
            return (
                try renderer.html(page), ListingContext(shows: view.shows, kind: .show, name: view.name)
            )
        }
        guard let profile = context.profileID else {
            let page = try sharedPages.page(key) { try render([]) }
            return await renderer.for(context).listingResponse(page.parts, listing: page.listing, offers: offers)
        }
        // A show's row may hold only a rating: TV Favorites are the rows marked favorite.
        let states = try await library.states(profile: profile, movieIDs: view.shows.map(\.id), kind: .show)
        let made = try render(Set(states.filter(\.value.favorite).keys))
        return await renderer.for(context).listingResponse(PageParts(made.html), listing: made.listing, offers: offers)
    }
}
