import Foundation
import HTTPTypes
import Hummingbird

/// Custom lists: the index and a new-list form, a list's page (its titles in the person's order,
/// moved up and down, taken out; renamed, described, shared, deleted) and a title page's
/// "Add to list". Every form posts and redirects back, the same with and without JavaScript;
/// another person's list is a 404. `shared` answers a shared list's public link.
struct ListsController {
    let lists: CustomListService
    let sessions: SessionService
    let actions: LibraryActions
    let renderer: PageRenderer

    func register(on router: RouterGroup<AppRequestContext>) {
        router.on(Route.lists) { _, context in try await index(context) }
        router.on(Route.createList) { request, context in try await create(request, context) }
        router.on(Route.customList) { request, context in try await show(request, context) }
        router.on(Route.saveList) { request, context in try await save(request, context) }
        router.on(Route.confirmDeleteList) { _, context in try await confirmDelete(context) }
        router.on(Route.deleteList) { _, context in try await delete(context) }
        router.on(Route.shareList) { _, context in try await share(context, on: true) }
        router.on(Route.unshareList) { _, context in try await share(context, on: false) }
        router.on(Route.moveInList) { request, context in try await item(request, context, move: true) }
        router.on(Route.removeFromList) { request, context in try await item(request, context, move: false) }
        router.on(Route.addMovieToList) { request, context in try await add(.movie, request, context) }
        router.on(Route.addShowToList) { request, context in try await add(.show, request, context) }
        router.on(Route.sharedList) { request, context in try await shared(request, context) }
    }

    func index(_ context: AppRequestContext) async throws -> Response {
        try renderer.for(context).response(ListsIndexPage(try await lists.lists(profile: context.profileID)))
    }

    struct ListForm: Decodable {
        var name: String?
        var description: String?
    }

    func create(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let form = try await FormInput.decode(ListForm.self, request, context)
        func refused(_ error: CustomListError) async throws -> Response {
            let fields = ListFormFields(name: form.name ?? "", description: form.description ?? "", error: error)
            let page = ListsIndexPage(try await lists.lists(profile: context.profileID), form: fields)
            return try renderer.for(context).response(page, status: error.isStorage ? .serviceUnavailable : .unprocessableContent)
        }
        do {
            _ = try CustomListError.validatedName(form.name)
            _ = try CustomListError.validatedDescription(form.description)
        } catch {
            return try await refused(error)
        }
        let (profile, cookie): (UUID, Cookie?)
        do { (profile, cookie) = try await SessionCookie.profileForWrite(context, sessions) } catch let refusal as VisitorThrottle.Refused {
            throw refusal.httpError
        }
        do {
            let list = try await lists.create(profile: profile, name: form.name, description: form.description)
            var response = Response.redirect(to: Route.customListPage(list.id), done: "List “\(list.name)” made.", context)
            if let cookie { response.setCookie(cookie) }
            return response
        } catch {
            return try await refused(error)
        }
    }

    func show(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try listID(context)
        let number: Int
        do { number = try FormInput.pageNumber(request) } catch {
            return try ErrorPages.badRequest(renderer.for(context), error.message, backURL: Route.lists.path)
        }
        guard let page = try await lists.page(profile: context.profileID, id: id, page: number) else { throw Self.notFound }
        return try renderer.for(context).response(CustomListPageView(page))
    }

    func save(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try listID(context)
        let form = try await FormInput.decode(ListForm.self, request, context)
        guard let profile = context.profileID else { throw Self.notFound }
        do {
            guard try await lists.update(profile: profile, id: id, name: form.name, description: form.description) else { throw Self.notFound }
            return .redirect(to: Route.customListPage(id), done: "List saved.", context)
        } catch let error as CustomListError {
            guard let page = try await lists.page(profile: profile, id: id, page: 1) else { throw Self.notFound }
            let fields = ListFormFields(name: form.name ?? "", description: form.description ?? "", error: error)
            return try renderer.for(context).response(
                CustomListPageView(page, form: fields), status: error.isStorage ? .serviceUnavailable : .unprocessableContent)
        }
    }

    func confirmDelete(_ context: AppRequestContext) async throws -> Response {
        guard let list = try await lists.list(profile: context.profileID, id: try listID(context)) else { throw Self.notFound }
        return try renderer.for(context).response(ConfirmDeleteListPage(list))
    }

    func delete(_ context: AppRequestContext) async throws -> Response {
        let id = try listID(context)
        let name = try await lists.list(profile: context.profileID, id: id)?.name
        guard let profile = context.profileID, try await lists.delete(profile: profile, id: id) else { throw Self.notFound }
        return .redirect(to: Route.lists.path, done: "List “\(name ?? "")” deleted.", context)
    }

    func share(_ context: AppRequestContext, on: Bool) async throws -> Response {
        let id = try listID(context)
        guard let profile = context.profileID else { throw Self.notFound }
        let found = on ? try await lists.share(profile: profile, id: id) != nil : try await lists.unshare(profile: profile, id: id)
        guard found else { throw Self.notFound }
        return .redirect(
            to: Route.back(to: Route.customListPage(id), at: "share"),
            done: on ? "The list’s link is on: anyone with it can see the list." : "The list’s link is off.",
            context)
    }

    struct ItemForm: Decodable {
        var kind: String?
        var item: String?
        var to: String?
        var return_to: String?
    }

