import FluentKit
import Foundation

/// Sign-up, sign-in, sign-out, password change, API tokens and account deletion. Passwords are
/// hashed by `PasswordHasher` (bcrypt of an HMAC of the whole password, on threads of its own),
/// never on an event loop. A visitor who signs up keeps their profile (it becomes the account); one
/// who signs in has their lists merged into the account.
public final class AccountService: Sendable {
    static let usernameRange = 3...32

    let database: AppDatabase
    let sessions: SessionService
    let library: LibraryService
    let tokens: APITokenService
    let clock: any AppClock
    let throttle: LoginThrottle
    let signUps: SignUpThrottle
    let hasher: PasswordHasher

    init(
        database: AppDatabase, sessions: SessionService, library: LibraryService, tokens: APITokenService, clock: any AppClock,
        hasher: PasswordHasher = PasswordHasher()
    ) {
        self.database = database
        self.sessions = sessions
        self.library = library
        self.tokens = tokens
        self.clock = clock
        self.hasher = hasher
        throttle = LoginThrottle(database: database, clock: clock)
        signUps = SignUpThrottle(database: database, clock: clock)
    }

    public struct Account: Sendable, Equatable {
        public let id: UUID
        public let username: String
        public let isAdmin: Bool
    }

    /// Who is asking for a session: their address (for the throttles), a short label of their
    /// browser (listed on the account page) and whether they ticked "remember me".
    public struct Client: Sendable {
        public var address: String
        public var device: String?
        public var remember: Bool

        public init(address: String, device: String? = nil, remember: Bool = false) {
            self.address = address
            self.device = device
            self.remember = remember
        }
    }

    /// A new session: the cookie's token and Max-Age (nil: a cookie that goes with the browser).
    public struct SignedIn: Sendable {
        public let token: String
        public let account: Account
        public let cookieMaxAge: Int?
    }

    /// The signed-in account behind a profile (nil for a visitor or no profile).
    func account(_ profile: UUID?) async throws -> Account? {
        guard let profile, let row = try await ProfileModel.find(profile, on: database.db), row.kind == "account",
            let username = row.username
        else { return nil }
        return Account(id: profile, username: username, isAdmin: row.role == "admin")
    }

    /// The account with this username (any case), if there is one.
    func profile(username raw: String) async throws -> UUID? {
        guard let username = try? Self.normalisedUsername(raw).get() else { return nil }
        let row = try await ProfileModel.query(on: database.db).filter(\.$username == username).filter(\.$kind == "account").first()
        return row?.id
    }

    /// Letters, digits, `.`, `_` and `-`; stored lower-case, so "Ana" and "ana" are one account.
    static func normalisedUsername(_ raw: String) -> Result<String, Failure> {
        let name = raw.trimmingCharacters(in: .whitespaces).lowercased()
        guard usernameRange.contains(name.count),
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-") })
        else {
            return .failure(.invalid(["username": "Usernames have 3 to 32 letters, digits, dots, dashes or underscores."]))
        }
        return .success(name)
    }

    /// The normalised username, when it and the password follow the rules.
    /// Both fields are checked, so a form can say everything that is wrong at once.
    static func validated(username raw: String, password: String) throws(Failure) -> String {
        var problems: [String: String] = [:]
        let username: String?
        switch normalisedUsername(raw) {
        case .success(let name): username = name
        case .failure(let failure):
            username = nil
            if case .invalid(let fields) = failure { problems.merge(fields) { first, _ in first } }
        }
        let nameForPassword = username ?? raw.trimmingCharacters(in: .whitespaces).lowercased()
        if let problem = PasswordPolicy.problem(password, username: nameForPassword) { problems["password"] = problem }
        guard let username, problems.isEmpty else { throw .invalid(problems) }
        return username
    }

    /// Creates an account. A visitor's profile (and so everything saved) becomes the account.
    /// The visitor's old session is ended and a new one starts (rotation).
    ///
    /// There is no e-mail address, so a taken name has to be said; but it is said only after the
    /// password was hashed (the same time as a sign-up) and it counts towards the address's
    /// sign-ups, so names cannot be listed quickly.
    func signUp(username raw: String, password: String, visitor: UUID?, visitorToken: String?, client: Client) async throws -> SignedIn {
        let username = try Self.validated(username: raw, password: password)
        let ticket = try await signUps.begin(address: client.address)
        let hash: String
        do {
            hash = try await hashed(password)
        } catch {
            await signUps.abandon(ticket)
            throw error
        }
        let now = clock.now()
        let account: Account
        do {
            account = try await database.write { db in
                if try await ProfileModel.query(on: db).filter(\.$username == username).first() != nil { throw Failure.taken }
                let row: ProfileModel
                if let visitor, let existing = try await ProfileModel.find(visitor, on: db), existing.kind == "visitor" {
                    row = existing
                } else {
                    row = ProfileModel(now: now)
                }
                row.kind = "account"
                row.username = username
                row.passwordHash = hash
                row.updatedAt = now
                try await row.save(on: db)
                return Account(id: try row.requireID(), username: username, isAdmin: row.role == "admin")
            }
        } catch let error where !(error is Failure) {
            // Two sign-ups for one name at once (PostgreSQL): the unique index decides.
            if try await ProfileModel.query(on: database.db).filter(\.$username == username).first() != nil { throw Failure.taken }
            throw error
        }
        if let visitorToken { try await sessions.end(token: visitorToken) }
        return try await startSession(account, client)
    }

