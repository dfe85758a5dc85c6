import Foundation
import Hummingbird

/// The watch diary: its page (by month, newest first, paged), logging a watch from a title's
/// page (any day up to today; a rewatch is another watch) and deleting one. Forms post and
/// redirect back; they work the same with and without JavaScript.
struct DiaryController {
    let diary: DiaryService
    let sessions: SessionService
    let actions: LibraryActions
    let renderer: PageRenderer

    func register(on router: RouterGroup<AppRequestContext>) {
        router.on(Route.diary) { request, context in try await page(request, context) }
        router.on(Route.logMovieWatch) { request, context in try await log(.movie, request, context) }
        router.on(Route.logShowWatch) { request, context in try await log(.show, request, context) }
        router.on(Route.deleteWatch) { request, context in try await delete(request, context) }
        router.on(Route.editWatch) { request, context in try await watchPage(request, context, edit: true) }
        router.on(Route.confirmDeleteWatch) { request, context in try await watchPage(request, context, edit: false) }
        router.on(Route.saveWatch) { request, context in try await save(request, context) }
    }

    func page(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let number: Int
        do { number = try FormInput.pageNumber(request) } catch {
            return try ErrorPages.badRequest(renderer.for(context), error.message, backURL: Route.diary.path)
        }
        guard let profile = context.profileID else {
            return try renderer.for(context).response(DiaryPageView(DiaryPage(watches: [], total: 0, page: number)))
        }
        return try renderer.for(context).response(DiaryPageView(try await diary.page(profile: profile, page: number)))
    }

    struct LogForm: Decodable {
        var day: String?
        var rating: String?
        var note: String?
        var return_to: String?
    }

    func log(_ kind: MediaKind, _ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let raw = context.parameters.get("id"), let id = Int(raw), id > 0 else {
            throw HTTPError(.notFound, message: "There is no title at this address.")
        }
        let form = try await FormInput.decode(LogForm.self, request, context)
        let returnTo = Route.safeReturnPath(form.return_to, fallback: Route.titlePage(kind, String(id)))
        let rating: Int?
        do { rating = try FormInput.rating(form.rating) ?? nil } catch {
            return try ErrorPages.badRequest(renderer.for(context), error.message, backURL: returnTo)
        }
        let note = form.note.flatMap { $0.isEmpty ? nil : $0 }
        let writer = WriteProfile(context, sessions)
        let outcome = await actions.logWatch(
            kind: kind, id: id, day: form.day, rating: rating, note: note, profile: context.profileID, writer: writer.start)
        var response: Response
        switch outcome {
        case .logged(let watch):
            response = .redirect(
                to: Route.back(to: returnTo, at: "diary"),
                done: "“\(watch.title)”: \(watch.isRewatch ? "rewatch" : "watch") on \(WatchView.longDay(watch.day)) logged in your diary.", context)
        case .invalid(let message): return try ErrorPages.badRequest(renderer.for(context), message, backURL: returnTo)
        case .titleNotFound: return try ErrorPages.notFound(renderer.for(context), LibraryOutcome.titleNotFoundText(kind, id))
        case .tooManyNewVisitors(let wait): throw VisitorThrottle.Refused(retryAfter: wait).httpError
        case .storageFailed:
            let fields = [("day", form.day), ("rating", form.rating), ("note", form.note), ("return_to", returnTo)]
            let retry = RetryForm(action: Route.logWatch(kind, id), fields: fields.compactMap { name, value in value.map { (name, $0) } })
            return try ErrorPages.retry(renderer.for(context), message: LibraryOutcome.saveFailedText(kind), form: retry)
        }
        writer.setCookie(on: &response)
        return response
    }

    struct DeleteForm: Decodable {
        var return_to: String?
    }

    static let watchNotFound = HTTPError(.notFound, message: "That watch is not in your diary (it may have been deleted on another device).")

    /// The edit form, or the delete confirmation without JavaScript.
    func watchPage(_ request: Request, _ context: AppRequestContext, edit: Bool) async throws -> Response {
        guard let raw = context.parameters.get("id"), let id = UUID(uuidString: raw),
            let watch = try await diary.watch(profile: context.profileID, id: id)
        else { throw Self.watchNotFound }
        let returnTo = Route.safeReturnPath(request.uri.queryParameters["return_to"].map(String.init), fallback: Route.diary.path)
        if edit { return try renderer.for(context).response(WatchEditPage(watch, returnTo: returnTo, now: diary.clock.now())) }
        let saved = try await actions.library.item(profile: context.profileID, movieID: Int(watch.itemID) ?? 0, kind: watch.kind) != nil
        return try renderer.for(context).response(WatchDeletePage(watch, returnTo: returnTo, titleSaved: saved))
    }

    func save(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let raw = context.parameters.get("id"), let id = UUID(uuidString: raw), let profile = context.profileID,
            var watch = try await diary.watch(profile: profile, id: id)
        else { throw Self.watchNotFound }
        let form = try await FormInput.decode(LogForm.self, request, context)
        let returnTo = Route.safeReturnPath(form.return_to, fallback: Route.diary.path)
        func refused(_ message: String, _ status: HTTPResponse.Status) throws -> Response {
            watch.day = form.day ?? watch.day
            watch.note = form.note
            return try renderer.for(context).response(
                WatchEditPage(watch, returnTo: returnTo, now: diary.clock.now(), error: message), status: status)
        }
        let rating: Int?
        do { rating = try FormInput.rating(form.rating) ?? watch.rating } catch { return try refused(error.message, .unprocessableContent) }
        do {
            guard try await diary.update(profile: profile, id: id, day: form.day ?? watch.day, rating: rating, note: form.note) else {
                throw Self.watchNotFound
            }
            return .redirect(to: returnTo, done: "“\(watch.title)”: your watch is saved.", context)
        } catch let error as LibraryError {
            if case .storageFailed = error { return try refused(error.message, .serviceUnavailable) }
            return try refused(error.message, .unprocessableContent)
        }
    }

    func delete(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let raw = context.parameters.get("id"), let id = UUID(uuidString: raw), let profile = context.profileID else {
            throw Self.watchNotFound
        }
        let form = try await FormInput.decode(DeleteForm.self, request, context)
        let returnTo = Route.safeReturnPath(form.return_to, fallback: Route.diary.path)
        let watch = try await diary.watch(profile: profile, id: id)
        guard try await diary.delete(profile: profile, id: id) else { throw Self.watchNotFound }
        guard let watch else { return .redirect(to: returnTo, type: .normal) }
        return .redirect(to: returnTo, done: "“\(watch.title)”: the watch on \(WatchView.longDay(watch.day)) is deleted from your diary.", context)
    }
}
