import Foundation
import Hummingbird

/// My Lists, and the form actions behind every Favorite / Watched / note / remove button.
/// Forms POST and redirect back; the same endpoints answer JSON to `fetch` (Accept: application/json).
struct LibraryController {
    let services: AppServices
    let renderer: PageRenderer
    let movies: MoviesController
    let pages: PersonalPageCache

    func register(on router: Router<AppRequestContext>) {
        router.get("/library") { request, context in try await listPage(request, context) }
        router.post("/library/movies/:id") { request, context in try await change(request, context) }
        router.get("/library/movies/:id/remove") { request, context in try await confirmRemove(request, context) }
        router.post("/library/movies/:id/remove") { request, context in try await remove(request, context) }
    }

    func listPage(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let listName = request.uri.queryParameters["list"].map(String.init) ?? LibraryList.all.rawValue
        guard let list = LibraryList(rawValue: listName) else {
            return try ErrorPages.badRequest(renderer, "There is no list called “\(listName.prefix(40))”. Choose Favorites, Watched or All.", backURL: Paths.library(.all))
        }
        let pageText = request.uri.queryParameters["page"].map(String.init) ?? "1"
        guard let page = Int(pageText), page >= 1, page <= 100_000 else {
            return try ErrorPages.badRequest(renderer, "“\(pageText.prefix(20))” is not a page number.", backURL: Paths.library(list))
        }
        let kindText = request.uri.queryParameters["kind"].map(String.init)
        let kind = kindText.flatMap(MediaKind.init(rawValue:))
        if let kindText, kind == nil {
            return try ErrorPages.badRequest(renderer, "“\(kindText.prefix(20))” is not a kind of title. Choose movie or show.", backURL: Paths.library(list))
        }
        guard let profile = context.profileID else {
            let empty = LibraryPage(items: [], total: 0, page: page)
            return try renderer.response("library", LibraryPageView(list: list, kind: kind, page: empty))
        }
        // Read before the query: a write that lands meanwhile bumps it, so the page is not reused.
        let version = services.library.versions.current(profile)
        let key = "\(profile)|\(list.rawValue)|\(kind?.rawValue ?? "any")|\(page)"
        if let cached = pages.get(key, version: version) { return cached.response() }
        // Concurrent requests for the same page and version share one query and one render.
        let rendered = await pages.rendering.run("\(key)|\(version)") { [services, renderer, pages] in
            do {
                let result = try await services.library.list(profile: profile, list: list, page: page, kind: kind)
                let html = try renderer.html("library", LibraryPageView(list: list, kind: kind, page: result))
                return .success(pages.put(key, version: version, html: html))
            } catch {
                return .failure(error)
            }
        }
        return try rendered.get().response()
    }

    struct ChangeForm: Decodable {
        var favorite: String?
        var watched: String?
        var note: String?
        var return_to: String?
    }

    func change(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try movies.movieID(context)
        let form = try await FormInput.decode(ChangeForm.self, request, context)
        let wantsJSON = FormInput.wantsJSON(request)
        let returnTo = Paths.safeReturnPath(form.return_to, fallback: Paths.movie(id))
        let change: LibraryChange
        do {
            change = LibraryChange(favorite: try FormInput.flag(form.favorite, "favorite"), watched: try FormInput.flag(form.watched, "watched"), note: form.note.map { .some($0) })
        } catch {
            return try wantsJSON ? JSONAnswer.error(.badRequest, error.message) : ErrorPages.badRequest(renderer, error.message, backURL: returnTo)
        }
        let movie: Movie
        switch await movies.resolveMovie(id, profile: context.profileID) {
        case .found(let found, _):
            movie = found
        case .notFound:
            let message = "We couldn’t find a film with the id \(id) on iTunes."
            return try wantsJSON ? JSONAnswer.error(.notFound, message) : ErrorPages.notFound(renderer, message)
        case .unavailable:
            return try wantsJSON
                ? JSONAnswer.error(.serviceUnavailable, ErrorTexts.fetchFailed)
                : ErrorPages.fetchFailed(renderer, retryURL: Paths.movie(id))
        }
        let before = (try? await services.library.item(profile: context.profileID, movieID: id)) ?? nil
        var cookie: Cookie?
        let item: LibraryItem?
        do {
            let profile: UUID
            (profile, cookie) = try await SessionCookie.profileForWrite(context, services.sessions)
            item = try await services.library.update(profile: profile, movie: movie, change: change)
        } catch let error as LibraryError {
            if case .noteTooLong = error {
                if wantsJSON { return try JSONAnswer.error(.unprocessableContent, error.message) }
                let page = NotePage(id: id, title: movie.title, note: form.note ?? "", returnTo: returnTo, error: error.message)
                return try renderer.response("note", page, status: .unprocessableContent)
            }
            services.logger.error("library write failed", metadata: ["error": "\(error)"])
            return try wantsJSON ? JSONAnswer.error(.serviceUnavailable, ErrorTexts.saveFailed) : saveFailedPage(id)
        } catch {
            services.logger.error("visitor creation failed", metadata: ["error": "\(error)"])
            return try wantsJSON ? JSONAnswer.error(.serviceUnavailable, ErrorTexts.saveFailed) : saveFailedPage(id)
        }
        let justWatched = change.watched == true && before?.watched != true && form.note == nil
        var response: Response
        if wantsJSON {
            response = try JSONAnswer.ok(LibraryStateJSON(item: item, offerNote: justWatched))
        } else {
            response = .redirect(to: justWatched ? Paths.note(id, returnTo: returnTo) : returnTo, type: .normal)
        }
        if let cookie { response.setCookie(cookie) }
        return response
    }

