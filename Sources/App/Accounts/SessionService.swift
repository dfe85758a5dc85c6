import Crypto
import FluentKit
import Foundation
import Synchronization

/// Visitor profiles behind an opaque session cookie. The cookie holds 32 random bytes; the
/// database keeps only their SHA-256, so a leaked database does not leak live sessions.
public final class SessionService: Sendable {
    public static let cookieName = "ps_session"
    static let lastSeenResolution: TimeInterval = 3600

    let database: AppDatabase
    let clock: any AppClock
    /// token hash → (profile, when last_seen_at was written). Sessions are only ever deleted
    /// together with their profile, which goes through `forget`.
    private let known = Mutex<[String: (profile: UUID, seenAt: Date)]>([:])

    public init(database: AppDatabase, clock: any AppClock) {
        self.database = database
        self.clock = clock
    }

    static func hash(_ token: String) -> String {
        Hex.string(SHA256.hash(data: Data(token.utf8)))
    }

    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The profile a session token belongs to, or nil for an unknown/malformed token.
    public func profile(forToken token: String) async throws -> UUID? {
        guard token.count == 43, token.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else { return nil }
        let key = Self.hash(token)
        let now = clock.now()
        if let hit = known.withLock({ $0[key] }), now.timeIntervalSince(hit.seenAt) < Self.lastSeenResolution {
            return hit.profile
        }
        guard let session = try await SessionModel.find(key, on: database.db) else { return nil }
        session.lastSeenAt = now
        // Best effort: a busy database must not turn a page view into an error.
        try? await session.update(on: database.db)
        known.withLock { $0[key] = (session.profileID, now) }
        return session.profileID
    }

    /// Creates a visitor profile and its session; returns the cookie token.
    public func startVisitor() async throws -> (token: String, profile: UUID) {
        let now = clock.now()
        let token = Self.newToken()
        let profile = ProfileModel(now: now)
        try await database.db.transaction { db in
            try await profile.create(on: db)
            try await SessionModel(tokenHash: Self.hash(token), profileID: profile.id!, now: now).create(on: db)
        }
        known.withLock { $0[Self.hash(token)] = (profile.id!, now) }
        return (token, profile.id!)
    }
}
