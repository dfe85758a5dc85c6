import Foundation
import SQLKit

/// Where and when a person is told that an episode airs: ntfy (a topic's address, optional
/// token), Gotify (a server and an app token), Discord (a webhook's address) or a generic webhook
/// (JSON signed with HMAC-SHA256, its secret shown once).
public struct NotificationTarget: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case ntfy, gotify, discord, webhook

        public var label: String {
            switch self {
            case .ntfy: "ntfy"
            case .gotify: "Gotify"
            case .discord: "Discord"
            case .webhook: "Webhook"
            }
        }
    }

    public var id: UUID
    public var profile: UUID
    public var kind: Kind
    public var name: String
    public var url: String
    /// ntfy's access token or Gotify's app token.
    public var token: String?
    /// The webhook's signing secret.
    public var secret: String?
    public var settings: NotificationSettings
    public var createdAt: Date
    public var lastAttemptAt: Date?
    public var lastSuccessAt: Date?
    public var lastError: String?
    /// Since when every delivery failed (nil: the last one went through).
    public var failingSince: Date?
    /// Paused after a week of failures; nothing is sent until the person resumes it.
    public var pausedAt: Date?

    /// The address as the settings page shows it: without its query (a token may ride there), and
    /// a Discord webhook's cut short (its address is its secret).
    public var shownAddress: String {
        guard var parts = URLComponents(string: url) else { return url }
        parts.query = nil
        if kind == .discord { parts.path = String(parts.path.prefix(24)) + "…" }
        return parts.string ?? url
    }
}

/// When a target is told.
public struct NotificationSettings: Sendable, Equatable {
    /// As each episode of a tracked show airs…
    public var onAir = true
    /// …this many hours after its airstamp (0: at once).
    public var delayHours = 0
    /// A daily digest of the day's episodes…
    public var digest = false
    /// …at this local hour (7 to 22: never in the middle of the night).
    public var digestHour = 9

    public static let delays = [0, 1, 2, 3, 6, 12, 24]
    public static let digestHours = 7...22

    public init(onAir: Bool = true, delayHours: Int = 0, digest: Bool = false, digestHour: Int = 9) {
        self.onAir = onAir
        self.delayHours = delayHours
        self.digest = digest
        self.digestHour = digestHour
    }
}

public enum NotificationError: Error, Sendable, Equatable {
    case invalid(String)
    case notFound
    case storageFailed

    public var message: String {
        switch self {
        case .invalid(let message): message
        case .notFound: "You have no such notification target. It may have been removed already."
        case .storageFailed: "That could not be saved just now. Try again in a moment."
        }
    }
}

/// A person's notification targets, and what was sent to them.
public final class NotificationTargets: Sendable {
    static let maxPerPerson = 10
    let database: AppDatabase
    let clock: any AppClock
    let allowPrivate: Bool

    init(database: AppDatabase, clock: any AppClock, allowPrivate: Bool) {
        self.database = database
        self.clock = clock
        self.allowPrivate = allowPrivate
    }