    func item(_ request: Request, _ context: AppRequestContext, move: Bool) async throws -> Response {
        let id = try listID(context)
        let form = try await FormInput.decode(ItemForm.self, request, context)
        let returnTo = Route.safeReturnPath(form.return_to, fallback: Route.customListPage(id))
        guard let kind = form.kind.flatMap(MediaKind.init(rawValue:)), let itemID = form.item, !itemID.isEmpty, itemID.count <= 20 else {
            return try ErrorPages.badRequest(renderer.for(context), "The form did not say which title to change.", backURL: returnTo)
        }
        guard let profile = context.profileID else { throw Self.notFound }
        if move {
            guard let to = form.to.flatMap({ Int($0) }), (1...CustomListError.itemLimit).contains(to) else {
                return try ErrorPages.badRequest(
                    renderer.for(context), "“\(form.to?.prefix(20) ?? "")” is not a place in the list.", backURL: returnTo)
            }
            switch try await lists.move(profile: profile, id: id, kind: kind, itemID: itemID, to: to) {
            case .noList: throw Self.notFound
            case .notInList: throw HTTPError(.notFound, message: "That title is not in this list any more.")
            case .added, .kept:
                return .redirect(to: Route.back(to: returnTo, at: "item-\(kind.rawValue)-\(itemID)"), done: "Moved to place \(to).", context)
            }
        }
        guard try await lists.remove(profile: profile, id: id, kind: kind, itemID: itemID) else {
            throw HTTPError(.notFound, message: "That title is not in this list any more.")
        }
        return .redirect(to: returnTo, done: "Removed from the list.", context)
    }

    struct AddForm: Decodable {
        var list: String?
        var return_to: String?
    }

    func add(_ kind: MediaKind, _ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let raw = context.parameters.get("id"), let titleID = Int(raw), titleID > 0 else {
            throw HTTPError(.notFound, message: "There is no title at this address.")
        }
        let form = try await FormInput.decode(AddForm.self, request, context)
        let returnTo = Route.safeReturnPath(form.return_to, fallback: Route.titlePage(kind, String(titleID)))
        guard let listID = form.list.flatMap(UUID.init(uuidString:)) else {
            return try ErrorPages.badRequest(renderer.for(context), "Choose one of your lists to add it to.", backURL: returnTo)
        }
        switch await actions.addToList(listID, kind: kind, id: titleID, profile: context.profileID) {
        case .done(.noList): throw Self.notFound
        case .done(.added(let item)), .done(.kept(let item)):
            let name = try await lists.list(profile: context.profileID, id: listID)?.name ?? ""
            return .redirect(to: Route.back(to: returnTo, at: "lists"), done: "“\(item.title)” is in your list “\(name)”.", context)
        case .done(.notInList): return .redirect(to: Route.back(to: returnTo, at: "lists"), type: .normal)
        case .invalid(let message): return try ErrorPages.badRequest(renderer.for(context), message, backURL: returnTo)
        case .titleNotFound: return try ErrorPages.notFound(renderer.for(context), LibraryOutcome.titleNotFoundText(kind, titleID))
        case .storageFailed:
            let retry = RetryForm(action: Route.addToList(kind, titleID), fields: [("list", listID.uuidString), ("return_to", returnTo)])
            return try ErrorPages.retry(renderer.for(context), message: ErrorTexts.saveFailed, form: retry)
        }
    }

    func listID(_ context: AppRequestContext) throws -> UUID {
        guard let raw = context.parameters.get("id"), let id = UUID(uuidString: raw) else { throw Self.notFound }
        return id
    }

    static let notFound = HTTPError(.notFound, message: CustomListError.notFoundMessage)
}

/// A shared list's page: anyone with the link, no account and no cookie. It shows the list and
/// its titles only (no owner, no other list, no CSRF token: it has no forms of its own), asks
/// search engines to stay out (`noindex` in the page and `X-Robots-Tag`), and may be kept by any
/// cache (`public`) but is revalidated on every use (`no-cache` with an `ETag`), so a revoked
/// link stops working at once while an unchanged page costs a 304.
extension ListsController {
    func shared(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let token = context.parameters.get("id") else { throw Self.sharedNotFound }
        let number: Int
        do { number = try FormInput.pageNumber(request) } catch { throw HTTPError(.badRequest, message: error.message) }
        guard let list = try await lists.sharedPage(token: token, page: number) else { throw Self.sharedNotFound }
        let html = try renderer.html(SharedListPageView(list, token: token))
        let etag = "\"" + Hex.string(TextDigest.sha256(html).prefix(16)) + "\""
        var headers = HTTPFields(Self.sharedFields)
        // The validator of the bytes this request gets: a 304 names the answer it stands for.
        let served =
            CompressionMiddleware.compresses(request, bytes: html.utf8.count) ? CompressionMiddleware.gzipValidator(etag) : etag
        if request.headers.value(.ifNoneMatch)?.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == served }) == true {
            headers[.eTag] = served
            CompressionMiddleware.addVary(&headers)
            return Response(status: .notModified, headers: headers)
        }
        headers[.eTag] = etag
        // Nobody's: no token in its (layout's) forms, nobody signed in in its header.
        return PageParts(html).response(for: PageVisitor(), headers: headers)
    }

    static let sharedNotFound = HTTPError(.notFound, message: CustomListError.sharedNotFoundMessage)
    /// Every answer's fields, made once.
    static let sharedFields: [HTTPField] = [
        HTTPField(name: .cacheControl, value: "public, no-cache"), HTTPField(name: HTTPField.Name("X-Robots-Tag")!, value: "noindex, nofollow"),
    ]
}
