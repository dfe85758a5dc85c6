import Foundation
import Hummingbird
import Synchronization

/// The caller of an API operation. Generated handlers cannot see the request context or set
/// headers, so the session travels in a task-local and a new visitor's cookie is set afterwards.
final class APISession: Sendable {
    let existing: UUID?
    let sessions: SessionService
    private let started = Mutex<(token: String, profile: UUID)?>(nil)

    init(existing: UUID?, sessions: SessionService) {
        self.existing = existing
        self.sessions = sessions
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
        let session = APISession(existing: context.profileID, sessions: sessions)
        var response = try await APIScope.$session.withValue(session) { try await next(request, context) }
        if let token = session.newToken { response.setCookie(SessionCookie.make(token)) }
        response.headers[.cacheControl] = response.headers[.cacheControl] ?? "no-store"
        return response
    }
}