    /// Checks what a person typed; the address is checked again, resolved, at every delivery.
    func validated(kind: NotificationTarget.Kind, url raw: String, token: String?) throws(NotificationError) -> (URL, String?) {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count <= 500, let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            throw .invalid("Give the full address, starting with https://.")
        }
        guard scheme == "https" || (scheme == "http" && allowPrivate) else {
            throw .invalid(
                allowPrivate ? "The address must start with https:// or http://." : "The address must start with https:// (a secure connection).")
        }
        guard url.user == nil, url.password == nil else { throw .invalid("Leave the user name and password out of the address.") }
        if !allowPrivate, let verdict = AddressCheck.literalVerdict(host), !verdict {
            throw .invalid("\(host) is a private or local address; PopcornSwirl sends only to public ones.")
        }
        switch kind {
        case .discord:
            guard url.path.hasPrefix("/api/webhooks/") else {
                throw .invalid("A Discord webhook’s address looks like https://discord.com/api/webhooks/…")
            }
        case .ntfy:
            guard url.path.split(separator: "/").count >= 1 else { throw .invalid("Give the topic’s address, such as https://ntfy.sh/my-shows.") }
        case .gotify, .webhook: break
        }
        let token = token?.trimmingCharacters(in: .whitespacesAndNewlines)
        if kind == .gotify, token?.isEmpty ?? true { throw .invalid("Gotify needs the application’s token (Apps › your app › Token).") }
        if let token, token.count > 200 || token.contains(where: { $0.isNewline || $0.isWhitespace }) {
            throw .invalid("That token does not look right: paste it without spaces.")
        }
        return (url, token?.isEmpty == true ? nil : token)
    }

    static func validated(_ settings: NotificationSettings) throws(NotificationError) -> NotificationSettings {
        guard NotificationSettings.delays.contains(settings.delayHours) else { throw .invalid("Choose when to be told from the list.") }
        guard NotificationSettings.digestHours.contains(settings.digestHour) else {
            throw .invalid("A digest is sent between 07:00 and 22:00: choose an hour from the list.")
        }
        guard settings.onAir || settings.digest else { throw .invalid("Choose at least one: as episodes air, or a daily digest.") }
        return settings
    }

    /// Adds a target; a webhook's signing secret is returned this once.
    public func add(
        profile: UUID, kind: NotificationTarget.Kind, url raw: String, token: String?, settings: NotificationSettings
    ) async throws(NotificationError) -> (target: NotificationTarget, secret: String?) {
        let (url, token) = try validated(kind: kind, url: raw, token: token)
        let settings = try Self.validated(settings)
        let secret = kind == .webhook ? "whsec_" + SessionService.newToken() : nil
        let target = NotificationTarget(
            id: UUID(), profile: profile, kind: kind, name: "\(kind.label) · \(url.host ?? "")", url: url.absoluteString, token: token,
            secret: secret, settings: settings, createdAt: clock.now())
        do {
            try await database.writeSQL { sql in
                let count =
                    try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("notification_targets")
                    .where("profile_id", .equal, SQLBind(profile)).first(decodingColumn: "n", as: Int.self) ?? 0
                guard count < Self.maxPerPerson else {
                    throw NotificationError.invalid("You have \(Self.maxPerPerson) targets already: remove one you no longer use first.")
                }
                try await sql.insert(into: "notification_targets")
                    .columns(
                        "id", "profile_id", "kind", "name", "url", "token", "secret", "on_air", "delay_hours", "digest", "digest_hour", "created_at"
                    )
                    .values(
                        SQLBind(target.id), SQLBind(profile), SQLBind(kind.rawValue), SQLBind(target.name), SQLBind(target.url), SQLBind(token),
                        SQLBind(secret), SQLBind(settings.onAir), SQLBind(settings.delayHours), SQLBind(settings.digest),
                        SQLBind(settings.digestHour), SQLBind(target.createdAt)
                    ).run()
            }
        } catch let error as NotificationError {
            throw error
        } catch {
            throw .storageFailed
        }
        return (target, secret)
    }

    struct Row: Decodable {
        static let columns = [
            "id", "profile_id", "kind", "name", "url", "token", "secret", "on_air", "delay_hours", "digest", "digest_hour", "created_at",
            "last_attempt_at", "last_success_at", "last_error", "failing_since", "paused_at",
        ]
        var id: UUID
        var profile_id: UUID
        var kind: String
        var name: String
        var url: String
        var token: String?
        var secret: String?
        var on_air: Bool
        var delay_hours: Int
        var digest: Bool
        var digest_hour: Int
        var created_at: Date
        var last_attempt_at: Date?
        var last_success_at: Date?
        var last_error: String?
        var failing_since: Date?
        var paused_at: Date?

        var target: NotificationTarget? {
            guard let kind = NotificationTarget.Kind(rawValue: kind) else { return nil }
            return NotificationTarget(
                id: id, profile: profile_id, kind: kind, name: name, url: url, token: token, secret: secret,
                settings: NotificationSettings(onAir: on_air, delayHours: delay_hours, digest: digest, digestHour: digest_hour),
                createdAt: created_at, lastAttemptAt: last_attempt_at, lastSuccessAt: last_success_at, lastError: last_error,
                failingSince: failing_since, pausedAt: paused_at)
        }
    }

    static func select(_ sql: any SQLDatabase) -> SQLSelectBuilder {
        sql.select().columns(Row.columns.map { SQLIdentifier($0) }).from("notification_targets")
    }

    /// The person's targets, oldest first.
    public func list(profile: UUID) async throws -> [NotificationTarget] {
        try await Self.select(database.sql).where("profile_id", .equal, SQLBind(profile)).orderBy("created_at").all(decoding: Row.self)
            .compactMap(\.target)
    }

    /// One of the person's targets (another person's is as unknown as none).
    public func target(profile: UUID, id: UUID) async throws -> NotificationTarget? {
        try await Self.select(database.sql).where("profile_id", .equal, SQLBind(profile)).where("id", .equal, SQLBind(id))
            .first(decoding: Row.self)?.target
    }

    /// Saves when the target is told.
    public func save(profile: UUID, id: UUID, settings: NotificationSettings) async throws(NotificationError) {
        let settings = try Self.validated(settings)
        try await change(profile: profile, id: id) { update in
            update.set("on_air", to: SQLBind(settings.onAir)).set("delay_hours", to: SQLBind(settings.delayHours))
                .set("digest", to: SQLBind(settings.digest)).set("digest_hour", to: SQLBind(settings.digestHour))
        }
    }

    /// Sends to a paused target again (its failures are forgotten).
    public func resume(profile: UUID, id: UUID) async throws(NotificationError) {
        try await change(profile: profile, id: id) { update in
            update.set("paused_at", to: SQLLiteral.null).set("failing_since", to: SQLLiteral.null)
        }
    }

    private func change(profile: UUID, id: UUID, _ set: @escaping @Sendable (SQLUpdateBuilder) -> SQLUpdateBuilder) async throws(NotificationError) {
        let changed: Int
        do {
            changed = try await database.writeSQL { sql in
                try await set(sql.update("notification_targets")).where("profile_id", .equal, SQLBind(profile)).where("id", .equal, SQLBind(id))
                    .returning("id").all().count
            }
        } catch {
            throw .storageFailed
        }
        guard changed > 0 else { throw .notFound }
    }

    /// Removes a target with its deliveries.
    public func remove(profile: UUID, id: UUID) async throws(NotificationError) {
        let removed: Int
        do {
            removed = try await database.writeSQL { sql in
                try await sql.delete(from: "notification_targets").where("profile_id", .equal, SQLBind(profile)).where("id", .equal, SQLBind(id))
                    .returning("id").all().count
            }
        } catch {
            throw .storageFailed
        }
        guard removed > 0 else { throw .notFound }
    }

    /// A delivery as the settings page lists it.
    public struct Delivery: Sendable, Equatable {
        public var targetID: UUID
        public var kind: String
        public var subject: String
        public var state: String
        public var attempts: Int
        public var answer: String?
        public var dueAt: Date
        public var sentAt: Date?
        /// What it told of: "Pokémon S29E44 “Into the Old Lighthouse!”", "the digest of 2026-11-20", "a test".
        public var what: String
    }

    /// The person's latest deliveries, newest first.
    public func deliveries(profile: UUID, limit: Int = 20) async throws -> [Delivery] {
        struct Row: Decodable {
            var target_id: UUID
            var kind: String
            var subject: String
            var state: String
            var attempts: Int
            var answer: String?
            var due_at: Date
            var sent_at: Date?
        }
        let rows = try await database.sql.select().columns("target_id", "kind", "subject", "state", "attempts", "answer", "due_at", "sent_at")
            .from("notification_deliveries").where("profile_id", .equal, SQLBind(profile)).orderBy("due_at", .descending).limit(limit)
            .all(decoding: Row.self)
        let episodes = try await episodeNames(profile: profile, ids: rows.filter { $0.kind == "episode" }.compactMap { Int($0.subject) })
        return rows.map {
            let what =
                switch $0.kind {
                case "episode": episodes[Int($0.subject) ?? 0] ?? "episode \($0.subject)"
                case "digest": "the digest of \($0.subject)"
                default: "a test"
                }
            return Delivery(
                targetID: $0.target_id, kind: $0.kind, subject: $0.subject, state: $0.state, attempts: $0.attempts, answer: $0.answer,
                dueAt: $0.due_at, sentAt: $0.sent_at, what: what)
        }
    }

    /// "Pokémon S29E44 “Into the Old Lighthouse!”" for each episode id the catalogue holds.
    private func episodeNames(profile: UUID, ids: [Int]) async throws -> [Int: String] {
        guard !ids.isEmpty else { return [:] }
        struct Row: Decodable {
            var id: Int
            var show_id: Int
            var season: Int
            var number: Int?
            var name: String
            var title: String?
        }
        let list = SQLGroupExpression(Set(ids).sorted().map { SQLBind($0) as any SQLExpression })
        let rows = try await database.sql.raw(
            """
            SELECT e.id, e.show_id, e.season, e.number, e.name, p.title FROM tv_episodes e \
            LEFT JOIN show_progress p ON p.show_id = e.show_id AND p.profile_id = \(bind: profile) WHERE e.id IN \(list)
            """
        ).all(decoding: Row.self)
        var names: [Int: String] = [:]
        for row in rows {
            let code = "S" + Episode.twoDigits(row.season) + (row.number.map { "E" + Episode.twoDigits($0) } ?? " special")
            names[row.id] = "\(row.title ?? "Show \(row.show_id)") \(code) “\(row.name)”"
        }
        return names
    }
}
