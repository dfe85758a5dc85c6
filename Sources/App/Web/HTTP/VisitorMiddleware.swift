import Foundation
import Hummingbird

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
        if let token = context.cookies.value(CookieJar.session, in: request) {
            // A failed lookup must not look like "no session": a save would then start a new
            // visitor and replace the cookie. It surfaces as the retry page instead.
            if let identity = try await sessions.identity(forToken: token) {
                context.profileID = identity.profile
                context.isAccount = identity.isAccount
                context.sessionToken = token
                context.pageVisitor.signedInAs = identity.username
            }
        }
        return try await visit(request, context: context, next: next)
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
