import Foundation
import Hummingbird
import NIOCore

enum SessionCookie {
    /// The profile a write belongs to: the visitor's own, or a new visitor whose cookie the answer must set.
    static func profileForWrite(_ context: AppRequestContext, _ sessions: SessionService) async throws -> (UUID, Cookie?) {
        if let existing = context.profileID { return (existing, nil) }
        let started = try await sessions.startVisitor(address: context.clientAddress)
        // A visitor's cookie lasts no longer than an unused session does.
        return (started.profile, context.cookies.session(started.token, maxAge: sessions.visitorCookieMaxAge))
    }
}
