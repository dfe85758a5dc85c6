import Hummingbird
import Logging

/// Turns errors thrown by page handlers into readable pages (problem+json for `app.js`, which
/// asks for JSON; the API's routes have `APIProblemMiddleware`). Nothing reaches a person as a bare 500.
struct ErrorPageMiddleware: RouterMiddleware {
    let renderer: PageRenderer
    let logger: Logger

    func handle(
        _ request: Request, context: AppRequestContext,
        next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            let message = error.body ?? error.status.reasonPhrase
            if FormInput.wantsJSON(request) { return try JSONAnswer.error(error.status, message) }
            let page = MessagePage(
                chrome: Chrome(error.status == .notFound ? "Not found" : "Something is not right", tab: nil),
                heading: error.status == .notFound ? "Not found" : "Check your request", message: message,
                retryURL: nil, backURL: Route.home.path
            )
            return try renderer.response(page, status: error.status)
        } catch {
            logger.error("request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            if FormInput.wantsJSON(request) {
                return try JSONAnswer.error(.serviceUnavailable, ErrorTexts.fetchFailed)
            }
            // Retry repeats a page view only, and only as a path on this site (never the raw request target).
            let retry = request.method == .get ? Route.safeReturnPath(request.uri.description, fallback: Route.home.path) : Route.home.path
            return try ErrorPages.fetchFailed(renderer, retryURL: retry)
        }
    }
}