    func confirmRemove(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try movies.movieID(context)
        let returnTo = Paths.safeReturnPath(request.uri.queryParameters["return_to"].map(String.init), fallback: Paths.library(.all))
        guard let item = try await services.library.item(profile: context.profileID, movieID: id) else {
            return try ErrorPages.notFound(renderer, "This film isn’t in your lists.")
        }
        return try renderer.response("confirm_remove", ConfirmRemovePage(title: item.title, actionURL: Paths.removeMovie(id), returnTo: returnTo))
    }

    struct RemoveForm: Decodable {
        var return_to: String?
    }

    func remove(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try movies.movieID(context)
        let form = try await FormInput.decode(RemoveForm.self, request, context)
        let returnTo = Paths.safeReturnPath(form.return_to, fallback: Paths.library(.all))
        let wantsJSON = FormInput.wantsJSON(request)
        let notInLists = { try wantsJSON ? JSONAnswer.error(.notFound, "This film isn’t in your lists.") : ErrorPages.notFound(renderer, "This film isn’t in your lists.") }
        guard let profile = context.profileID else { return try notInLists() }
        do {
            // Only the caller's own entry can go: another person's (or none) is a 404.
            guard try await services.library.remove(profile: profile, movieID: id) else { return try notInLists() }
        } catch {
            services.logger.error("library remove failed", metadata: ["error": "\(error)"])
            return try wantsJSON ? JSONAnswer.error(.serviceUnavailable, ErrorTexts.saveFailed) : saveFailedPage(id)
        }
        return wantsJSON ? try JSONAnswer.ok(LibraryStateJSON(item: nil, offerNote: false)) : .redirect(to: returnTo, type: .normal)
    }

    private func saveFailedPage(_ id: Int) throws -> Response {
        let page = MessagePage(
            chrome: Chrome(ErrorTexts.title, tab: nil), heading: ErrorTexts.title, message: ErrorTexts.saveFailed,
            retryURL: Paths.movie(id), backURL: Paths.library(.all)
        )
        return try renderer.response("message", page, status: .serviceUnavailable)
    }
}

struct LibraryStateJSON: Encodable {
    let inLibrary: Bool
    let favorite: Bool
    let watched: Bool
    let note: String?
    /// The film was just marked watched: the page should offer the note dialog.
    let offerNote: Bool

    init(item: LibraryItem?, offerNote: Bool) {
        inLibrary = item != nil
        favorite = item?.favorite ?? false
        watched = item?.watched ?? false
        note = item?.note
        self.offerNote = offerNote
    }
}

struct ConfirmRemovePage {
    let chrome: Chrome
    let title: String
    let actionURL: String
    let returnTo: String
    let isShow: Bool

    init(title: String, actionURL: String, returnTo: String, kindLabel: String = "film") {
        isShow = kindLabel != "film"
        chrome = Chrome(isShow ? "Delete \(title)?" : "Remove \(title)?", tab: isShow ? .shows : .library)
        self.title = title
        self.actionURL = actionURL
        self.returnTo = returnTo
    }
}

struct LibraryTab {
    let label: String
    let url: String
    let selected: Bool
}

struct LibraryPageView {
    let chrome: Chrome
    let tabs: [LibraryTab]
    let kindTabs: [LibraryTab]
    /// `MovieCardView` or `ShowCardView`; the template picks the partial by `isShow`.
    let cards: [Any]
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

    init(list: LibraryList, kind: MediaKind?, page: LibraryPage) {
        let titles: [LibraryList: String] = [.favorites: "Favorites", .watched: "Watched", .all: "All saved"]
        heading = titles[list]!
        chrome = Chrome("My Lists — \(heading)", tab: .library)
        tabs = LibraryList.allCases.map { LibraryTab(label: titles[$0]!, url: Paths.library($0, kind: kind), selected: $0 == list) }
        kindTabs = [(nil, "Movies & TV"), (MediaKind.movie, "Movies"), (MediaKind.show, "TV")].map { option, label in
            LibraryTab(label: label, url: Paths.library(list, kind: option), selected: option == kind)
        }
        let returnTo = Paths.library(list, page: page.page, kind: kind)
        cards = page.items.map { item -> Any in
            item.kind == .show ? ShowCardView(item: item, returnTo: returnTo) : MovieCardView(item: item, list: list, returnTo: returnTo)
        }
        hasCards = !cards.isEmpty
        unit = switch kind {
        case .movie: "film"
        case .show: "show"
        case nil: "title"
        }
        countText = "\(page.total) \(unit)" + (page.total == 1 ? "" : "s")
        total = page.total
        emptyMessage = switch list {
        case .favorites: "No favourites yet. Tap Favorite on any film in Movies to keep it here."
        case .watched: "Nothing marked as watched yet. Tap Watched on a film you’ve seen — you can add a note to it."
        case .all: "Your lists are empty. Browse Movies and tap Favorite or Watched to start your collection."
        }
        previousURL = page.page > 1 ? Paths.library(list, page: page.page - 1, kind: kind) : nil
        nextURL = page.page < page.pageCount ? Paths.library(list, page: page.page + 1, kind: kind) : nil
        pageText = page.pageCount > 1 ? "Page \(page.page) of \(page.pageCount)" : nil
    }
}
