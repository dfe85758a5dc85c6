import Foundation
import Hummingbird
import Logging

/// My Lists, and the form actions behind every Favorite / Watched / note / remove button.
/// Forms POST and redirect back; the same endpoints answer JSON to `fetch` (Accept: application/json).
struct LibraryController {
    let library: LibraryService
    let sessions: SessionService
    let actions: LibraryActions
    let offers: OfferService
    let renderer: PageRenderer

    func register(on router: RouterGroup<AppRequestContext>) {
        router.on(Route.library) { request, context in try await listPage(request, context) }
        router.on(Route.saveMovie) { request, context in try await change(request, context) }
        router.on(Route.confirmRemoveMovie) { request, context in try await confirmRemove(request, context) }
        router.on(Route.removeMovie) { request, context in try await remove(request, context) }
    }

    func listPage(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        // The query is read once, for the list, the page and the filter.
        let query = try FormInput.queryFields(request)
        let listName = query["list"] ?? LibraryList.all.rawValue
        guard let list = LibraryList(rawValue: listName) else {
            return try ErrorPages.badRequest(
                renderer.for(context), "There is no list called “\(listName.prefix(40))”. Choose Favorites, Watched or All.",
                backURL: Route.libraryList(.all))
        }
        let page: Int
        do { page = try FormInput.pageNumber(query["page"]) } catch {
            return try ErrorPages.badRequest(renderer.for(context), error.message, backURL: Route.libraryList(list))
        }
        let filter: LibraryFilter
        do { filter = try ListFilterView.parse { query[$0] } } catch {
            return try ErrorPages.badRequest(renderer.for(context), error.message, backURL: Route.libraryList(list))
        }
        // The filter form sent without JavaScript names every field, empty or not: the clean address instead.
        if ListFilterView.carriesDefaults(query) {
            return .redirect(to: Route.libraryList(list, page: page, filter: filter), type: .normal)
        }
        guard let profile = context.profileID else {
            let empty = LibraryPage(items: [], total: 0, page: page)
            return try renderer.for(context).response(MyListsPage(list: list, filter: filter, genres: [], page: empty, renderer: renderer))
        }
        async let genreChoices = library.genres(profile: profile)
        let result = try await library.list(profile: profile, list: list, page: page, filter: filter)
        let html = try renderer.html(MyListsPage(list: list, filter: filter, genres: try await genreChoices, page: result, renderer: renderer))
        let listing = ListingContext(items: result.items, kind: filter.kind, name: "my-lists")
        return await renderer.for(context).listingResponse(PageParts(html), listing: listing, offers: offers)
    }

    struct ChangeForm: Decodable {
        var favorite: String?
        var watched: String?
        var note: String?
        var rating: String?
        var return_to: String?
        /// "1": un-marking Watched may remove the film and its note (the person was asked).
        var confirm: String?
    }

    func change(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try MoviesController.movieID(context)
        let form = try await FormInput.decode(ChangeForm.self, request, context)
        let wantsJSON = FormInput.wantsJSON(request)
        let returnTo = Route.safeReturnPath(form.return_to, fallback: Route.movie.link(id))
        var change: LibraryChange
        do {
            change = LibraryChange(
                favorite: try FormInput.flag(form.favorite, "favorite"), watched: try FormInput.flag(form.watched, "watched"),
                note: form.note.map { .some($0) }, rating: try FormInput.rating(form.rating)
            )
        } catch {
            return try renderer.for(context).unreadableForm(error.message, wantsJSON: wantsJSON, backURL: returnTo)
        }
        change.madeAt = try FormInput.madeAt(request)
        if form.confirm != "1", let asked = try await askBeforeLosingNote(id, change, context, wantsJSON: wantsJSON, returnTo: returnTo) {
            return asked
        }
        let writer = WriteProfile(context, sessions)
        let outcome = await actions.saveMovie(id, change: change, profile: context.profileID, writer: writer.start)
        // Without JavaScript, Retry posts the same change again.
        let fields = [("favorite", form.favorite), ("watched", form.watched), ("note", form.note), ("return_to", returnTo)]
        let retry = RetryForm(action: Route.saveMovie.link(id), fields: fields.compactMap { name, value in value.map { (name, $0) } })
        if let failure = try renderer.for(context).libraryFailure(
            outcome, kind: .movie, id: id, wantsJSON: wantsJSON, retry: retry, returnTo: returnTo, note: form.note
        ) {
            return failure
        }
        guard case .saved(let item, let before) = outcome else { return .redirect(to: returnTo, type: .normal) }
        let justWatched = change.watched == true && before?.watched != true && form.note == nil
        let said = ChangeWords.movie(title: item?.title ?? before?.title ?? "This film", change: change, item: item)
        var response: Response =
            wantsJSON
            ? try JSONAnswer.ok(LibraryStateJSON(item: item, offerNote: justWatched, said: said))
            : .redirect(to: justWatched ? Route.note(id, returnTo: returnTo) : Route.back(to: returnTo, movie: id), done: said, context)
        writer.setCookie(on: &response)
        return response
    }

