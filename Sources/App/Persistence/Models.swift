import FluentKit
import Foundation

/// A person using PopcornSwirl. Starts as an anonymous visitor; the accounts work turns the same row
/// into an account (kind + credentials), so lists never move between tables.
final class ProfileModel: Model, @unchecked Sendable {
    static let schema = "profiles"

    @ID(key: .id) var id: UUID?
    @Field(key: "kind") var kind: String
    @OptionalField(key: "username") var username: String?
    /// `$ps1$` + bcrypt (cost 12) of the password's HMAC-SHA256 (see PasswordHasher); older rows
    /// hold plain bcrypt until their next sign-in; nil for a visitor.
    @OptionalField(key: "password_hash") var passwordHash: String?
    @OptionalField(key: "role") var role: String?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    init(id: UUID = UUID(), kind: String = "visitor", now: Date) {
        self.id = id
        self.kind = kind
        self.createdAt = now
        self.updatedAt = now
    }
}

/// A browser session: the cookie carries a random token, the table keeps only its SHA-256.
final class SessionModel: Model, @unchecked Sendable {
    static let schema = "sessions"

    @ID(custom: "token_hash", generatedBy: .user) var id: String?
    @Field(key: "profile_id") var profileID: UUID
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "last_seen_at") var lastSeenAt: Date
    /// When the session ends whatever its use (an account's); nil for a visitor's (idle expiry only).
    @OptionalField(key: "expires_at") var expiresAt: Date?
    /// Signed in with "remember me": the cookie outlives the browser.
    @Field(key: "remember") var remember: Bool
    /// A short label of the browser, from its User-Agent ("Firefox on Linux"), for the account page.
    @OptionalField(key: "device") var device: String?

    init() {}

    init(tokenHash: String, profileID: UUID, now: Date, expiresAt: Date? = nil, remember: Bool = false, device: String? = nil) {
        self.id = tokenHash
        self.profileID = profileID
        self.createdAt = now
        self.lastSeenAt = now
        self.expiresAt = expiresAt
        self.remember = remember
        self.device = device
    }
}

/// One title in a profile's lists. Card fields are columns (cheap list pages); the snapshot keeps
/// everything the detail page needs when upstream is unreachable.
final class LibraryEntryModel: Model, @unchecked Sendable {
    static let schema = "library_entries"

    @ID(key: .id) var id: UUID?
    @Field(key: "profile_id") var profileID: UUID
    @Field(key: "media_kind") var mediaKind: String
    @Field(key: "item_id") var itemID: String
    @Field(key: "title") var title: String
    @OptionalField(key: "genre") var genre: String?
    @OptionalField(key: "release_date") var releaseDate: Date?
    @OptionalField(key: "artwork_url") var artworkURL: String?
    @Field(key: "favorite") var favorite: Bool
    @Field(key: "watched") var watched: Bool
    @OptionalField(key: "note") var note: String?
    /// 1–10, half stars (`Rating`); nil when not rated.
    @OptionalField(key: "rating") var rating: Int16?
    @Field(key: "snapshot") var snapshot: Data
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}
}

/// Upstream answers with the time they were fetched.
final class CacheEntryModel: Model, @unchecked Sendable {
    static let schema = "catalog_cache"

    @ID(custom: "cache_key", generatedBy: .user) var id: String?
    @Field(key: "body") var body: Data
    @Field(key: "fetched_at") var fetchedAt: Date

    init() {}
}

/// A profile's most recently found film: shown when the Search screen opens, online or offline.
final class LastSearchModel: Model, @unchecked Sendable {
    static let schema = "last_searches"

    @ID(custom: "profile_id", generatedBy: .user) var id: UUID?
    @Field(key: "query") var query: String
    /// The iTunes film as JSON (`Movie`).
    @Field(key: "movie") var movie: Data
    /// OMDb's details as JSON (`OMDbDetails`), when there were any.
    @OptionalField(key: "details") var details: Data?
    @Field(key: "searched_at") var searchedAt: Date

    init() {}
}

/// A personal API token: its name, the SHA-256 of the token (never the token), and when it was
/// made and last used.
final class APITokenModel: Model, @unchecked Sendable {
    static let schema = "api_tokens"

    @ID(key: .id) var id: UUID?
    @Field(key: "profile_id") var profileID: UUID
    @Field(key: "name") var name: String
    @Field(key: "token_hash") var tokenHash: String
    /// The token's first characters, so its owner can tell tokens apart.
    @Field(key: "hint") var hint: String
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "last_used_at") var lastUsedAt: Date?

    init() {}

    init(profileID: UUID, name: String, tokenHash: String, hint: String, now: Date) {
        self.profileID = profileID
        self.name = name
        self.tokenHash = tokenHash
        self.hint = hint
        self.createdAt = now
    }
}
