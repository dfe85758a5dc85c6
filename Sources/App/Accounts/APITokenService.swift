import FluentKit
import Foundation

/// Personal API tokens: `Authorization: Bearer ps_…` acts as the account that made it. A token is
/// shown once when made; the database keeps its SHA-256 (the token is 256 random bits, so a fast
/// hash is enough) and its first characters as a hint. Revoking deletes the row, and every server
/// reads the row on each call: the bench mix has no token traffic for a kept copy to pay for.
public final class APITokenService: Sendable {
    static let prefix = "ps_"
    static let maxPerAccount = 25
    static let nameLength = 1...60
    static let lastUsedResolution: TimeInterval = 3600

    let database: AppDatabase
    let clock: any AppClock

    init(database: AppDatabase, clock: any AppClock) {
        self.database = database
        self.clock = clock
    }

    /// The account a token acts as.
    public struct Caller: Sendable, Equatable {
        public let profile: UUID
        public let isAdmin: Bool
    }

    public struct Token: Sendable, Equatable {
        public let id: UUID
        public let name: String
        public let hint: String
        public let createdAt: Date
        public let lastUsedAt: Date?
    }

    public enum Failure: DomainFailure, Equatable, CustomStringConvertible {
        case invalidName
        case tooMany

        public var description: String {
            switch self {
            case .invalidName: "Name the token (1 to \(APITokenService.nameLength.upperBound) characters), e.g. the script that will use it."
            case .tooMany: "An account has at most \(APITokenService.maxPerAccount) tokens. Revoke one you no longer use first."
            }
        }
    }

    /// Whether a name is acceptable, checked before the password is asked for (see
    /// `AccountService.createToken`).
    static func validName(_ raw: String) throws(Failure) -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard nameLength.contains(name.count), !name.contains(where: { $0.isNewline }) else { throw .invalidName }
        return name
    }

    /// Makes a token for an account; the plain token is returned this once and never again. The
    /// count and the insert are one write, so parallel requests cannot pass 25 together.
    func create(profile: UUID, name raw: String) async throws -> (token: String, record: Token) {
        let name = try Self.validName(raw)
        let token = Self.prefix + SessionService.newToken()
        let row = APITokenModel(
            profileID: profile, name: name, tokenHash: SessionService.hash(token), hint: String(token.prefix(Self.prefix.count + 6)), now: clock.now()
        )
        try await database.write { db in
            guard try await APITokenModel.query(on: db).filter(\.$profileID == profile).count() < Self.maxPerAccount else {
                throw Failure.tooMany
            }
            try await row.create(on: db)
        }
        return (token, Self.record(row))
    }

    /// The account's tokens, newest first.
    func list(profile: UUID) async throws -> [Token] {
        try await APITokenModel.query(on: database.db).filter(\.$profileID == profile).sort(\.$createdAt, .descending).all().map(Self.record)
    }

    /// Revokes one of the account's tokens; false when it has no such token (another account's included).
    func revoke(profile: UUID, id: UUID) async throws -> Bool {
        guard let row = try await APITokenModel.query(on: database.db).filter(\.$id == id).filter(\.$profileID == profile).first() else {
            return false
        }
        try await database.write { db in try await row.delete(on: db) }
        return true
    }

    /// Revokes every token of the account (a password change, unless the person keeps them);
    /// returns how many.
    @discardableResult
    func revokeAll(profile: UUID) async throws -> Int {
        try await database.write { db in
            let count = try await APITokenModel.query(on: db).filter(\.$profileID == profile).count()
            try await APITokenModel.query(on: db).filter(\.$profileID == profile).delete()
            return count
        }
    }

    /// The account a bearer token acts as; nil for an unknown, revoked or malformed token.
    public func caller(forToken token: String) async throws -> Caller? {
        guard token.hasPrefix(Self.prefix), RandomToken.isWellFormed(String(token.dropFirst(Self.prefix.count))) else { return nil }
        let key = SessionService.hash(token)
        let now = clock.now()
        guard let row = try await APITokenModel.query(on: database.db).filter(\.$tokenHash == key).first(),
            let profile = try await ProfileModel.find(row.profileID, on: database.db), profile.kind == "account"
        else { return nil }
        if row.lastUsedAt.map({ now.timeIntervalSince($0) >= Self.lastUsedResolution }) ?? true {
            // Best effort: a busy database must not fail the call.
            try? await database.write { db in
                try await APITokenModel.query(on: db).filter(\.$tokenHash == key).set(\.$lastUsedAt, to: now).update()
            }
        }
        return Caller(profile: row.profileID, isAdmin: profile.role == "admin")
    }

    private static func record(_ row: APITokenModel) -> Token {
        Token(id: row.id!, name: row.name, hint: row.hint, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt)
    }
}
