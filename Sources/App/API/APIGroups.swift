import Foundation
import HTTPTypes
import Hummingbird
import Logging
import OpenAPIRuntime
import PopcornAPI

/// The outermost middleware of every API route: errors become problem+json (RFC 9457), answers
/// are `no-store`, a 401 carries the bearer challenge, and a client that accepts JSON also gets
/// problem+json instead of a 406 from the generated content negotiation.
struct APIProblemMiddleware: RouterMiddleware {
    let logger: Logger

    func handle(
        _ request: Request, context: AppRequestContext,
        next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        var request = request
        if let accept = request.headers[.accept], accept.contains("application/json"), !accept.contains("problem+json") {
            var head = request.head
            head.headerFields[.accept] = accept + ", application/problem+json"
            request = Request(head: head, body: request.body)
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPError {
            response = try JSONAnswer.error(error.status, error.body ?? error.status.reasonPhrase)
        } catch let error as ServerError {
            // Handlers answer every documented case themselves: what the runtime throws is input it could not parse.
            let status: HTTPResponse.Status = error.httpStatus == .internalServerError ? .badRequest : error.httpStatus
            response = try JSONAnswer.error(status, "\(error.causeDescription) (\(error.underlyingError))".prefix(400).description)
        } catch {
            logger.error("API request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            response = try JSONAnswer.error(.serviceUnavailable, ErrorTexts.fetchFailed)
        }
        // Also for a 401 from a handler: the generated code percent-encodes header values.
        if response.status == .unauthorized { response.headers[.wwwAuthenticate] = APIRefusal.challenge }
        response.headers[.cacheControl] = response.headers[.cacheControl] ?? "no-store"
        return response
    }
}

/// Files each generated operation into its router group: the operations `openapi.yaml` tags
/// `admin` go to the group that refuses anyone but an administrator, the rest to the members'.
struct APITransport: ServerTransport {
    let members: RouterGroup<AppRequestContext>
    let admins: RouterGroup<AppRequestContext>
    let routes: APIRoutes

    func register(
        _ handler: @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?),
        method: HTTPRequest.Method, path: String
    ) throws {
        let group = routes.isAdmin(method: method, path: path) ? admins : members
        group.register(handler, method: method, path: path)
    }
}

extension APIRoutes {
    /// The methods a client may try that a path does not have: each is a 405 with `Allow`.
    static let triedMethods: [HTTPRequest.Method] = [.get, .head, .post, .put, .delete, .patch, .options, .trace, .connect]

    /// Registers a 405 + `Allow` for every method the document does not list for a path (RFC 9110).
    func registerMethodNotAllowed(on group: RouterGroup<AppRequestContext>) {
        for route in routes {
            let allowed = route.methods.contains(.get) ? route.methods + [.head] : route.methods
            for method in Self.triedMethods where !allowed.contains(method) {
                group.on(RouterPath(route.path), method: method) { request, _ in
                    var response = try JSONAnswer.error(
                        .methodNotAllowed, "\(request.method.rawValue.prefix(20)) is not an operation of \(request.uri.path.prefix(100))."
                    )
                    response.headers[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
                    return response
                }
            }
        }
    }
}
