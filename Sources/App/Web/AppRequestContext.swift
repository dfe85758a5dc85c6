import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// Per-request state: the visitor profile resolved from the session cookie (nil for a first visit).
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public var profileID: UUID?
    /// Who offers are counted and capped for: a hash of the `ps_visitor` cookie (set on the first visit).
    public var visitor: String = ""
    /// The client's IP address, when the connection has one.
    public let clientAddress: String?

    public init(source: Source) {
        self.coreContext = .init(source: source)
        self.profileID = nil
        self.clientAddress = source.channel.remoteAddress?.ipAddress
    }

    /// Pages are small forms; nothing legitimate posts more than this.
    public var maxUploadSize: Int { 64 * 1024 }
}

/// Resolves the session cookie into a profile before any handler runs, and gives every browser a
/// random visitor id for counting and capping partner offers (no database row behind it).
struct VisitorMiddleware: RouterMiddleware {
    static let visitorCookie = "ps_visitor"
    /// Keyed per process, so the ids cannot be computed from outside.
    private static let firstVisitKey = SessionService.newToken()
    let sessions: SessionService

    /// 43 URL-safe characters, the format of the cookie.
    static func firstVisitToken(address: String, userAgent: String) -> String {
        Data(SHA256.hash(data: Data("\(firstVisitKey)|\(address)|\(userAgent.prefix(512))".utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    func handle(
        _ request: Request, context: AppRequestContext,
        next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        if let token = request.cookies[SessionService.cookieName]?.value {
            // A failed lookup must not look like "no session": a save would then start a new
            // visitor and replace the cookie. It surfaces as the retry page instead.
            context.profileID = try await sessions.profile(forToken: token)
        }
        var newVisitor: String?
        if let raw = request.cookies[Self.visitorCookie]?.value, raw.count == 43, raw.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) {
            context.visitor = SessionService.hash(raw)
        } else {
            // A first visit's id is derived from its address and browser, so a client that never keeps
            // cookies (a crawler, a load generator) stays one visitor: its offers are capped and its
            // impressions counted once a day instead of on every request.
            let token = Self.firstVisitToken(address: context.clientAddress ?? "", userAgent: request.headers[.userAgent] ?? "")
            newVisitor = token
            context.visitor = SessionService.hash(token)
        }
        var response = try await next(request, context)
        if let newVisitor {
            response.setCookie(Cookie(
                name: Self.visitorCookie, value: newVisitor, maxAge: 365 * 24 * 3600, path: "/", httpOnly: true, sameSite: .lax
            ))
        }
        return response
    }
}

/// Security headers on every answer. Pages load nothing from other sites and run no inline script.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    static var contentSecurityPolicy: String {
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; object-src 'none'; "
            + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "strict-origin-when-cross-origin"
        response.headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        return response
    }
}

/// Addresses past these sizes are refused (414) before any work: no page needs more.
struct RequestLimitsMiddleware<Context: RequestContext>: RouterMiddleware {
    static var maxPathBytes: Int { 2048 }
    static var maxQueryBytes: Int { 8192 }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.uri.path.utf8.count <= Self.maxPathBytes, (request.uri.query?.utf8.count ?? 0) <= Self.maxQueryBytes else {
            throw HTTPError(.uriTooLong, message: "This address is too long. Addresses here have at most \(Self.maxQueryBytes) characters of query.")
        }
        return try await next(request, context)
    }
}
