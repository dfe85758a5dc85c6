import Foundation
import Hummingbird
import Logging

/// The Search tab: one title field; the best match in full, then other films and TV shows.
/// Opening it without a query shows the visitor's last search (from the database, so offline too).
struct SearchController {
    let search: SearchService
    let library: LibraryService
    let clock: any AppClock
    let offers: OfferService
    let logger: Logger
    let renderer: PageRenderer

    func register(on router: RouterGroup<AppRequestContext>) {
        router.on(Route.search) { request, context in try await page(request, context) }
        router.on(Route.removeRecentSearch) { request, context in try await removeRecent(request, context) }
    }

    func page(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let parameters = try FormInput.queryFields(request)
        let done = parameters["done"]
        guard let raw = parameters["q"] else {
            return try await remembered(request, context, done: done)
        }
        let query: SearchQuery
        do {
            query = try SearchQuery(raw)
        } catch {
            let page = SearchPage(query: String(raw.prefix(SearchQuery.maxLength)), messages: [SearchMessage(.error, error.message)])
            return try renderer.for(context).response(page, status: .badRequest)
        }
        switch await search.search(query) {
        case .failed(let error):
            logger.notice("search failed", metadata: ["error": "\(error)"])
            let page = SearchPage(query: query.text, messages: [Self.failureMessage(error, retryURL: Route.searchFor(query.text))])
            return try renderer.for(context).response(page, status: .serviceUnavailable)
        case .results(let result):
            // A search another site linked or embedded (`FetchMetadata.isOwnRequest`) is shown but
            // does not replace the person's last search; nor does the offline worker keeping an
            // older search in the background (that would move it above the newer ones).
            let metadata = FetchMetadata(request.headers)
            return try await results(
                result, of: query, request, context, done: done, remember: metadata.isOwnRequest && !metadata.isBackgroundKeep)
        }
    }

    private func results(
        _ result: SearchResult, of query: SearchQuery, _ request: Request, _ context: AppRequestContext, done: String?, remember: Bool
    ) async throws -> Response {
        var cookies: [Cookie] = []
        var visitorHistory: [SearchHistoryEntry]?  // No profile: the last and recent searches live in cookies (a GET makes no rows).
        if context.profileID == nil {
            visitorHistory = VisitorSearches.read(request, context)
            if remember {
                let now = clock.now()
                if let last = result.lastSearch(at: now) {
                    cookies.append(context.cookies.make(CookieJar.lastSearch, Self.cookieValue(last), maxAge: VisitorSearches.maxAge))
                }
                let recent = VisitorSearches.adding(query, at: now, to: visitorHistory ?? [])
                cookies.append(VisitorSearches.cookie(recent, context))
                visitorHistory = recent
            }
        }
        // The person's writes (their last and recent searches) come first; the page then shows them.
        let (history, messages) = await record(result, of: query, context, remember: remember, visitorHistory: visitorHistory)
        let made = try await render(result, of: query, context, done: done, messages: messages, history: history)
        var response = await renderer.for(context).listingResponse(PageParts(made.html), listing: made.listing, offers: offers)
        for cookie in cookies { response.setCookie(cookie) }
        return response
    }

    /// The search kept as the person's last and recent one (when it is theirs to keep); the recent
    /// searches to show, and what could not be kept. A failed write loses only that: the search
    /// itself was answered.
    private func record(
        _ result: SearchResult, of query: SearchQuery, _ context: AppRequestContext, remember: Bool, visitorHistory: [SearchHistoryEntry]?
    ) async -> (history: [SearchHistoryEntry], messages: [SearchMessage]) {
        if let visitorHistory { return (visitorHistory, []) }
        guard remember, let profile = context.profileID else { return (await recent(context), []) }
        var messages: [SearchMessage] = []
        if result.isRememberable {
            do {
                try await search.remember(result, profile: profile)
            } catch {
                logger.error("remembering the search failed", metadata: ["error": "\(error)"])
                messages.append(SearchMessage(.error, "This search could not be saved as your last search; the previous one is kept."))
            }
        }
        return (await record(query, profile: profile, context), messages)
    }

    /// The page: the person's state on each title, `messages` first.
    private func render(
        _ result: SearchResult, of query: SearchQuery, _ context: AppRequestContext, done: String?, messages: [SearchMessage],
        history: [SearchHistoryEntry]
    ) async throws -> (html: String, listing: ListingContext) {
        let returnTo = Route.searchFor(result.query)
        var messages = messages
        if let message = Self.omdbMessage(result.omdb) { messages.append(message) }
        if result.movies.isEmpty { messages.append(Self.noFilmsMessage(result)) }
        let profile = context.profileID
        let movieStates = try await library.states(profile: profile, movieIDs: result.movies.map(\.id))
        let showStates = try await library.states(profile: profile, movieIDs: result.shows.map(\.id), kind: .show)
        let best = result.bestMatch.map { BestMatchView(movie: $0, details: result.omdb?.details, saved: movieStates[$0.id], returnTo: returnTo) }
        let page = SearchPage(
            query: result.query, messages: messages, source: result.source, showSource: result.showSource,
            bestHeading: best == nil ? nil : "Best match",
            best: best,
            otherCards: result.otherMovies.map { MovieCardView(movie: $0, state: movieStates[$0.id], returnTo: returnTo) },
            showCards: result.shows.map { ShowCardView(show: $0, saved: showStates[$0.id]?.favorite == true, returnTo: returnTo) },
            flash: best.flatMap { Self.flash($0, done: done) }
        ).withHistory(history, returnTo: returnTo)
        let listing = ListingContext(movies: result.movies, shows: result.shows, kind: nil, name: "search")
        return (try renderer.html(page), listing)
    }

