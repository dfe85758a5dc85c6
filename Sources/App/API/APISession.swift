import Foundation
import HTTPTypes
import Hummingbird
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
    /// Who offers are counted and capped for (`AppRequestContext.visitor`).
    let visitor: String
    /// Why the admin operations must refuse this caller: nil for an administrator, `.unauthorized`
    /// with no credential at all, `.forbidden` for anyone else.
    let adminRefusal: HTTPResponse.Status?
    private let started = Mutex<(token: String, profile: UUID)?>(nil)

    init(existing: UUID?, sessions: SessionService, visitor: String = "", adminRefusal: HTTPResponse.Status? = .forbidden) {
        self.existing = existing
        self.sessions = sessions
        self.visitor = visitor
        self.adminRefusal = adminRefusal
    }

    var profileID: UUID? { existing ?? started.withLock { $0?.profile } }

    /// The caller's profile, creating a visitor (and its cookie) on the first write.
    func profileForWrite() async throws -> UUID {
        if let profileID { return profileID }
        let new = try await sessions.startVisitor()
        started.withLock { $0 = new }
        return new.profile
    }

    var newToken: String? { started.withLock { $0?.token } }
}

enum APIScope {
    @TaskLocal static var session: APISession?
}

struct APISessionMiddleware: RouterMiddleware {
    let sessions: SessionService
    let tokens: APITokenService
    let accounts: AccountService
    let routes: APIRoutes

    func handle(
        _ request: Request, context: AppRequestContext,
        next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        guard request.uri.path.hasPrefix("/api/") else { return try await next(request, context) }
        var request = request
        // Errors are always problem+json (RFC 9457); a client that accepts JSON gets them too
        // instead of a 406 from the generated content negotiation.
        if let accept = request.headers[.accept], accept.contains("application/json"), !accept.contains("problem+json") {
            var head = request.head
            head.headerFields[.accept] = accept + ", application/problem+json"
            request = Request(head: head, body: request.body)
        }
        var response: Response
        if let allowed = routes.allowed(request.uri.path), !allowed.contains(request.method) {
            response = try JSONAnswer.error(.methodNotAllowed, "\(request.method.rawValue.prefix(20)) is not an operation of \(request.uri.path.prefix(100)).")
            response.headers[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
        } else if let reason = Self.crossSiteWriteRefusal(request) {
            response = try JSONAnswer.error(.forbidden, reason)
        } else {
            switch try await caller(request, context) {
            case .refused(let status, let detail):
                // Refused before the generated code reads the body: an unauthenticated caller
                // learns nothing, not even whether its JSON would parse. The handlers check again.
                response = try JSONAnswer.error(status, detail)
            case .allowed(let session):
                response = try await APIScope.$session.withValue(session) { try await next(request, context) }
                if let token = session.newToken { response.setCookie(context.cookies.session(token)) }
            }
        }
        // Also for a 401 from a handler: the generated code percent-encodes header values.
        if response.status == .unauthorized { response.headers[.wwwAuthenticate] = APIRefusal.challenge }
        response.headers[.cacheControl] = response.headers[.cacheControl] ?? "no-store"
        return response
    }

    enum Caller {
        case allowed(APISession)
        case refused(HTTPResponse.Status, String)
    }

    /// Who is calling: the bearer token's account, else the session cookie's profile, else nobody.
    func caller(_ request: Request, _ context: AppRequestContext) async throws -> Caller {
        let admin = Self.isAdmin(request.uri.path)
        if let header = request.headers[.authorization] {
            // The scheme name is case-insensitive (RFC 9110).
            guard header.count > 7, header.prefix(7).lowercased() == "bearer ",
                  let caller = try await tokens.caller(forToken: String(header.dropFirst(7)))
            else { return .refused(.unauthorized, APIRefusal.invalidToken) }
            if admin, !caller.isAdmin { return .refused(.forbidden, APIRefusal.notAdmin) }
            return .allowed(APISession(existing: caller.profile, sessions: sessions, visitor: context.visitor, adminRefusal: caller.isAdmin ? nil : .forbidden))
        }
        let refusal: HTTPResponse.Status = context.profileID == nil ? .unauthorized : .forbidden
        guard admin else {
            return .allowed(APISession(existing: context.profileID, sessions: sessions, visitor: context.visitor, adminRefusal: refusal))
        }
        guard context.isAccount, try await accounts.account(context.profileID)?.isAdmin == true else {
            return .refused(refusal, APIRefusal.detail(refusal))
        }
        return .allowed(APISession(existing: context.profileID, sessions: sessions, visitor: context.visitor, adminRefusal: nil))
    }

    /// A write that rides on the cookie must come from this site's own pages (CSRF): a JSON body
    /// (a cross-site form cannot send `application/json` without a CORS preflight, and CORS is off),
    /// and, when the browser says where the request comes from, the same origin. Calls with an
    /// `Authorization` header carry their own credential and are exempt.
    static func crossSiteWriteRefusal(_ request: Request) -> String? {
        guard ![.get, .head, .options].contains(request.method), request.headers[.authorization] == nil else { return nil }
        if let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!], !["same-origin", "none"].contains(site.lowercased()) {
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
           request.headers[.contentType]?.lowercased().hasPrefix("application/json") != true {
            return "Send the body as application/json."
        }
        return nil
    }

    /// `/api/v1/admin…` however the router would read it: `//` and percent-encoded letters too.
    static func isAdmin(_ path: String) -> Bool {
        path.split(separator: "/").prefix(3).map { $0.removingPercentEncoding ?? String($0) } == ["api", "v1", "admin"]
    }
}

/// The words and header of a refused API call. They name no account, advertiser or offer.
enum APIRefusal {
    static let challenge = #"Bearer realm="PopcornSwirl""#
    static let invalidToken = "This API token is not valid: it was revoked, mistyped, or is not a PopcornSwirl token (`Authorization: Bearer ps_…`)."
    static let signInNeeded = "Send a personal API token (`Authorization: Bearer ps_…`, made on your account page) or sign in."
    static let notAdmin = "This account is not an administrator. Administrators are made with `popcornswirl create-admin`."

    static func detail(_ status: HTTPResponse.Status) -> String {
        status == .unauthorized ? signInNeeded : notAdmin
    }
}
