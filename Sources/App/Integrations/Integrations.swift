import Crypto
import Foundation
import SQLKit

/// One media server's private URL of a person's: what it follows and how.
public struct Integration: Sendable, Equatable {
    public var id: UUID
    public var profileID: UUID
    public var kind: IntegrationKind
    public var settings: IntegrationSettings
    public var createdAt: Date
    public var lastEventAt: Date?
}

/// What a person sets on an integration.
public struct IntegrationSettings: Sendable, Equatable {
    /// The progress (percent) at which a play counts as watched, when the server does not say so.
    public var threshold = 90
    /// Only this server user's plays count (Plex `Account.title`, Jellyfin and Emby user names); nil: everyone's.
    public var serverUser: String?
    /// "Mark unplayed" on the server erases the watch here.
    public var unplayedErases = false

    public static let thresholds = 50...100

    public init(threshold: Int = 90, serverUser: String? = nil, unplayedErases: Bool = false) {
        self.threshold = threshold
        self.serverUser = serverUser
        self.unplayedErases = unplayedErases
    }
}

public enum IntegrationError: Error, Sendable, Equatable {
    case notFound
    case invalid(String)
    case needsAccount

    public var message: String {
        switch self {
        case .notFound: "There is no such integration or event of yours."
        case .invalid(let message): message
        case .needsAccount: "Media servers are linked to an account: sign up (your lists come with you), then add one."
        }
    }
}

/// An event as the Integrations page shows it: what the server said, and what it came to.
public struct IntegrationEvent: Sendable, Equatable {
    public enum State: String, Sendable {
        /// Received, not yet matched.
        case pending
        /// Waiting for an upstream's allowance, asked again later.
        case retry
        /// No title found for sure: in Needs review.
        case waiting
        case done
    }

    /// What an event came to (`popcornswirl_integration_events_total{result}`).
    public enum Result: String, Sendable, CaseIterable {
        case watched, duplicate
        case belowThreshold = "below_threshold"
        case unmatched, unplayed, unwatched, ignored
        case otherUser = "other_user"
    }

    public var id: UUID
    public var integrationID: UUID
    public var receivedAt: Date
    /// The server's words: "Breaking Bad S01E02 “Cat's in the Bag...”: watched".
    public var said: String
    public var state: State
    public var result: Result?
    /// What it matched ("Breaking Bad S01E02, watched"), or why not.
    public var detail: String?
    /// The titles it might be (Needs review).
    public var candidates: [TitleCandidate]
    public var event: MediaEvent?
}

/// People's integration URLs and the events their servers send. A URL's token is random, shown
/// once, and stored as its SHA-256 (like the calendar feed's); revoking deletes the integration
/// with its events, so the old URL answers 404. Each event is stored before it is answered; the
/// same event again (its `eventId`, else the same bytes) is the same receipt.
public final class Integrations: Sendable {
    let database: AppDatabase
    let clock: any AppClock

    /// Events kept per integration: the page shows the latest; older ones (not waiting for the
    /// person) go as new ones come.
    static let keptEvents = 500

    init(database: AppDatabase, clock: any AppClock) {
        self.database = database
        self.clock = clock
    }

    // MARK: Integrations

    /// The most integrations one person may have (a server each, and some to spare).
    static let perPerson = 20

    /// A new integration URL's token (returned this once) for one of the person's servers.
    public func create(profile: UUID, kind: IntegrationKind) async throws(IntegrationError) -> (Integration, token: String) {
        let token = SessionService.newToken()
        let integration = Integration(id: UUID(), profileID: profile, kind: kind, settings: IntegrationSettings(), createdAt: clock.now())
        let made: Bool
        do {
            made = try await database.write(serializedBy: "integrations|\(profile)") { db in
                let sql = db as! any SQLDatabase
                let count =
                    try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("integrations")
                    .where("profile_id", .equal, SQLBind(profile)).first(decodingColumn: "n", as: Int.self) ?? 0
                guard count < Self.perPerson else { return false }
                try await sql.insert(into: "integrations")
                    .columns("id", "profile_id", "kind", "token_hash", "threshold", "server_user", "unplayed_erases", "created_at")
                    .values(
                        SQLBind(integration.id), SQLBind(profile), SQLBind(kind.rawValue), SQLBind(SessionService.hash(token)),
                        SQLBind(integration.settings.threshold), SQLBind(nil as String?), SQLBind(false), SQLBind(integration.createdAt)
                    ).run()
                return true
            }
        } catch {
            throw .invalid("The integration could not be made just now. Try again.")
        }
        guard made else { throw .invalid("You have \(Self.perPerson) integrations, the most one person may have: revoke one first.") }
        return (integration, token)
    }

