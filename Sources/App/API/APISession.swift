import Foundation
import HTTPTypes
import Hummingbird
import PopcornAPI
import Synchronization

/// The caller of an API operation. Generated handlers cannot see the request context or set
/// headers, so the caller travels in a task-local and a new visitor's cookie is set afterwards.
///
/// A caller is identified by `Authorization: Bearer <personal API token>` (the token's account;
/// cookies are then ignored) or by the session cookie. Reads of personal data need one of them
/// (401 otherwise); a write without either starts a visitor profile, as the pages do.
final class APISession: Sendable {
    let existing: UUID?
    let sessions: SessionService
    /// Who offers are counted and capped for (`AppRequestContext.viewer`).
    let viewer: OfferViewer
    /// Why the admin operations must refuse this caller: nil for an administrator, `.unauthorized`
    /// with no credential at all, `.forbidden` for anyone else.
    let adminRefusal: HTTPResponse.Status?
    /// The client address a new visitor is counted for (`VisitorThrottle`).
    let address: String?
    private let started = Mutex<(token: String, profile: UUID)?>(nil)

    init(
        existing: UUID?, sessions: SessionService, viewer: OfferViewer = OfferViewer(id: "", address: ""),
        adminRefusal: HTTPResponse.Status? = .forbidden, address: String? = nil
    ) {
        self.existing = existing
        self.address = address
        self.sessions = sessions
        self.viewer = viewer
        self.adminRefusal = adminRefusal
    }

    var profileID: UUID? { existing ?? started.withLock { $0?.profile } }

    /// The caller's profile, creating a visitor (and its cookie) on the first write.
    func profileForWrite() async throws -> UUID {
        if let profileID { return profileID }
        let new = try await sessions.startVisitor(address: address)
        started.withLock { $0 = new }
        return new.profile
    }

    var newToken: String? { started.withLock { $0?.token } }
}

enum APIScope {
    @TaskLocal static var session: APISession?
    /// The site's address as the caller reached it (`SiteAddress`).
    @TaskLocal static var site = "http://localhost"
}

/// Finds the caller of every API operation (see `APISession`). The admin group's instance
/// (`adminOnly`) refuses anyone but an administrator before the generated code reads the body.
struct APISessionMiddleware: RouterMiddleware {
    let sessions: SessionService
    let tokens: APITokenService
    let accounts: AccountService
    let adminOnly: Bool
    var publicURL: String? = nil

    func handle(
        _ request: Request, context: AppRequestContext,
        next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        if let reason = Self.crossSiteWriteRefusal(request) { return try JSONAnswer.error(.forbidden, reason) }
        switch try await caller(request, context) {
        case .refused(let status, let detail):
            // Refused before the generated code reads the body: an unauthenticated caller
            // learns nothing, not even whether its JSON would parse. The handlers check again.
            return try JSONAnswer.error(status, detail)
        case .allowed(let session):
            let site = SiteAddress.of(publicURL: publicURL, request: request, secure: context.cookies.secure)
            var response = try await APIScope.$session.withValue(session) {
                try await APIScope.$site.withValue(site) { try await next(request, context) }
            }
            if let token = session.newToken { response.setCookie(context.cookies.session(token, maxAge: sessions.visitorCookieMaxAge)) }
            return response
        }
    }

    enum Caller {
        case allowed(APISession)
        case refused(HTTPResponse.Status, String)
    }

    /// Who is calling: the bearer token's account, else the session cookie's profile, else nobody.
    func caller(_ request: Request, _ context: AppRequestContext) async throws -> Caller {
        let admin = adminOnly
        if let header = request.headers[.authorization] {
            // The scheme name is case-insensitive (RFC 9110).
            guard header.count > 7, header.prefix(7).lowercased() == "bearer ",
                let caller = try await tokens.caller(forToken: String(header.dropFirst(7)))
            else { return .refused(.unauthorized, APIRefusal.invalidToken) }
            if admin, !caller.isAdmin { return .refused(.forbidden, APIRefusal.notAdmin) }
            return .allowed(
                APISession(existing: caller.profile, sessions: sessions, viewer: context.viewer, adminRefusal: caller.isAdmin ? nil : .forbidden))
        }
        let refusal: HTTPResponse.Status = context.profileID == nil ? .unauthorized : .forbidden
        guard admin else {
            return .allowed(
                APISession(
                    existing: context.profileID, sessions: sessions, viewer: context.viewer, adminRefusal: refusal, address: context.clientAddress
                ))
        }
        guard context.isAccount, try await accounts.account(context.profileID)?.isAdmin == true else {
            return .refused(refusal, APIRefusal.detail(refusal))
        }
        return .allowed(APISession(existing: context.profileID, sessions: sessions, viewer: context.viewer, adminRefusal: nil))
    }

    /// A write that rides on the cookie must come from this site's own pages (CSRF): a JSON body
    /// (a cross-site form cannot send `application/json` without a CORS preflight, and CORS is off),
    /// and, when the browser says where the request comes from, the same origin. Calls with an
    /// `Authorization` header carry their own credential and are exempt.
    static func crossSiteWriteRefusal(_ request: Request) -> String? {
        guard ![.get, .head, .options].contains(request.method), request.headers[.authorization] == nil else { return nil }
        if !FetchMetadata(request.headers).isOwnRequest, let site = request.headers[FetchMetadata.siteHeader] {
            return "Writes are accepted only from PopcornSwirl's own pages (Sec-Fetch-Site: \(site.prefix(20)))."
        }
        if let origin = request.headers[.origin] {
            let host = URLComponents(string: origin)?.host.map { host in URLComponents(string: origin)?.port.map { "\(host):\($0)" } ?? host }
            guard let host, let own = request.head.authority, host.lowercased() == own.lowercased() else {
                return "Writes are accepted only from PopcornSwirl's own pages (Origin \(origin.prefix(60)))."
            }
        }
        // A body must be JSON; a PUT without one (adding a TV show) cannot come from a form, and
        // another site's script cannot send a PUT without a CORS preflight, which fails.
        let hasBody = (request.headers[.contentLength].flatMap(Int.init) ?? 0) > 0 || request.headers[.transferEncoding] != nil
        if request.method == .post || ([.put, .patch].contains(request.method) && hasBody),
            request.headers[.contentType]?.lowercased().hasPrefix("application/json") != true
        {
            return "Send the body as application/json."
        }
        return nil
    }
}

/// The words and header of a refused API call. They name no account, advertiser or offer.
enum APIRefusal {
    static let challenge = #"Bearer realm="PopcornSwirl""#
    static let invalidToken = "This API token is not valid: it was revoked, mistyped, or is not a PopcornSwirl token (`Authorization: Bearer ps_…`)."
    static let signInNeeded = "Send a personal API token (`Authorization: Bearer ps_…`, made on your account page) or sign in."
    /// The 401 of an operation that needs a caller and has none.
    static var signInResponse: Components.Responses.Unauthorized {
        .init(headers: .init(wwwAuthenticate: challenge), body: .applicationProblemJson(.init(.unauthorized, signInNeeded)))
    }
    static let notAdmin = "This account is not an administrator. Administrators are made with `popcornswirl create-admin`."

    static func detail(_ status: HTTPResponse.Status) -> String {
        status == .unauthorized ? signInNeeded : notAdmin
    }
}