    /// Checks the password (same cost whether or not the account exists), merges the visitor's
    /// lists into the account, ends the visitor's session and starts a new one.
    func signIn(username raw: String, password: String, visitor: UUID?, visitorToken: String?, client: Client) async throws -> SignedIn {
        let username = (try? Self.normalisedUsername(raw).get()) ?? ""
        let counted = username.isEmpty ? String(raw.lowercased().prefix(64)) : username
        let attempt = try await throttle.begin(username: counted, address: client.address)
        let row = username.isEmpty ? nil : try await ProfileModel.query(on: database.db).filter(\.$username == username).first()
        let verdict: PasswordHasher.Verdict
        do {
            verdict = try await verified(password, hash: row?.passwordHash)
        } catch {
            await throttle.withdraw(attempt)
            throw error
        }
        guard verdict != .wrong, let row, row.kind == "account", let profile = row.id else { throw Failure.wrongCredentials }
        try await throttle.succeeded(attempt)
        if verdict == .rightButOld { await upgradeHash(of: row, password: password) }
        if let visitor, visitor != profile, let other = try await ProfileModel.find(visitor, on: database.db), other.kind == "visitor" {
            try await library.merge(visitor: visitor, into: profile)
        }
        if let visitorToken { try? await sessions.end(token: visitorToken) }
        return try await startSession(Account(id: profile, username: username, isAdmin: row.role == "admin"), client)
    }

    func signOut(token: String) async throws {
        try await sessions.end(token: token)
    }

    private func startSession(_ account: Account, _ client: Client) async throws -> SignedIn {
        let token = try await sessions.start(profile: account.id, remember: client.remember, device: client.device)
        let maxAge = client.remember ? Int(SessionService.rememberedLifetime) : nil
        return SignedIn(token: token, account: account, cookieMaxAge: maxAge)
    }

    /// A hash in the current form, or `busy` when too many are being made.
    func hashed(_ password: String) async throws -> String {
        do {
            return try await hasher.hash(password)
        } catch is PasswordHasher.Busy {
            throw Failure.busy(retryAfter: PasswordHasher.Busy.retryAfter)
        }
    }

    func verified(_ password: String, hash: String?) async throws -> PasswordHasher.Verdict {
        do {
            return try await hasher.verify(password, hash: hash)
        } catch is PasswordHasher.Busy {
            throw Failure.busy(retryAfter: PasswordHasher.Busy.retryAfter)
        }
    }

    /// A right password stored in the old plain-bcrypt form is stored again in the current one
    /// (best effort: the sign-in has succeeded either way; only a hash still old is replaced).
    func upgradeHash(of row: ProfileModel, password: String) async {
        guard let id = row.id, let old = row.passwordHash, let new = try? await hashed(password) else { return }
        _ = try? await database.write { db in
            try await ProfileModel.query(on: db).filter(\.$id == id).filter(\.$passwordHash == old).set(\.$passwordHash, to: new).update()
        }
    }
}

/// What an account does with its password asked again: change it, make an API token, delete the
/// account. Wrong guesses count towards the sign-in limits, so a stolen session cannot try
/// passwords freely.
extension AccountService {
    public enum Failure: DomainFailure, Equatable, Sendable, CustomStringConvertible {
        /// Field → what to change.
        case invalid([String: String])
        /// Sign-in: wrong username or password (never says which).
        case wrongCredentials
        /// Too many failed sign-ins for this username or address: wait this many seconds.
        case throttled(retryAfter: Int)
        /// Too many sign-ups from this address in the last hour: wait this many seconds.
        case tooManySignUps(retryAfter: Int)
        /// Too many passwords being hashed right now: try again in this many seconds.
        case busy(retryAfter: Int)

        static let taken = Failure.invalid(["username": "That username is taken. Choose another."])

        public var description: String {
            switch self {
            case .invalid(let problems): problems.sorted { $0.key < $1.key }.map(\.value).joined(separator: " ")
            case .wrongCredentials: "Wrong username or password."
            case .throttled(let seconds): "Too many wrong passwords. Try again in \(Self.minutes(seconds))."
            case .tooManySignUps(let seconds):
                "Too many accounts were created from your network in the last hour. Try again in \(Self.minutes(seconds))."
            case .busy(let seconds): "The server is busy checking other passwords. Try again in a moment (\(seconds) seconds)."
            }
        }

