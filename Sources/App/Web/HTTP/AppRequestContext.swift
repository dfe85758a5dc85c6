import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// Per-request state: the visitor profile resolved from the session cookie (nil for a first visit).
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public var profileID: UUID?
    /// The session cookie's token, when it names a live session.
    var sessionToken: String?
    /// The session is a signed-in account's (not a visitor's).
    var isAccount = false
    /// Over HTTPS (see `Transport`): cookies are Secure and `__Host-` prefixed, HSTS is sent.
    var cookies = CookieJar()
    /// Who offers are counted and capped for: a hash of the `ps_visitor` cookie (set on the first visit).
    public var visitor: String = ""
    /// The client's IP address: the connection's, or the one a trusted proxy forwarded (see
    /// `Transport.clientAddress`, set by `SecurityHeadersMiddleware`).
    public var clientAddress: String?

    public init(source: Source) {
        self.coreContext = .init(source: source)
        self.profileID = nil
        self.clientAddress = source.channel.remoteAddress?.ipAddress
    }

    /// Pages are small forms; nothing legitimate posts more than this (an import's upload aside,
    /// set by `BodyLimitMiddleware`).
    public var maxUploadSize = BodyLimitMiddleware.maxBytes
}

/// Resolves the session cookie into a profile before any handler runs, and gives every browser a
/// random visitor id for counting and capping partner offers (no database row behind it).
struct VisitorMiddleware: RouterMiddleware {
    static let visitorCookie = CookieJar.visitor
    /// Keyed per process, so the ids cannot be computed from outside.
    private static let firstVisitKey = SessionService.newToken()
    let sessions: SessionService

    /// 43 URL-safe characters, the format of the cookie. From the address alone: a client that
    /// keeps no cookies cannot become a new visitor by changing its User-Agent.
    static func firstVisitToken(address: String) -> String {
        TextDigest.sha256(firstVisitKey, "|", address).withUnsafeBytes { RandomToken.base64URL($0) }
    }

    func handle(
        _ request: Request, context: AppRequestContext,
        next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        if let token = context.cookies.value(CookieJar.session, in: request) {
            // A failed lookup must not look like "no session": a save would then start a new
            // visitor and replace the cookie. It surfaces as the retry page instead.
            if let identity = try await sessions.identity(forToken: token) {
                context.profileID = identity.profile
                context.isAccount = identity.isAccount
                context.sessionToken = token
            }
        }
        let metadata = FetchMetadata(request.headers)
        var firstVisit = false
        var newVisitor: String?
        if let raw = context.cookies.value(Self.visitorCookie, in: request), RandomToken.isWellFormed(raw) {
            context.visitor = SessionService.hash(raw)
        } else {
            // A first visit's id is derived from its address, so a client that never keeps cookies
            // stays one visitor. Only a browser (every current one sends `Sec-Fetch-Site`) counts as
            // a person seeing offers; a crawler or script without cookies is the uncounted visitor
            // "": it writes no impression rows and shares one frequency cap (and its id is only
            // worked out for a cookie, which a public page, such as a shared list, does not set).
            firstVisit = true
            if metadata.isBrowser {
                let token = Self.firstVisitToken(address: context.clientAddress ?? "")
                newVisitor = token
                context.visitor = SessionService.hash(token)
            } else {
                context.visitor = ""
            }
        }
        // A page kept on the phone in the background is seen by nobody now: the uncounted visitor.
        if metadata.isBackgroundKeep { context.visitor = "" }
        var response = try await next(request, context)
        if firstVisit, !response.isPublic {
            let token = newVisitor ?? Self.firstVisitToken(address: context.clientAddress ?? "")
            response.setCookie(context.cookies.make(Self.visitorCookie, token, maxAge: 365 * 24 * 3600))
        }
        return response
    }
}

/// Security headers on every answer, and whether the request came over HTTPS (which decides the
/// cookies' form and HSTS). Pages load nothing from other sites and run no inline script.
struct SecurityHeadersMiddleware: RouterMiddleware {
    static let contentSecurityPolicy =
        "default-src 'self'; img-src 'self' data:; media-src https://\(ITunesPreview.host); style-src 'self'; script-src 'self'; "
        + "object-src 'none'; "
        + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let frameOptions = HTTPField.Name("X-Frame-Options")!

    /// Two years, as the HSTS preload list asks; subdomains are the deployer's to decide.
    static let strictTransportSecurity = "max-age=63072000"

    let transport: Transport

    func handle(
        _ request: Request, context: AppRequestContext,
        next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.cookies.secure = transport.isSecure(request, address: context.clientAddress)
        context.cookies.received = ReceivedCookies(request)
        context.clientAddress = transport.clientAddress(request, peer: context.clientAddress)
        var response = try await next(request, context)
        if context.cookies.secure { response.headers[.strictTransportSecurity] = Self.strictTransportSecurity }
        // No handler sets these: appended as fields made once (setting each checked its value
        // and searched the fields again on every answer).
        response.headers.append(contentsOf: Self.fixedFields)
        return response
    }

    static let fixedFields: [HTTPField] = [
        HTTPField(name: .contentSecurityPolicy, value: contentSecurityPolicy), HTTPField(name: .xContentTypeOptions, value: "nosniff"),
        HTTPField(name: referrerPolicy, value: "strict-origin-when-cross-origin"), HTTPField(name: frameOptions, value: "DENY"),
    ]
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