    /// Deletes the integration and its events; false when the person has none of that id.
    @discardableResult
    public func revoke(profile: UUID, id: UUID) async throws -> Bool {
        try await database.writeSQL { sql in
            struct Row: Decodable { var id: UUID }
            return try await sql.delete(from: "integrations").where("id", .equal, SQLBind(id)).where("profile_id", .equal, SQLBind(profile))
                .returning("id").all(decoding: Row.self).count > 0
        }
    }

    public func save(profile: UUID, id: UUID, settings: IntegrationSettings) async throws(IntegrationError) {
        guard IntegrationSettings.thresholds.contains(settings.threshold) else {
            throw .invalid("The share of a play that counts as watched must be from 50 % to 100 %.")
        }
        let user = settings.serverUser?.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (user?.count ?? 0) <= 100 else { throw .invalid("A server user’s name has at most 100 characters.") }
        let updated: Bool
        do {
            updated = try await database.writeSQL { sql in
                struct Row: Decodable { var id: UUID }
                return try await sql.update("integrations").set("threshold", to: SQLBind(settings.threshold))
                    .set("server_user", to: SQLBind(user?.isEmpty == false ? user : nil)).set("unplayed_erases", to: SQLBind(settings.unplayedErases))
                    .where("id", .equal, SQLBind(id)).where("profile_id", .equal, SQLBind(profile)).returning("id").all(decoding: Row.self).count > 0
            }
        } catch {
            throw .invalid("The settings could not be saved. Try again.")
        }
        guard updated else { throw .notFound }
    }

    struct Row: Decodable {
        var id: UUID
        var profile_id: UUID
        var kind: String
        var threshold: Int
        var server_user: String?
        var unplayed_erases: Bool
        var created_at: Date
        var last_event_at: Date?

        static let columns = ["id", "profile_id", "kind", "threshold", "server_user", "unplayed_erases", "created_at", "last_event_at"]

        var integration: Integration? {
            IntegrationKind(rawValue: kind).map {
                Integration(
                    id: id, profileID: profile_id, kind: $0,
                    settings: IntegrationSettings(threshold: threshold, serverUser: server_user, unplayedErases: unplayed_erases),
                    createdAt: created_at, lastEventAt: last_event_at)
            }
        }
    }

    private func select(_ sql: any SQLDatabase) -> SQLSelectBuilder {
        sql.select().columns(Row.columns.map { SQLIdentifier($0) }).from("integrations")
    }

    public func list(profile: UUID) async throws -> [Integration] {
        try await select(database.sql).where("profile_id", .equal, SQLBind(profile)).orderBy("created_at").all(decoding: Row.self)
            .compactMap(\.integration)
    }

    func integration(id: UUID, on sql: (any SQLDatabase)? = nil) async throws -> Integration? {
        try await select(sql ?? database.sql).where("id", .equal, SQLBind(id)).first(decoding: Row.self)?.integration
    }

    /// The integration a URL's token is of (nil: none, or revoked), when it is of that kind.
    public func integration(token: String, kind: IntegrationKind) async throws -> Integration? {
        guard token.count == 43, token.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else { return nil }
        let found = try await select(database.sql).where("token_hash", .equal, SQLBind(SessionService.hash(token))).first(decoding: Row.self)
        return found?.integration.flatMap { $0.kind == kind ? $0 : nil }
    }

    // MARK: Events

