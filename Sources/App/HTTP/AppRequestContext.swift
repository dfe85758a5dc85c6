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
    /// Who offers are counted and capped for: a hash of the id in the `ps_visitor` cookie, when the
    /// deployment signed it (the pages' visitor ids), else of the id a first visit is given.
    public var visitor: String = ""
    /// The browser sent a visitor id the deployment signed: it is a caller the server can tell apart.
    var hasVisitorCookie = false
    /// The client address, keyed (set with the visitor id): counted impressions and clicks are capped per address.
    var visitorAddress = ""
    /// Who sees an offer, for counting it.
    var viewer: OfferViewer { OfferViewer(id: visitor, address: visitorAddress) }
    /// What this request's pages fill in: its form token and who is signed in.
    var pageVisitor = PageVisitor()
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

/// Security headers on every answer, and whether the request came over HTTPS (which decides the
/// cookies' form and HSTS). Pages load nothing from other sites and run no inline script.
struct SecurityHeadersMiddleware: RouterMiddleware {
    static let contentSecurityPolicy =
        "default-src 'self'; img-src 'self' data:; media-src https://\(ITunesPreview.host); style-src 'self'; script-src 'self'; "
        + "object-src 'none'; "
        + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let frameOptions = HTTPField.Name("X-Frame-Options")!

    /// Seconds a client waits before asking again after a 503 that named no time of its own.
    static let retryAfter = "5"

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
        // Every 503 says when to come back, whichever layer answered it (a failed write's API
        // answer had none, where a 429 did).
        if response.status == .serviceUnavailable, response.headers[.retryAfter] == nil { response.headers[.retryAfter] = Self.retryAfter }
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
