import Hummingbird
import Logging
import OpenAPIRuntime

/// Turns errors thrown by page handlers into readable pages; API paths get problem+json.
/// Nothing reaches a person as a bare 500.
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
            if request.uri.path.hasPrefix("/api/") || FormInput.wantsJSON(request) { return try JSONAnswer.error(error.status, message) }
            let page = MessagePage(
                chrome: Chrome(error.status == .notFound ? "Not found" : "Something is not right", tab: nil),
                heading: error.status == .notFound ? "Not found" : "Check your request", message: message,
                retryURL: nil, backURL: Paths.home
            )
            return try renderer.response("message", page, status: error.status)
        } catch let error as ServerError where request.uri.path.hasPrefix("/api/") {
            // Handlers answer every documented case themselves: what the runtime throws is input it could not parse.
            let status: HTTPResponse.Status = error.httpStatus == .internalServerError ? .badRequest : error.httpStatus
            return try JSONAnswer.error(status, "\(error.causeDescription) (\(error.underlyingError))".prefix(400).description)
        } catch {
            logger.error("request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            if request.uri.path.hasPrefix("/api/") || FormInput.wantsJSON(request) {
                return try JSONAnswer.error(.serviceUnavailable, ErrorTexts.fetchFailed)
            }
            return try ErrorPages.fetchFailed(renderer, retryURL: request.uri.description)
        }
    }
}
