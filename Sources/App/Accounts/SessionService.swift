import Crypto
import FluentKit
import Foundation

/// Profiles behind an opaque session cookie. The cookie holds 32 random bytes; the database keeps
/// only their SHA-256, so a leaked database does not leak live sessions. Sessions live in the
/// database, so every server sees a sign-out within `RememberedLookups.recheckInterval`.
public final class SessionService: Sendable {
    public static let cookieName = "ps_session"
    static let lastSeenResolution: TimeInterval = 3600

    let database: AppDatabase
    let clock: any AppClock
    /// A session unused this long is over (`SESSION_IDLE_DAYS`, 30 days by default).
    let idleTimeout: TimeInterval
    /// Who a session belongs to: a profile, and whether it is a signed-in account (not a visitor).
    public struct Identity: Sendable, Equatable {
        public let profile: UUID
        public let isAccount: Bool
    }

    /// token hash → who, and when last_seen_at was written.
    private let known = RememberedLookups<(identity: Identity, seenAt: Date)>()

    public init(database: AppDatabase, clock: any AppClock, idleTimeout: TimeInterval = 30 * 86_400) {
        self.database = database
        self.clock = clock
        self.idleTimeout = idleTimeout
    }

    static func hash(_ token: String) -> String {
        Hex.string(SHA256.hash(data: Data(token.utf8)))
    }

    /// 32 bytes from the system's CSPRNG, as 43 URL-safe characters. Drawn 8 bytes at a time: every
    /// first visit makes one (the CSRF secret), and a draw per byte was 32 system calls.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let words = (0..<4).map { _ in generator.next() as UInt64 }
        return RandomToken.base64URL(words.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) } })
    }

    /// The profile a session token belongs to, or nil for an unknown, ended, idle-expired or malformed token.
    public func profile(forToken token: String) async throws -> UUID? {
        try await identity(forToken: token)?.profile
    }

    /// The profile of a session token and whether it is an account; nil for an unknown, ended,
    /// idle-expired or malformed token.
    public func identity(forToken token: String) async throws -> Identity? {
        guard RandomToken.isWellFormed(token) else { return nil }
        let key = Self.hash(token)
        let now = clock.now()
        if let hit = known.get(key, now: now), now.timeIntervalSince(hit.seenAt) < Self.lastSeenResolution {
            return hit.identity
        }
        guard let session = try await SessionModel.find(key, on: database.db),
            let profile = try await ProfileModel.find(session.profileID, on: database.db)
        else {
            known.forget(key)
            return nil
        }
        if now.timeIntervalSince(session.lastSeenAt) > idleTimeout {
            known.forget(key)
            try? await session.delete(on: database.db)
            return nil
        }
        var seenAt = session.lastSeenAt
        if now.timeIntervalSince(seenAt) >= Self.lastSeenResolution {
            session.lastSeenAt = now
            // Best effort: a busy database must not turn a page view into an error.
            if (try? await session.update(on: database.db)) != nil { seenAt = now }
        }
        let identity = Identity(profile: session.profileID, isAccount: profile.kind == "account")
        known.remember((identity, seenAt), for: key, at: now)
        return identity
    }

    /// A new session for an account (sign-in, sign-up, password change); returns the cookie token.
    func start(profile: UUID) async throws -> String {
        let now = clock.now()
        let token = Self.newToken()
        try await SessionModel(tokenHash: Self.hash(token), profileID: profile, now: now).create(on: database.db)
        known.remember((Identity(profile: profile, isAccount: true), now), for: Self.hash(token), at: now)
        return token
    }

    /// Ends one session (sign-out; the old session at sign-in).
    func end(token: String) async throws {
        let key = Self.hash(token)
        known.forget(key)
        try await SessionModel.query(on: database.db).filter(\.$id == key).delete()
    }

    /// Ends every session of a profile but `keeping` (password change, account deletion).
    func endAll(profile: UUID, keeping token: String? = nil) async throws {
        let kept = token.map(Self.hash)
        known.forget { key, remembered in remembered.identity.profile == profile && key != kept }
        var query = SessionModel.query(on: database.db).filter(\.$profileID == profile)
        if let kept { query = query.filter(\.$id != kept) }
        try await query.delete()
    }

    /// Creates a visitor profile and its session; returns the cookie token.
    public func startVisitor() async throws -> (token: String, profile: UUID) {
        let now = clock.now()
        let token = Self.newToken()
        let profile = ProfileModel(now: now)
        try await database.write { db in
            try await profile.create(on: db)
            try await SessionModel(tokenHash: Self.hash(token), profileID: profile.id!, now: now).create(on: db)
        }
        known.remember((Identity(profile: profile.id!, isAccount: false), now), for: Self.hash(token), at: now)
        return (token, profile.id!)
    }
}