    /// Un-marking Watched on a film that is not a favorite removes it, and its note with it: the
    /// person is asked first (the confirm page, or a 409 app.js turns into the confirm dialog).
    /// Nil when nothing would be lost.
    private func askBeforeLosingNote(
        _ id: Int, _ change: LibraryChange, _ context: AppRequestContext, wantsJSON: Bool, returnTo: String
    ) async throws -> Response? {
        guard change.watched == false, change.favorite != true, change.note == nil,
            let item = try await library.item(profile: context.profileID, movieID: id),
            item.watched, !item.favorite, item.rating == nil, change.rating == nil, let note = item.note, !note.isEmpty
        else { return nil }
        let page = ConfirmRemovePage(
            title: item.title, message: RemovalText.unwatching(title: item.title, item: item), actionURL: Route.removeMovie.link(id),
            returnTo: returnTo, cancelURL: Route.back(to: returnTo, movie: id), unwatching: true)
        guard wantsJSON else { return try renderer.for(context).response(page) }
        struct Question: Encodable {
            let type = "about:blank", title = "Confirm", status = 409
            let detail: String
            let confirm = "unwatch"
        }
        return try JSONAnswer.ok(Question(detail: page.message), status: .conflict)
    }

    func confirmRemove(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try MoviesController.movieID(context)
        let returnTo = Route.safeReturnPath(request.uri.queryParameters["return_to"].map(String.init), fallback: Route.libraryList(.all))
        guard let item = try await library.item(profile: context.profileID, movieID: id) else {
            return try ErrorPages.notFound(renderer.for(context), "This film isn’t in your lists.")
        }
        let watches = try await actions.diary.watches(profile: context.profileID, kind: .movie, itemID: String(id)).count
        return try renderer.for(context).response(
            ConfirmRemovePage(
                title: item.title, message: RemovalText.movie(title: item.title, item: item, watches: watches),
                actionURL: Route.removeMovie.link(id), returnTo: returnTo, cancelURL: Route.back(to: returnTo, movie: id)))
    }

    struct RemoveForm: Decodable {
        var return_to: String?
    }

    func remove(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try MoviesController.movieID(context)
        let form = try await FormInput.decode(RemoveForm.self, request, context)
        let returnTo = Route.safeReturnPath(form.return_to, fallback: Route.libraryList(.all))
        let wantsJSON = FormInput.wantsJSON(request)
        let outcome = await actions.remove(id, kind: .movie, profile: context.profileID, madeAt: try FormInput.madeAt(request))
        if let failure = try renderer.for(context).libraryFailure(
            outcome, kind: .movie, id: id, wantsJSON: wantsJSON, retry: nil, returnTo: returnTo, note: nil
        ) {
            return failure
        }
        let said = "Removed from My Lists."
        return wantsJSON
            ? try JSONAnswer.ok(LibraryStateJSON(item: nil, offerNote: false, said: said)) : .redirect(to: returnTo, done: said, context)
    }
}
