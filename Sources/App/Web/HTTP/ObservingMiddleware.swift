import HTTPTypes
import Hummingbird

extension HTTPField.Name {
    static let requestID = Self(RequestTrace.header)!
}

/// The outermost middleware: gives each request its id (`RequestTrace`: the proxy's
/// `X-Request-Id` when well formed, else a new one), answers with it in `X-Request-Id`, and records
/// the request in the metrics by method, route template and status.
struct ObservingMiddleware: RouterMiddleware {
    let metrics: AppMetrics

    func handle(
        _ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        let id = RequestTrace.id(from: request.headers.value(.requestID))
        let started = ContinuousClock.now
        do {
            var response = try await RequestTrace.$id.withValue(id) { try await next(request, context) }
            response.headers[.requestID] = id
            record(request, context, status: response.status, since: started)
            return response
        } catch {
            record(request, context, status: (error as? any HTTPResponseError)?.status ?? .internalServerError, since: started)
            throw error
        }
    }

    private func record(_ request: Request, _ context: AppRequestContext, status: HTTPResponse.Status, since started: ContinuousClock.Instant) {
        metrics.recordRequest(
            method: request.method.rawValue, route: Self.route(context.endpointPath, path: request.uri.path), status: status.code,
            duration: ContinuousClock.now - started)
    }

    /// The route template a request matched (`/movies/{id}`): static files are one route, and any
    /// other address that matched nothing is `unmatched`, so no label ever holds an address a client made up.
    static func route(_ endpoint: String?, path: String) -> String {
        if path.hasPrefix(Route.staticFiles + "/") { return Route.staticFiles + "/*" }
        guard let endpoint, endpoint != "NotFound" else { return "unmatched" }
        return endpoint
    }
}
