import Crypto
import FluentKit
import Foundation

/// Profiles behind an opaque session cookie. The cookie holds 32 random bytes; the database keeps
/// only their SHA-256, so a leaked database does not leak live sessions. Sessions live in the
/// database; what a server keeps of them (`Caches.sessions`) forgets an ended one when the change
/// feed says so, and trusts nothing older than 30 s.
///
/// Lifetimes (OWASP ASVS 3.3): every session ends after `idleTimeout` unused. An account's session
/// also ends at `expires_at` whatever its use: 12 hours after sign-in, with a cookie that goes when
/// the browser closes; or, with "remember me", 30 days after, with a cookie kept exactly that long.
/// A visitor's session has no absolute end (it holds their lists); its cookie lasts `idleTimeout`.
public final class SessionService: Sendable {
    public static let cookieName = "ps_session"
    static let lastSeenResolution: TimeInterval = 3600
    static let browserLifetime: TimeInterval = 12 * 3600
    static let rememberedLifetime: TimeInterval = 30 * 86_400

    let database: AppDatabase
    let clock: any AppClock
    /// A session unused this long is over (`SESSION_IDLE_DAYS`, 30 days by default).
    let idleTimeout: TimeInterval
    /// Who a session belongs to: a profile, and whether it is a signed-in account (not a visitor).
    public struct Identity: Sendable, Equatable {
        public let profile: UUID
        public let isAccount: Bool
        /// The account's name (nil for a visitor's profile): the pages' header shows it.
        public var username: String? = nil
    }

    /// Who each session belongs to, as last read.
    let known: DeclaredCache<SessionKey, KnownSession>

    /// New visitors per client address and hour (`NEW_VISITORS_PER_HOUR`); nil: no limit.
    let newVisitors: VisitorThrottle?

    init(
        database: AppDatabase, clock: any AppClock, known: DeclaredCache<SessionKey, KnownSession>, idleTimeout: TimeInterval = 30 * 86_400,
        newVisitorsPerHour: Int = 30
    ) {
        newVisitors = VisitorThrottle(database: database, clock: clock, limit: newVisitorsPerHour)
        self.database = database
        self.clock = clock
        self.idleTimeout = idleTimeout
        self.known = known
    }

    static func hash(_ token: String) -> String {
        TextDigest.hex(token)
    }

