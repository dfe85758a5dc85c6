import Foundation
import Hummingbird

/// TV Shows (TVMaze index and name search), show detail, TV Favorites, and the save/delete actions.
struct ShowsController {
    static let maxQueryLength = SearchQuery.maxLength
    let services: AppServices
    let renderer: PageRenderer

    func register(on router: Router<AppRequestContext>) {
        router.get("/shows") { request, context in try await list(request, context) }
        router.get("/shows/favorites") { request, context in try await favorites(request, context) }
        router.get("/shows/:id") { request, context in try await detail(request, context) }
        router.post("/library/shows/:id") { request, context in try await change(request, context) }
        router.get("/library/shows/:id/remove") { request, context in try await confirmRemove(request, context) }
        router.post("/library/shows/:id/remove") { request, context in try await remove(request, context) }
    }

    func list(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        if let q = try FormInput.decodeQuery(FormInput.SearchParameters.self, request).q, !q.trimmingCharacters(in: .whitespaces).isEmpty {
            guard q.count <= Self.maxQueryLength else {
                return try ErrorPages.badRequest(renderer, "Search for at most \(Self.maxQueryLength) characters.", backURL: Paths.shows(page: 1))
            }
            let result = await services.shows.search(q)
            let saved = try await savedIDs(context.profileID, result.shows)
            let returnTo = Paths.showSearch(result.query)
            let cards = result.shows.map { ShowCardView(show: $0, saved: saved.contains($0.id), returnTo: returnTo) }
            let page = ShowsPageView(cards: cards, source: result.source, query: result.query, page: nil, isEnd: true)
            return try await renderer.listingResponse("shows", page, listing: ListingContext(shows: result.shows, kind: .show, key: "\(returnTo)|\(result.source.identity)"), offers: services.offers, visitor: context.visitor)
        }
        let pageText = query["page"].map(String.init) ?? "1"
        guard let page = Int(pageText), (1...ShowCatalog.maxPage).contains(page) else {
            return try ErrorPages.badRequest(renderer, "“\(pageText.prefix(20))” is not a page of the TV index (1 to \(ShowCatalog.maxPage)).", backURL: Paths.shows(page: 1))
        }
        let result = await services.shows.page(page)
        let saved = try await savedIDs(context.profileID, result.shows)
        let returnTo = Paths.shows(page: page)
        let cards = result.shows.map { ShowCardView(show: $0, saved: saved.contains($0.id), returnTo: returnTo) }
        let view = ShowsPageView(cards: cards, source: result.source, query: nil, page: page, isEnd: result.isEnd)
        return try await renderer.listingResponse("shows", view, listing: ListingContext(shows: result.shows, kind: .show, key: "\(returnTo)|\(result.source.identity)"), offers: services.offers, visitor: context.visitor)
    }

    private func savedIDs(_ profile: UUID?, _ shows: [Show]) async throws -> Set<Int> {
        Set(try await services.library.states(profile: profile, movieIDs: shows.map(\.id), kind: .show).keys)
    }

    func favorites(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let pageText = request.uri.queryParameters["page"].map(String.init) ?? "1"
        guard let page = Int(pageText), page >= 1, page <= 100_000 else {
            return try ErrorPages.badRequest(renderer, "“\(pageText.prefix(20))” is not a page number.", backURL: Paths.showFavorites)
        }
        let result = try await services.library.list(profile: context.profileID, list: .favorites, page: page, kind: .show)
        let cards = result.items.map { ShowCardView(item: $0, returnTo: Paths.showFavorites) }
        return try renderer.response("show_favorites", ShowFavoritesPageView(cards: cards, page: result))
    }

    func detail(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try showID(context)
        let saved = try await services.library.item(profile: context.profileID, movieID: id, kind: .show) != nil
        switch await resolveShow(id, profile: context.profileID) {
        case .found(let show, let source):
            let offers = await services.offers.forTitle(OfferContext(show: show), visitor: context.visitor)
            return try renderer.response("show", ShowDetailPage(show: show, source: source, saved: saved, offers: offers))
        case .notFound:
            return try ErrorPages.notFound(renderer, "TVMaze has no show with the id \(id).")
        case .unavailable:
            return try ErrorPages.fetchFailed(renderer, retryURL: Paths.show(id))
        }
    }

