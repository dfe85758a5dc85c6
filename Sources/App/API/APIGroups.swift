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

    /// `4536` for `4536.0` (digits, a full stop, zeros); nil for anything else.
    static func wholeNumber(_ text: Substring) -> Substring? {
        guard let dot = text.firstIndex(of: "."), dot > text.startIndex, text[..<dot].allSatisfy(\.isASCIIDigit) else { return nil }
        let fraction = text[text.index(after: dot)...]
        return !fraction.isEmpty && fraction.allSatisfy({ $0 == "0" }) ? text[..<dot] : nil
    }

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
        // A path parameter such as `4536.0` is read as `4536`: JSON Schema counts a whole number
        // written with a fraction of zeros as an integer, and the generated parsers do not (api-fuzz
        // sends them). The router has already read the parameters from the path.
        var context = context
        if context.parameters.contains(where: { Self.wholeNumber($0.value) != nil }) {
            context.coreContext.parameters = .init(context.parameters.map { ($0.key, Self.wholeNumber($0.value) ?? $0.value) })
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPError {
            response = try JSONAnswer.error(error.status, error.body ?? error.status.reasonPhrase)
            if let wait = error.headers[.retryAfter] { response.headers[.retryAfter] = wait }
        } catch let error as ServerError where (error.underlyingError as? HTTPError)?.status == .contentTooLarge {
            response = try JSONAnswer.error(.contentTooLarge, BodyLimitMiddleware.tooLarge.body ?? "Too large")
        } catch let error as ServerError {
            // Handlers answer every documented case themselves: what the runtime throws is input it could not parse.
            let status: HTTPResponse.Status = error.httpStatus == .internalServerError ? .badRequest : error.httpStatus
            // The decoder's words may quote the request's own text: its control characters are left out.
            let words = "\(error.causeDescription) (\(error.underlyingError))".unicodeScalars
                .filter { !CharacterSet.controlCharacters.contains($0) || $0 == "\n" || $0 == "\t" }
            response = try JSONAnswer.error(status, String(String.UnicodeScalarView(words)).prefix(400).description)
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
        let signed = routes.isSigned(method: method, path: path)
        // Every operation's body is JSON, read whole (bounded) by the generated code anyway: read
        // here, an empty body is no body, whatever its Content-Type says (a PUT of a TV favorite
        // without one stays what it was before that operation took an optional body), and a
        // signed operation keeps the exact bytes its signature covers.
        group.register(
            { request, body, metadata in
                var bytes: [UInt8] = []
                if let body {
                    do {
                        bytes = try await [UInt8](collecting: body, upTo: BodyLimitMiddleware.maxBytes)
                    } catch let error as HTTPError {
                        throw error
                    } catch {
                        // The runtime's "more than the maximum allowed bytes" (a client gone
                        // mid-body has no one left to answer): the same 413 as every other body.
                        throw BodyLimitMiddleware.tooLarge
                    }
                }
                var request = request
                if bytes.isEmpty { request.headerFields[.contentType] = nil }
                let passed = bytes.isEmpty ? nil : HTTPBody(bytes)
                guard signed else { return try await handler(request, passed, metadata) }
                return try await SignedBody.$bytes.withValue(bytes) { try await handler(request, passed, metadata) }
            }, method: method, path: path)
    }
}

/// The exact bytes of a signed operation's body (see `APITransport`).
enum SignedBody {
    @TaskLocal static var bytes: [UInt8] = []
}

/// A request the router could not route whose path is one of `openapi.yaml`'s: the method is
/// wrong, so 405 with `Allow` (RFC 9110), whatever the method's name. The router answers any
/// unknown method with its not-found responder, which runs inside the router's middleware.
struct APIMethodMiddleware: RouterMiddleware {
    let routes: APIRoutes

    func handle(
        _ request: Request, context: AppRequestContext,
        next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            guard let allowed = routes.allowed(request.uri.path), !allowed.contains(request.method) else { throw error }
            var response = try JSONAnswer.error(
                .methodNotAllowed, "\(request.method.rawValue.prefix(20)) is not an operation of \(request.uri.path.prefix(100))."
            )
            response.headers[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
            response.headers[.cacheControl] = "no-store"
            return response
        }
    }
}
