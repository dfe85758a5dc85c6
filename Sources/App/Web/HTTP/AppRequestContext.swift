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
    /// Who offers are counted and capped for: a hash of the id in the `ps_visitor` cookie, when the
    /// deployment signed it (`VisitorIDs`), else of the id a first visit is given.
    public var visitor: String = ""
    /// The browser sent a visitor id the deployment signed: it is a caller the server can tell apart.
    var hasVisitorCookie = false
    /// The client address, keyed (`VisitorIDs.addressKey`): counted impressions and clicks are capped per address.
    var visitorAddress = ""
    /// Who sees an offer, for counting it.
    var viewer: OfferViewer { OfferViewer(id: visitor, address: visitorAddress) }
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
/// signed visitor id for counting and capping partner offers (`VisitorIDs`; no database row behind it).
struct VisitorMiddleware: RouterMiddleware {
    static let visitorCookie = CookieJar.visitor
    let sessions: SessionService
    let visitors: VisitorIDs

    func handle(
        _ request: Request, context: AppRequestContext,
        next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        var signedInAs: String?
        if let token = context.cookies.value(CookieJar.session, in: request) {
            // A failed lookup must not look like "no session": a save would then start a new
            // visitor and replace the cookie. It surfaces as the retry page instead.
            if let identity = try await sessions.identity(forToken: token) {
                context.profileID = identity.profile
                context.isAccount = identity.isAccount
                context.sessionToken = token
                signedInAs = identity.username
            }
        }
        return try await RequestScope.$signedInAs.withValue(signedInAs) {
            try await visit(request, context: context, next: next)
        }
    }

    private func visit(
        _ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        let metadata = FetchMetadata(request.headers)
        let address = context.clientAddress ?? ""
        context.visitorAddress = address.isEmpty ? "" : try await visitors.addressKey(address)
        var firstVisit = false
        var newVisitor: String?
        if let raw = context.cookies.value(Self.visitorCookie, in: request), let id = try await visitors.verified(raw) {
            context.visitor = SessionService.hash(id)
            context.hasVisitorCookie = true
        } else {
            // No id this deployment signed (none, an old unsigned one, or a made-up one): a first
            // visit. Its id is derived from its address, so a client that never keeps cookies stays
            // one visitor. Only a browser (every current one sends `Sec-Fetch-Site`) counts as a
            // person seeing offers; a crawler or script without cookies is the uncounted visitor
            // "": it writes no impression rows and shares one frequency cap (and its id is only
            // worked out for a cookie, which a public page, such as a shared list, does not set).
            firstVisit = true
            if metadata.isBrowser {
                let token = try await visitors.issue(address: address)
                newVisitor = token
                context.visitor = SessionService.hash(String(token.prefix { $0 != "." }))
            } else {
                context.visitor = ""
            }
        }
        // A page kept on the phone in the background is seen by nobody now: the uncounted visitor.
        if metadata.isBackgroundKeep { context.visitor = "" }
        var response = try await next(request, context)
        if firstVisit, !response.isPublic {
            let token: String
            if let newVisitor { token = newVisitor } else { token = try await visitors.issue(address: address) }
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
