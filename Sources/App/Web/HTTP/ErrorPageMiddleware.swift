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
            // Not the bare reason phrase under a heading that already says it ("Not found / Not Found").
            let message = error.body ?? Self.plainWords(error.status)
            var response: Response
            if FormInput.wantsJSON(request) {
                response = try JSONAnswer.error(error.status, message)
            } else {
                let (title, heading) =
                    switch error.status {
                    case .notFound: ("Not found", "Not found")
                    case .tooManyRequests: ("Slow down a little", "Slow down a little")
                    default: ("Something is not right", "Check your request")
                    }
                // A page view refused for now (429) can be asked for again: Retry repeats it.
                let retry =
                    error.status == .tooManyRequests && request.method == .get
                    ? Route.safeReturnPath(request.uri.description, fallback: Route.home.path) : nil
                let page = MessagePage(
                    chrome: Chrome(title, tab: nil),
                    heading: heading, message: message, retryURL: retry, backURL: Route.home.path
                )
                response = try renderer.for(context).response(page, status: error.status)
            }
            if let wait = error.headers[.retryAfter] { response.headers[.retryAfter] = wait }
            return response
        } catch {
            logger.error("request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            if FormInput.wantsJSON(request) {
                return try JSONAnswer.error(.serviceUnavailable, ErrorTexts.fetchFailed)
            }
            // Retry repeats a page view only, and only as a path on this site (never the raw request target).
            let retry = request.method == .get ? Route.safeReturnPath(request.uri.description, fallback: Route.home.path) : Route.home.path
            return try ErrorPages.fetchFailed(renderer.for(context), retryURL: retry)
        }
    }
}

extension ErrorPageMiddleware {
    /// What an error without its own message says, in a sentence.
    static func plainWords(_ status: HTTPResponse.Status) -> String {
        switch status {
        case .notFound: "There is nothing at this address. The link may be mistyped, or what it pointed to is gone."
        case .methodNotAllowed: "This address can’t be used that way. Go back and use the page’s own buttons."
        case .tooManyRequests: "Too many requests came from here in a short time. Wait a moment, then try again."
        default: "The request could not be understood (\(status.code)). Go back and try again."
        }
    }
}