    /// 32 bytes from the system's CSPRNG, as 43 URL-safe characters. Every request without the CSRF
    /// cookie makes one (a first visit, a shared list's reader): one `getentropy` call, where the
    /// standard generator's words were four system calls and three arrays.
    static func newToken() -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        let drawn = bytes.withUnsafeMutableBytes { getentropy($0.baseAddress, $0.count) }
        if drawn != 0 {
            // Not expected on a supported system; the standard generator is as strong, only slower.
            var generator = SystemRandomNumberGenerator()
            for index in bytes.indices { bytes[index] = generator.next() }
        }
        return RandomToken.base64URL(bytes)
    }

    /// The visitor cookie's Max-Age: never longer than an unused session lives.
    var visitorCookieMaxAge: Int { Int(idleTimeout) }

    /// A session cookie's Max-Age: nil (gone with the browser) unless remembered, then what is left
    /// of its lifetime.
    static func cookieMaxAge(remember: Bool, expiresAt: Date?, now: Date) -> Int? {
        guard remember, let expiresAt else { return nil }
        return max(0, Int(expiresAt.timeIntervalSince(now)))
    }

    /// The profile a session token belongs to, or nil for an unknown, ended, expired or malformed token.
    public func profile(forToken token: String) async throws -> UUID? {
        try await identity(forToken: token)?.profile
    }

    /// The profile of a session token and whether it is an account; nil for an unknown, ended,
    /// expired (idle or past its end) or malformed token.
    public func identity(forToken token: String) async throws -> Identity? {
        guard RandomToken.isWellFormed(token) else { return nil }
        let key = SessionKey(tokenHash: Self.hash(token))
        let now = clock.now()
        return try await known.loaded(key, bytes: { _ in KnownSession.bytes }, isFresh: { $0.holds(at: now) }) {
            try await read(key.tokenHash, now: now)
        }?.identity
    }

    /// The session as the database has it (its last_seen_at moved on once an hour); nil when it is
    /// unknown or over (an expired one is deleted).
    private func read(_ key: String, now: Date) async throws -> KnownSession? {
        guard let session = try await SessionModel.find(key, on: database.db),
            let profile = try await ProfileModel.find(session.profileID, on: database.db)
        else { return nil }
        if now.timeIntervalSince(session.lastSeenAt) > idleTimeout || session.expiresAt.map({ now >= $0 }) == true {
            try? await database.write { db in try await SessionModel.query(on: db).filter(\.$id == key).delete() }
            return nil
        }
        var seenAt = session.lastSeenAt
        if now.timeIntervalSince(seenAt) >= Self.lastSeenResolution {
            // Best effort: a busy database must not turn a page view into an error.
            let written: Void? = try? await database.write { db in
                try await SessionModel.query(on: db).filter(\.$id == key).set(\.$lastSeenAt, to: now).update()
            }
            if written != nil { seenAt = now }
        }
        let isAccount = profile.kind == "account"
        let identity = Identity(profile: session.profileID, isAccount: isAccount, username: isAccount ? profile.username : nil)
        return KnownSession(identity: identity, seenAt: seenAt, expiresAt: session.expiresAt, readAt: now)
    }

    /// A new session for an account (sign-in, sign-up, password change); returns the cookie token.
    /// It ends at `expiresAt` when given (a replaced session keeps its end), else after its lifetime.
    func start(profile: UUID, remember: Bool = false, device: String? = nil, expiresAt: Date? = nil) async throws -> String {
        let now = clock.now()
        let token = Self.newToken()
        let ends = expiresAt ?? now.addingTimeInterval(remember ? Self.rememberedLifetime : Self.browserLifetime)
        let row = SessionModel(tokenHash: Self.hash(token), profileID: profile, now: now, expiresAt: ends, remember: remember, device: device)
        try await database.write { db in try await row.create(on: db) }
        return token
    }

    /// Whether a live session was remembered and when it ends (a password change keeps both).
    func lifetime(token: String) async throws -> (remember: Bool, expiresAt: Date?)? {
        guard let row = try await SessionModel.find(Self.hash(token), on: database.db) else { return nil }
        return (row.remember, row.expiresAt)
    }

    /// Ends one session (sign-out; the old session at sign-in).
    func end(token: String) async throws {
        let key = Self.hash(token)
        try await database.write { db in try await SessionModel.query(on: db).filter(\.$id == key).delete() }
        database.changes.publish(.session(key))
    }

    /// Ends every session of a profile but `keeping` (password change, account deletion, "sign out
    /// everywhere else").
    func endAll(profile: UUID, keeping token: String? = nil) async throws {
        let kept = token.map(Self.hash)
        try await database.write { db in
            var query = SessionModel.query(on: db).filter(\.$profileID == profile)
            if let kept { query = query.filter(\.$id != kept) }
            try await query.delete()
        }
        database.changes.publish(.sessions(profile: profile, kept: kept))
    }

    /// Creates a visitor profile and its session; returns the cookie token.
    /// A visitor started by a write from `address` (counted by `VisitorThrottle`; throws its
    /// `Refused` past the limit).
    func startVisitor(address: String?) async throws -> (token: String, profile: UUID) {
        try await newVisitors?.admit(address: address ?? "unknown")
        return try await startVisitor()
    }

    public func startVisitor() async throws -> (token: String, profile: UUID) {
        let now = clock.now()
        let token = Self.newToken()
        let profile = ProfileModel(now: now)
        let id = profile.id!
        try await database.write { db in
            try await profile.create(on: db)
            try await SessionModel(tokenHash: Self.hash(token), profileID: id, now: now).create(on: db)
        }
        return (token, id)
    }
}

/// A session, by its token's hash (`Caches.sessions`).
struct SessionKey: Hashable, Sendable {
    let tokenHash: String
}

/// Who a session belongs to, as read at `readAt`.
struct KnownSession: Sendable {
    static let bytes = 256
    let identity: SessionService.Identity
    /// When last_seen_at was written.
    let seenAt: Date
    let expiresAt: Date?
    let readAt: Date

    /// Trusted for 30 s after it was read, while last_seen_at needs no moving on and the session has not expired.
    func holds(at now: Date) -> Bool {
        now.timeIntervalSince(readAt) < 30 && now.timeIntervalSince(seenAt) < SessionService.lastSeenResolution && expiresAt.map { now < $0 } ?? true
    }
}