        /// Seconds to wait, for Retry-After, when the answer is "not now".
        public var retryAfter: Int? {
            switch self {
            case .throttled(let seconds), .tooManySignUps(let seconds), .busy(let seconds): seconds
            case .invalid, .wrongCredentials: nil
            }
        }

        static func minutes(_ seconds: Int) -> String {
            let minutes = max(1, (seconds + 59) / 60)
            return "\(minutes) minute\(minutes > 1 ? "s" : "")"
        }
    }

    /// Every other session of the account ends; the caller's is replaced by the returned one, which
    /// keeps its "remember me" and its end. API tokens are revoked too unless `keepTokens`.
    func changePassword(
        account: UUID, current: String, new: String, keepTokens: Bool, session: String?, address: String
    ) async throws -> (token: String, cookieMaxAge: Int?) {
        guard let row = try await ProfileModel.find(account, on: database.db), let username = row.username else { throw Failure.wrongCredentials }
        try await confirm(current, of: row, address: address, field: "current", problem: "Your current password is not right.")
        if let problem = PasswordPolicy.problem(new, username: username) { throw Failure.invalid(["password": problem]) }
        let hash = try await hashed(new)
        let lifetime = try await session.asyncMap { try await sessions.lifetime(token: $0) } ?? nil
        let device = try await session.asyncMap { try await sessions.active(profile: account, current: $0).first(where: \.isCurrent)?.device }
        let now = clock.now()
        let token = try await database.write { [sessions, tokens] db in
            try await ProfileModel.query(on: db).filter(\.$id == account).set(\.$passwordHash, to: hash).set(\.$updatedAt, to: now).update()
            if !keepTokens { try await tokens.revokeAll(profile: account) }
            try await sessions.endAll(profile: account)
            return try await sessions.start(
                profile: account, remember: lifetime?.remember ?? false, device: device ?? nil, expiresAt: lifetime?.expiresAt)
        }
        let expiresAt = lifetime?.expiresAt ?? now.addingTimeInterval(SessionService.browserLifetime)
        return (token, SessionService.cookieMaxAge(remember: lifetime?.remember ?? false, expiresAt: expiresAt, now: now))
    }

    /// A personal API token, after the password is confirmed (a stolen session alone cannot mint
    /// a credential that outlives it).
    func createToken(account: UUID, password: String, name: String, address: String) async throws -> (token: String, record: APITokenService.Token) {
        _ = try APITokenService.validName(name)
        guard let row = try await ProfileModel.find(account, on: database.db) else { throw Failure.wrongCredentials }
        try await confirm(password, of: row, address: address, field: "token_password", problem: "That password is not right; no token was made.")
        return try await tokens.create(profile: account, name: name)
    }

    /// Deletes the account with its lists, searches, tokens and sessions, after the password is confirmed.
    func deleteAccount(account: UUID, password: String, address: String) async throws {
        guard let row = try await ProfileModel.find(account, on: database.db) else { throw Failure.wrongCredentials }
        try await confirm(password, of: row, address: address, field: "password", problem: "That password is not right; nothing was deleted.")
        try await database.write { [sessions] db in
            try await sessions.endAll(profile: account)
            try await ProfileModel.query(on: db).filter(\.$id == account).delete()
        }
        // Its calendar feed went with it: no server may answer it from memory.
        database.changes.publish(.person(account))
    }

    /// A signed-in account's own password, asked again: counted like a sign-in attempt (kept as a
    /// failure when wrong, removed when right).
    private func confirm(_ password: String, of row: ProfileModel, address: String, field: String, problem: String) async throws {
        let attempt = try await throttle.begin(username: row.username ?? "", address: address)
        let verdict: PasswordHasher.Verdict
        do {
            verdict = try await verified(password, hash: row.passwordHash)
        } catch {
            await throttle.withdraw(attempt)
            throw error
        }
        guard verdict != .wrong else { throw Failure.invalid([field: problem]) }
        await throttle.withdraw(attempt)
        if verdict == .rightButOld { await upgradeHash(of: row, password: password) }
    }

    /// Makes (or promotes) an admin account: `popcornswirl create-admin`.
    public func createAdmin(username raw: String, password: String) async throws -> Account {
        let username = try Self.validated(username: raw, password: password)
        let hash = try await hashed(password)
        let now = clock.now()
        let id = try await database.write { [sessions] db in
            let row = try await ProfileModel.query(on: db).filter(\.$username == username).first() ?? ProfileModel(kind: "account", now: now)
            row.kind = "account"
            row.username = username
            row.passwordHash = hash
            row.role = "admin"
            row.updatedAt = now
            try await row.save(on: db)
            try await sessions.endAll(profile: try row.requireID())
            return try row.requireID()
        }
        return Account(id: id, username: username, isAdmin: true)
    }
}

extension Optional where Wrapped: Sendable {
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