    /// Stores an event: its receipt, and whether it is new (false: the same event came before).
    public func receive(_ event: MediaEvent, body: Data, for integration: Integration) async throws -> (receipt: UUID, isNew: Bool) {
        let key = event.eventID.map { "id:" + $0 } ?? "body:" + SHA256.hash(data: body).withUnsafeBytes { Hex.string($0) }
        let now = clock.now()
        let id = UUID()
        let json = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
        let said = Self.said(event)
        return try await database.writeSQL { sql in
            struct Row: Decodable { var id: UUID }
            let inserted = try await sql.insert(into: "integration_events")
                .columns(
                    "id", "integration_id", "profile_id", "event_key", "received_at", "event", "said", "state", "attempts", "next_attempt_at"
                )
                .values(
                    SQLBind(id), SQLBind(integration.id), SQLBind(integration.profileID), SQLBind(key), SQLBind(now), SQLBind(json), SQLBind(said),
                    SQLBind(IntegrationEvent.State.pending.rawValue), SQLBind(0), SQLBind(now)
                )
                .ignoringConflicts(with: ["integration_id", "event_key"])
                .returning("id").first(decoding: Row.self)
            guard inserted != nil else {
                let existing = try await sql.select().column("id").from("integration_events").where("integration_id", .equal, SQLBind(integration.id))
                    .where("event_key", .equal, SQLBind(key)).first(decoding: Row.self)
                return (existing?.id ?? id, false)
            }
            try await sql.update("integrations").set("last_event_at", to: SQLBind(now)).where("id", .equal, SQLBind(integration.id)).run()
            // The oldest settled events beyond those kept go (looked for once in 16 events).
            guard Int.random(in: 0..<16) == 0 else { return (id, true) }
            try await sql.raw(
                """
                DELETE FROM integration_events WHERE integration_id = \(bind: integration.id) AND state = 'done' AND id IN \
                (SELECT id FROM integration_events WHERE integration_id = \(bind: integration.id) AND state = 'done' \
                ORDER BY received_at DESC LIMIT 1000000 OFFSET \(unsafeRaw: String(Self.keptEvents)))
                """
            ).run()
            return (id, true)
        }
    }

    /// The server's words for an event, as the page lists them.
    static func said(_ event: MediaEvent) -> String {
        var name: String
        if event.type == .episode {
            name = event.show ?? "An episode"
            if let season = event.season, let number = event.episode {
                name += " S" + Episode.twoDigits(season) + "E" + Episode.twoDigits(number)
                if let end = event.episodeEnd, end > number { name += "–E" + Episode.twoDigits(end) }
            } else if let aired = event.aired {
                name += " of " + aired
            }
            if let title = event.title { name += " “\(title)”" }
        } else {
            name = event.title ?? event.ids.imdb ?? "A film"
            if let year = event.year { name += " (\(year))" }
        }
        let what: String =
            switch event.action {
            case .watched: "watched"
            case .progress: event.progress.map { "played \(Int($0.rounded())) %" } ?? "played"
            case .unplayed: "marked unplayed"
            case .ignored: "nothing to record"
            }
        return name + ": " + what + (event.user.map { " (by \($0))" } ?? "")
    }

    struct EventRow: Decodable {
        var id: UUID
        var integration_id: UUID
        var received_at: Date
        var said: String
        var state: String
        var result: String?
        var detail: String?
        var candidates: String?
        var event: String

        static let columns = ["id", "integration_id", "received_at", "said", "state", "result", "detail", "candidates", "event"]

        var value: IntegrationEvent {
            IntegrationEvent(
                id: id, integrationID: integration_id, receivedAt: received_at, said: said,
                state: IntegrationEvent.State(rawValue: state) ?? .pending, result: result.flatMap(IntegrationEvent.Result.init(rawValue:)),
                detail: detail,
                candidates: candidates.flatMap { try? JSONDecoder().decode([TitleCandidate].self, from: Data($0.utf8)) } ?? [],
                event: try? JSONDecoder().decode(MediaEvent.self, from: Data(event.utf8)))
        }
    }

    /// The person's latest events, newest first.
    public func events(profile: UUID, limit: Int = 30) async throws -> [IntegrationEvent] {
        try await database.sql.select().columns(EventRow.columns.map { SQLIdentifier($0) }).from("integration_events")
            .where("profile_id", .equal, SQLBind(profile)).orderBy("received_at", .descending).limit(limit).all(decoding: EventRow.self)
            .map(\.value)
    }

    /// The person's events waiting for their choice of title (Needs review), oldest first.
    public func waiting(profile: UUID, limit: Int = 50) async throws -> [IntegrationEvent] {
        try await database.sql.select().columns(EventRow.columns.map { SQLIdentifier($0) }).from("integration_events")
            .where("profile_id", .equal, SQLBind(profile)).where("state", .equal, SQLBind(IntegrationEvent.State.waiting.rawValue))
            .orderBy("received_at").limit(limit).all(decoding: EventRow.self).map(\.value)
    }

    /// One of the person's events (nil: none of theirs).
    public func event(profile: UUID, id: UUID) async throws -> IntegrationEvent? {
        try await database.sql.select().columns(EventRow.columns.map { SQLIdentifier($0) }).from("integration_events")
            .where("id", .equal, SQLBind(id)).where("profile_id", .equal, SQLBind(profile)).first(decoding: EventRow.self)?.value
    }
}
