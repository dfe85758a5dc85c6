import FluentKit
import Foundation
import HummingbirdBcrypt
import NIOPosix

/// Sign-up, sign-in, sign-out, password change and account deletion. Passwords are hashed with
/// bcrypt (cost 12) on the thread pool, never on an event loop. A visitor who signs up keeps their
/// profile (it becomes the account); one who signs in has their lists merged into the account.
public final class AccountService: Sendable {
    static let bcryptCost: UInt8 = 12
    static let usernameRange = 3...32

    let database: AppDatabase
    let sessions: SessionService
    let library: LibraryService
    let tokens: APITokenService
    let clock: any AppClock
    let throttle: LoginThrottle
    /// Checked when the username is unknown, so a wrong username costs as long as a wrong password
    /// (made on first use, on the thread pool).
    private static let decoyHash = Bcrypt.hash(SessionService.newToken(), cost: bcryptCost)

    init(database: AppDatabase, sessions: SessionService, library: LibraryService, tokens: APITokenService, clock: any AppClock) {
        self.database = database
        self.sessions = sessions
        self.library = library
        self.tokens = tokens
        self.clock = clock
        throttle = LoginThrottle(database: database, clock: clock)
    }

    public struct Account: Sendable, Equatable {
        public let id: UUID
        public let username: String
        public let isAdmin: Bool
    }

    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// Field → what to change.
        case invalid([String: String])
        /// Sign-in: wrong username or password (never says which).
        case wrongCredentials
        /// Too many failed sign-ins for this username or address: wait this many seconds.
        case throttled(retryAfter: Int)

        public var description: String {
            switch self {
            case .invalid(let problems): problems.sorted { $0.key < $1.key }.map(\.value).joined(separator: " ")
            case .wrongCredentials: "Wrong username or password."
            case .throttled(let seconds): "Too many wrong passwords. Try again in \(max(1, (seconds + 59) / 60)) minute\(seconds > 60 ? "s" : "")."
            }
        }
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
    static func validated(username raw: String, password: String) throws(Failure) -> String {
        let username = try normalisedUsername(raw).get()
        if let problem = PasswordPolicy.problem(password, username: username) { throw .invalid(["password": problem]) }
        return username
    }

    /// Creates an account. A visitor's profile (and so everything saved) becomes the account.
    /// Returns the new session's token: the visitor's old session is ended (rotation).
    func signUp(username raw: String, password: String, visitor: UUID?, visitorToken: String?) async throws -> (token: String, account: Account) {
        let username = try Self.validated(username: raw, password: password)
        if try await ProfileModel.query(on: database.db).filter(\.$username == username).first() != nil {
            throw Failure.invalid(["username": "That username is taken. Choose another."])
        }
        let hash = try await Self.hash(password)
        let now = clock.now()
        let row: ProfileModel
        if let visitor, let existing = try await ProfileModel.find(visitor, on: database.db), existing.kind == "visitor" {
            row = existing
        } else {
            row = ProfileModel(now: now)
        }
        row.kind = "account"
        row.username = username
        row.passwordHash = hash
        row.updatedAt = now
        do {
            try await row.save(on: database.db)
        } catch {
            // Two sign-ups for one name at once: the unique index decides.
            if try await ProfileModel.query(on: database.db).filter(\.$username == username).first() != nil {
                throw Failure.invalid(["username": "That username is taken. Choose another."])
            }
            throw error
        }
        let profile = try row.requireID()
        if let visitorToken { try await sessions.end(token: visitorToken) }
        let token = try await sessions.start(profile: profile)
        return (token, Account(id: profile, username: username, isAdmin: row.role == "admin"))
    }