    /// A show from TVMaze (or its cache), else the snapshot saved with the visitor's favourites.
    func resolveShow(_ id: Int, profile: UUID?) async -> ShowLookup {
        let lookup = await services.shows.show(id: id)
        if case .unavailable = lookup, let snapshot = try? await services.library.showSnapshot(profile: profile, showID: id) {
            return .found(snapshot.show, .stale(savedOn: snapshot.savedAt))
        }
        return lookup
    }

    struct ChangeForm: Decodable {
        var favorite: String?
        var return_to: String?
    }

    func change(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try showID(context)
        let form = try await FormInput.decode(ChangeForm.self, request, context)
        let wantsJSON = FormInput.wantsJSON(request)
        let returnTo = Paths.safeReturnPath(form.return_to, fallback: Paths.show(id))
        let favorite: Bool
        do {
            favorite = try FormInput.flag(form.favorite, "favorite") ?? true
        } catch {
            return try wantsJSON ? JSONAnswer.error(.badRequest, error.message) : ErrorPages.badRequest(renderer, error.message, backURL: returnTo)
        }
        let retry = RetryForm(action: Paths.libraryShow(id), fields: [("favorite", favorite ? "1" : "0"), ("return_to", returnTo)])
        let show: Show
        switch await resolveShow(id, profile: context.profileID) {
        case .found(let found, _): show = found
        case .notFound:
            let message = "TVMaze has no show with the id \(id)."
            return try wantsJSON ? JSONAnswer.error(.notFound, message) : ErrorPages.notFound(renderer, message)
        case .unavailable:
            return try wantsJSON ? JSONAnswer.error(.serviceUnavailable, ErrorTexts.fetchFailed)
                : ErrorPages.retry(renderer, message: ErrorTexts.fetchFailed, form: retry)
        }
        var cookie: Cookie?
        do {
            let profile: UUID
            (profile, cookie) = try await SessionCookie.profileForWrite(context, services.sessions)
            try await services.library.update(profile: profile, show: show, favorite: favorite)
        } catch {
            services.logger.error("show save failed", metadata: ["error": "\(error)"])
            return try wantsJSON ? JSONAnswer.error(.serviceUnavailable, ErrorTexts.saveShowFailed)
                : ErrorPages.retry(renderer, message: ErrorTexts.saveShowFailed, form: retry)
        }
        // Saved shows must open offline with their posters: fetch them into the poster cache now.
        if favorite { await services.posters.prefetch([show.imageMedium, show.imageOriginal].compactMap { $0 }) }
        var response: Response = wantsJSON
            ? try JSONAnswer.ok(ShowStateJSON(saved: favorite))
            : .redirect(to: returnTo, type: .normal)
        if let cookie { response.setCookie(cookie) }
        return response
    }

    func confirmRemove(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try showID(context)
        let returnTo = Paths.safeReturnPath(request.uri.queryParameters["return_to"].map(String.init), fallback: Paths.showFavorites)
        guard let item = try await services.library.item(profile: context.profileID, movieID: id, kind: .show) else {
            return try ErrorPages.notFound(renderer, "This show isn’t in your favourites.")
        }
        let page = ConfirmRemovePage(title: item.title, actionURL: Paths.removeShow(id), returnTo: returnTo, kindLabel: "TV show")
        return try renderer.response("confirm_remove", page)
    }

    struct RemoveForm: Decodable {
        var return_to: String?
    }

    func remove(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try showID(context)
        let form = try await FormInput.decode(RemoveForm.self, request, context)
        let returnTo = Paths.safeReturnPath(form.return_to, fallback: Paths.showFavorites)
        let wantsJSON = FormInput.wantsJSON(request)
        let notInFavorites = {
            let message = "This show isn’t in your favourites."
            return try wantsJSON ? JSONAnswer.error(.notFound, message) : ErrorPages.notFound(renderer, message)
        }
        guard let profile = context.profileID else { return try notInFavorites() }
        do {
            // Only the caller's own entry can go: another person's (or none) is a 404.
            guard try await services.library.remove(profile: profile, movieID: id, kind: .show) else { return try notInFavorites() }
        } catch {
            services.logger.error("show delete failed", metadata: ["error": "\(error)"])
            let retry = RetryForm(action: Paths.removeShow(id), fields: [("return_to", returnTo)])
            return try wantsJSON ? JSONAnswer.error(.serviceUnavailable, ErrorTexts.saveShowFailed)
                : ErrorPages.retry(renderer, message: ErrorTexts.saveShowFailed, form: retry)
        }
        return wantsJSON ? try JSONAnswer.ok(ShowStateJSON(saved: false)) : .redirect(to: returnTo, type: .normal)
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
}
