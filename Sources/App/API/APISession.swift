import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// The caller of an API operation. Generated handlers cannot see the request context or set
/// headers, so the session travels in a task-local and a new visitor's cookie is set afterwards.
final class APISession: Sendable {
    let existing: UUID?
    let sessions: SessionService
    /// Who offers are counted and capped for (`AppRequestContext.visitor`).
    let visitor: String
    /// Why the admin operations must refuse this caller: nil when `Authorization: Bearer` carries
    /// the `ADMIN_TOKEN`, `.unauthorized` without a bearer token, `.forbidden` for a wrong token or
    /// a server without one.
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
    let adminAuth: AdminAuth

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
        let refusal = adminAuth.apiRefusal(request)
        var response: Response
        if let reason = Self.crossSiteWriteRefusal(request) {
            response = try JSONAnswer.error(.forbidden, reason)
        } else if let refusal, Self.isAdmin(request.uri.path) {
            // Refused before the generated code reads the body: an unauthenticated caller learns
            // nothing, not even whether its JSON would parse. The handlers check again.
            response = try JSONAnswer.error(refusal, AdminRefusal.detail(refusal, enabled: adminAuth.isEnabled))
        } else {
            let session = APISession(existing: context.profileID, sessions: sessions, visitor: context.visitor, adminRefusal: refusal)
            response = try await APIScope.$session.withValue(session) { try await next(request, context) }
            if let token = session.newToken { response.setCookie(SessionCookie.make(token)) }
        }
        // Also for a 401 from a handler: the generated code percent-encodes header values.
        if response.status == .unauthorized { response.headers[.wwwAuthenticate] = AdminRefusal.challenge }
        response.headers[.cacheControl] = response.headers[.cacheControl] ?? "no-store"
        return response
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
        if [.put, .post, .patch].contains(request.method),
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

/// The words and header of a refused admin API call. They name no advertiser or offer.
enum AdminRefusal {
    static let challenge = #"Bearer realm="PopcornSwirl admin""#

    static func detail(_ status: HTTPResponse.Status, enabled: Bool) -> String {
        if status == .unauthorized { return "Send the admin token as `Authorization: Bearer <ADMIN_TOKEN>`." }
        return enabled ? "This admin token is not valid." : "The admin API is switched off: the server has no ADMIN_TOKEN."
    }
}