    /// Checks the password (same cost whether or not the account exists), merges the visitor's
    /// lists into the account, ends the visitor's session and starts a new one.
    func signIn(
        username raw: String, password: String, visitor: UUID?, visitorToken: String?, address: String
    ) async throws -> (token: String, account: Account) {
        let username = (try? Self.normalisedUsername(raw).get()) ?? ""
        let counted = username.isEmpty ? String(raw.lowercased().prefix(64)) : username
        if let wait = try await throttle.retryAfter(username: counted, address: address) { throw Failure.throttled(retryAfter: wait) }
        let row = username.isEmpty ? nil : try await ProfileModel.query(on: database.db).filter(\.$username == username).first()
        let hash = row?.passwordHash
        guard try await Self.verify(password, hash: hash), let row, row.kind == "account", let profile = row.id else {
            try await throttle.recordFailure(username: counted, address: address)
            throw Failure.wrongCredentials
        }
        try await throttle.clear(username: counted)
        if let visitor, visitor != profile, let other = try await ProfileModel.find(visitor, on: database.db), other.kind == "visitor" {
            try await library.merge(visitor: visitor, into: profile)
        }
        if let visitorToken { try? await sessions.end(token: visitorToken) }
        let token = try await sessions.start(profile: profile)
        return (token, Account(id: profile, username: username, isAdmin: row.role == "admin"))
    }

    func signOut(token: String) async throws {
        try await sessions.end(token: token)
    }

    /// Every other session of the account ends; the caller's is replaced by the returned one.
    func changePassword(account: UUID, current: String, new: String, address: String) async throws -> String {
        guard let row = try await ProfileModel.find(account, on: database.db), let username = row.username else { throw Failure.wrongCredentials }
        try await confirm(current, of: row, address: address, field: "current", problem: "Your current password is not right.")
        if let problem = PasswordPolicy.problem(new, username: username) { throw Failure.invalid(["password": problem]) }
        row.passwordHash = try await Self.hash(new)
        row.updatedAt = clock.now()
        try await row.update(on: database.db)
        try await sessions.endAll(profile: account)
        return try await sessions.start(profile: account)
    }

    /// Deletes the account with its lists, searches, tokens and sessions, after the password is confirmed.
    func deleteAccount(account: UUID, password: String, address: String) async throws {
        guard let row = try await ProfileModel.find(account, on: database.db) else { throw Failure.wrongCredentials }
        try await confirm(password, of: row, address: address, field: "password", problem: "That password is not right; nothing was deleted.")
        try await sessions.endAll(profile: account)
        try await row.delete(on: database.db)
        tokens.forget(profile: account)
        library.versions.bump(account)
    }

    /// A signed-in account's own password, asked again before a change or deletion: wrong guesses
    /// count towards the same limits as sign-ins, so a stolen session cannot try passwords freely.
    private func confirm(_ password: String, of row: ProfileModel, address: String, field: String, problem: String) async throws {
        let username = row.username ?? ""
        if let wait = try await throttle.retryAfter(username: username, address: address) { throw Failure.throttled(retryAfter: wait) }
        guard try await Self.verify(password, hash: row.passwordHash) else {
            try await throttle.recordFailure(username: username, address: address)
            throw Failure.invalid([field: problem])
        }
    }

    /// Makes (or promotes) an admin account: `popcornswirl create-admin`.
    public func createAdmin(username raw: String, password: String) async throws -> Account {
        let username = try Self.validated(username: raw, password: password)
        let now = clock.now()
        let row = try await ProfileModel.query(on: database.db).filter(\.$username == username).first() ?? ProfileModel(kind: "account", now: now)
        row.kind = "account"
        row.username = username
        row.passwordHash = try await Self.hash(password)
        row.role = "admin"
        row.updatedAt = now
        try await row.save(on: database.db)
        if let id = row.id { try await sessions.endAll(profile: id) }
        return Account(id: try row.requireID(), username: username, isAdmin: true)
    }

    static func hash(_ password: String) async throws -> String {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: bcryptCost) }
    }

    /// Without a hash (no such account) the decoy is checked, and the answer is false.
    static func verify(_ password: String, hash: String?) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive {
            let matches = Bcrypt.verify(password, hash: hash ?? decoyHash)
            return hash != nil && matches
        }
    }
}
