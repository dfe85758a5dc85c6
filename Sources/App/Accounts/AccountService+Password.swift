import FluentKit
import Foundation

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
        tokens.forget(profile: account)
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
