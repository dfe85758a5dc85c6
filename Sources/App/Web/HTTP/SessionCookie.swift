import Foundation
import Hummingbird
import NIOCore
import Synchronization

enum SessionCookie {
    /// The profile a write belongs to: the visitor's own, or a new visitor whose cookie the answer must set.
    static func profileForWrite(_ context: AppRequestContext, _ sessions: SessionService) async throws -> (UUID, Cookie?) {
        if let existing = context.profileID { return (existing, nil) }
        let started = try await sessions.startVisitor(address: context.clientAddress)
        // A visitor's cookie lasts no longer than an unused session does.
        return (started.profile, context.cookies.session(started.token, maxAge: sessions.visitorCookieMaxAge))
    }
}

/// A write's profile, made only when the write needs one: `start` is how the use case gets it (the
/// visitor's own, or a new visitor), and `cookie` is then the new visitor's cookie the answer sets.
final class WriteProfile: Sendable {
    private let context: AppRequestContext
    private let sessions: SessionService
    private let started = Mutex<Cookie?>(nil)

    init(_ context: AppRequestContext, _ sessions: SessionService) {
        self.context = context
        self.sessions = sessions
    }

    func start() async throws -> UUID {
        let (profile, cookie) = try await SessionCookie.profileForWrite(context, sessions)
        started.withLock { $0 = cookie }
        return profile
    }

    /// Sets the new visitor's cookie, if a visitor was started, on the answer.
    func setCookie(on response: inout Response) {
        if let cookie = started.withLock({ $0 }) { response.setCookie(cookie) }
    }
}