    /// `<unix seconds> <query>`, percent-encoded: a visitor's last search without a database row.
    static func cookieValue(_ last: LastSearch) -> String {
        PercentEncoding.query("\(Int(last.searchedAt.timeIntervalSince1970)) \(last.query)")
    }

    /// The last search of a visitor without a profile, from its cookie (the search runs again).
    private func cookieLastSearch(_ request: Request, _ context: AppRequestContext) async -> LastSearch? {
        guard let value = context.cookies.value(CookieJar.lastSearch, in: request)?.removingPercentEncoding,
            let space = value.firstIndex(of: " "), let seconds = Int(value[..<space]),
            let query = try? SearchQuery(String(value[value.index(after: space)...]))
        else { return nil }
        return await search.last(query: query, searchedAt: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// No query: the last search (from the database, or a visitor's cookie), else a welcome
    /// (online) or an error (offline).
    private func remembered(_ request: Request, _ context: AppRequestContext, done: String?) async throws -> Response {
        let last: LastSearch?
        do {
            last = try await context.profileID == nil ? cookieLastSearch(request, context) : search.last(profile: context.profileID)
        } catch {
            logger.error("reading the last search failed", metadata: ["error": "\(error)"])
            let page = SearchPage(
                query: "", messages: [SearchMessage(.error, "Your last search could not be loaded just now. You can still search.")])
            return try renderer.for(context).response(page, status: .serviceUnavailable)
        }
        let history = context.profileID == nil ? VisitorSearches.read(request, context) : await recent(context)
        guard let last else {
            if await search.isOnline() {
                let page = SearchPage(query: "", messages: [SearchMessage(.welcome, SearchPage.welcome, heading: "Find a film or a show")])
                return try renderer.for(context).response(page.withHistory(history, returnTo: Route.search.path))
            }
            let page = SearchPage(query: "", messages: [SearchMessage(.error, SearchPage.offlineNoSearch, heading: "No connection")])
            return try renderer.for(context).response(page.withHistory(history, returnTo: Route.search.path), status: .serviceUnavailable)
        }
        let saved = try await library.item(profile: context.profileID, movieID: last.movie.id)
        let best = BestMatchView(movie: last.movie, details: last.details, saved: saved, returnTo: Route.search.path)
        let page = SearchPage(
            query: last.query, messages: [SearchMessage(.info, "Your last search, “\(last.query)”, on", moment: Moment(last.searchedAt))],
            bestHeading: "Your last search", best: best, flash: Self.flash(best, done: done)
        ).withHistory(history, returnTo: Route.search.path)
        return try renderer.for(context).response(page)
    }

    /// What the no-JavaScript collection button did, confirmed against the database: a link cannot
    /// claim a save that did not happen.
    static func flash(_ best: BestMatchView, done: String?) -> String? {
        switch done {
        case SearchPage.doneAdded where best.film.favorite: "“\(best.film.title)”: \(SearchPage.added)."
        case SearchPage.doneRemoved where !best.film.favorite: "“\(best.film.title)”: \(SearchPage.removed)."
        default: nil
        }
    }

    static func failureMessage(_ error: UpstreamError, retryURL: String? = nil) -> SearchMessage {
        SearchMessage(.error, SearchTexts.failure(error), heading: ErrorTexts.title, retryURL: retryURL)
    }
}

/// Recent searches: each answered search of a person with a profile joins them; each can be run
/// again (a link) or removed (a form).
extension SearchController {
    struct RemoveRecentForm: Decodable {
        var return_to: String?
    }

    /// The person's recent searches; a failed read lists none (the rest of the page still works).
    func recent(_ context: AppRequestContext) async -> [SearchHistoryEntry] {
        do {
            return try await search.recentSearches(profile: context.profileID)
        } catch {
            logger.error("reading recent searches failed", metadata: ["error": "\(error)"])
            return []
        }
    }

    /// Records the search and returns the recent searches after it. A failed write loses only this
    /// entry of the history; the search itself was answered.
    func record(_ query: SearchQuery, profile: UUID, _ context: AppRequestContext) async -> [SearchHistoryEntry] {
        do {
            return try await search.recordInHistory(query, profile: profile)
        } catch {
            logger.error("recording the search in the history failed", metadata: ["error": "\(error)"])
            return await recent(context)
        }
    }

    func removeRecent(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let form = try await FormInput.decode(RemoveRecentForm.self, request, context)
        let returnTo = Route.safeReturnPath(form.return_to, fallback: Route.search.path)
        let wantsJSON = FormInput.wantsJSON(request)
        guard let raw = context.parameters.get("id"), let id = UUID(uuidString: raw) else {
            return try notRecent(wantsJSON, context)
        }
        if context.profileID == nil {
            // A visitor without a profile: the list is their cookie.
            let entries = VisitorSearches.read(request, context)
            guard entries.contains(where: { $0.id == id }) else { return try notRecent(wantsJSON, context) }
            var response: Response = wantsJSON ? .init(status: .noContent) : .redirect(to: returnTo, type: .normal)
            response.setCookie(VisitorSearches.cookie(entries.filter { $0.id != id }, context))
            return response
        }
        guard try await search.removeFromHistory(id, profile: context.profileID) else { return try notRecent(wantsJSON, context) }
        return wantsJSON ? .init(status: .noContent) : .redirect(to: returnTo, type: .normal)
    }

    private func notRecent(_ wantsJSON: Bool, _ context: AppRequestContext) throws -> Response {
        let message = "That search is not among your recent searches (it may have been removed already)."
        if wantsJSON { return try JSONAnswer.error(.notFound, message) }
        return try ErrorPages.notFound(renderer.for(context), message)
    }
}
