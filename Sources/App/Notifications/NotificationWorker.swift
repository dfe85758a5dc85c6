import Crypto
import Foundation
import Logging
import SQLKit
import ServiceLifecycle

/// Sends what people asked to be told, on every server. Each round plans (a row of
/// `notification_deliveries` per target and episode aired, or per target and local day for a
/// digest, inserted once: the unique key makes a second server's insert nothing) and sends what is
/// due, each row claimed by one server with a conditional update before it is sent. So a notice
/// goes out once whatever the number of servers, and one a server died while sending is claimed
/// again after two minutes. An episode already watched when its notice is due is not sent.
/// Failures are tried again with backoff (1 min doubling to an hour) for a day; a target failing
/// for a week is paused.
public struct NotificationWorker: Service {
    let database: AppDatabase
    let calendar: CalendarService
    let poster: any NotificationPosting
    let clock: any AppClock
    let logger: Logger
    /// The page of an episode, for a notice's link (nil without `PUBLIC_URL`: no link).
    let episodeLink: @Sendable (Int) -> String?
    /// This server, for the claims it makes.
    let owner: String
    var interval: TimeInterval = 30

    static let claimFor: TimeInterval = 120
    static let retryFor: TimeInterval = 86_400
    static let pauseAfter: TimeInterval = 7 * 86_400
    /// How late an airing is still worth telling (a server down for a while).
    static let lookBack: TimeInterval = 86_400

    public func run() async throws {
        try await repeatRounds(every: interval, logger: logger, name: "notifications") { _ = try await round() }
    }

    struct Round: Equatable {
        var planned = 0
        var sent = 0
        var skipped = 0
        var failed = 0
    }

    /// Plans what is due and sends it.
    @discardableResult
    func round() async throws -> Round {
        var round = Round()
        round.planned = try await plan()
        while true {
            let claimed = try await claim(limit: 20)
            if claimed.isEmpty { break }
            for delivery in claimed {
                switch await deliver(delivery) {
                case .sent: round.sent += 1
                case .skipped: round.skipped += 1
                case .failed: round.failed += 1
                }
            }
        }
        return round
    }

    // MARK: Planning

    func activeTargets() async throws -> [NotificationTarget] {
        try await NotificationTargets.select(database.sql).where(SQLIdentifier("paused_at"), .is, SQLLiteral.null).all(
            decoding: NotificationTargets.Row.self
        )
        .compactMap(\.target)
    }

    /// Inserts the deliveries now due; returns how many were new.
    func plan() async throws -> Int {
        let now = clock.now()
        var planned = 0
        for target in try await activeTargets() {
            let sql = try database.sql
            let zone = try await calendar.zone(profile: target.profile)
            if target.settings.onAir {
                let delay = TimeInterval(target.settings.delayHours * 3600)
                let shows = try await calendar.trackedShows(profile: target.profile, on: sql)
                if !shows.isEmpty {
                    struct Aired: Decodable {
                        var id: Int
                        var airstamp: Date
                    }
                    let since = max(target.createdAt, now.addingTimeInterval(-Self.lookBack)).addingTimeInterval(-delay)
                    let ids = SQLGroupExpression(shows.keys.sorted().map { SQLBind($0) as any SQLExpression })
                    let aired = try await sql.raw(
                        """
                        SELECT id, airstamp FROM tv_episodes WHERE show_id IN \(ids) AND airstamp IS NOT NULL \
                        AND airstamp > \(bind: since) AND airstamp <= \(bind: now.addingTimeInterval(-delay)) LIMIT 500
                        """
                    ).all(decoding: Aired.self)
                    // Each round sees the last day's airings again: those planned already cost one
                    // read here, not a write each (the unique key would refuse them anyway).
                    struct Planned: Decodable { var subject: String }
                    let known = Set(
                        try await sql.select().column("subject").from("notification_deliveries").where("target_id", .equal, SQLBind(target.id))
                            .where("kind", .equal, SQLBind("episode")).where("due_at", .greaterThan, SQLBind(since))
                            .all(decoding: Planned.self).map(\.subject))
                    for episode in aired where !known.contains(String(episode.id)) {
                        let due = episode.airstamp.addingTimeInterval(delay)
                        // With a digest chosen, nothing at night: the episode is in the next digest.
                        let hour = Calendar.hour(of: due, in: zone)
                        let quiet = target.settings.digest && (hour >= 23 || hour < 7)
                        planned += try await insert(
                            target, kind: "episode", subject: String(episode.id), due: due, state: quiet ? "folded" : "pending")
                    }
                }
            }
            if target.settings.digest {
                let today = CalendarService.day(of: now, in: zone)
                if let start = CalendarService.start(of: today, in: zone) {
                    let due = start.addingTimeInterval(TimeInterval(target.settings.digestHour * 3600))
                    if due <= now, due > target.createdAt, now.timeIntervalSince(due) < Self.lookBack {
                        planned += try await insert(target, kind: "digest", subject: today, due: due, state: "pending")
                    }
                }
            }
        }
        return planned
    }

    private func insert(_ target: NotificationTarget, kind: String, subject: String, due: Date, state: String) async throws -> Int {
        let now = clock.now()
        return try await database.writeSQL { sql in
            try await sql.raw(
                """
                INSERT INTO notification_deliveries (id, target_id, profile_id, kind, subject, due_at, state, attempts, next_attempt_at, \
                answer, created_at) VALUES (\(bind: UUID()), \(bind: target.id), \(bind: target.profile), \(bind: kind), \(bind: subject), \
                \(bind: due), \(bind: state), 0, \(bind: due), \(bind: state == "folded" ? "At night: in the next digest." : nil), \(bind: now)) \
                ON CONFLICT (target_id, kind, subject) DO NOTHING RETURNING id
                """
            ).all().count
        }
    }

    // MARK: Sending

    struct Claimed: Decodable, Sendable {
        var id: UUID
        var target_id: UUID
        var profile_id: UUID
        var kind: String
        var subject: String
        var due_at: Date
        var attempts: Int
    }

    /// Claims up to `limit` due deliveries for this server.
    func claim(limit: Int) async throws -> [Claimed] {
        let now = clock.now()
        let sql = try database.sql
        let due: SQLQueryString =
            "((state IN ('pending', 'retry') AND next_attempt_at <= \(bind: now)) OR (state = 'sending' AND claimed_until < \(bind: now)))"
        struct Candidate: Decodable { var id: UUID }
        let candidates = try await sql.raw("SELECT id FROM notification_deliveries WHERE \(due) ORDER BY next_attempt_at LIMIT \(bind: limit)")
            .all(decoding: Candidate.self)
        var claimed: [Claimed] = []
        for candidate in candidates {
            let row = try await database.writeSQL { sql in
                try await sql.raw(
                    """
                    UPDATE notification_deliveries SET state = 'sending', claimed_by = \(bind: owner), \
                    claimed_until = \(bind: now.addingTimeInterval(Self.claimFor)) WHERE id = \(bind: candidate.id) AND \(due) \
                    RETURNING id, target_id, profile_id, kind, subject, due_at, attempts
                    """
                ).first(decoding: Claimed.self)
            }
            if let row { claimed.append(row) }
        }
        return claimed
    }

    enum Outcome { case sent, skipped, failed }

    func deliver(_ delivery: Claimed) async -> Outcome {
        do {
            guard
                let target = try await NotificationTargets.select(database.sql).where("id", .equal, SQLBind(delivery.target_id))
                    .first(decoding: NotificationTargets.Row.self)?.target
            else { return .skipped }
            if target.pausedAt != nil { return try await finish(delivery, state: "skipped", answer: "Not sent: the target is paused.") }
            guard let message = try await message(for: delivery, target: target) else {
                return try await finish(delivery, state: "skipped", answer: skipReason(delivery))
            }
            let request = NotificationFormats.request(message, for: target)
            let answer: DeliveryAnswer
            do {
                answer = try await poster.post(request.url, headers: request.headers, body: request.body)
            } catch {
                return try await failed(delivery, target: target, error: error.message)
            }
            guard answer.ok else { return try await failed(delivery, target: target, error: "\(target.kind.label) answered \(answer.words)") }
            try await record(target, error: nil)
            return try await finish(delivery, state: "sent", answer: answer.words)
        } catch {
            logger.error("notifications: delivery \(delivery.id) not recorded: \(String(reflecting: error))")
            return .failed
        }
    }

    private func skipReason(_ delivery: Claimed) -> String {
        delivery.kind == "digest" ? "Not sent: nothing unwatched airs that day." : "Not sent: watched already, or no longer tracked."
    }

    /// The notice for a delivery, checked now: nil when there is nothing to say (an episode watched
    /// or no longer tracked; a digest with nothing unwatched).
    func message(for delivery: Claimed, target: NotificationTarget) async throws -> NotificationMessage? {
        let sql = try database.sql
        switch delivery.kind {
        case "episode":
            guard let id = Int(delivery.subject) else { return nil }
            let shows = try await calendar.trackedShows(profile: delivery.profile_id, on: sql)
            guard let item = try await calendar.episodeItem(id, profile: delivery.profile_id, shows: shows), !item.watched else { return nil }
            return NotificationMessage.episodes(
                [item], event: .airing, deliveryID: delivery.id, now: clock.now(), link: episodeLink, delayHours: target.settings.delayHours)
        case "digest":
            let zone = try await calendar.zone(profile: delivery.profile_id)
            var query = CalendarQuery(from: delivery.subject, to: delivery.subject, zone: zone)
            query.unwatchedOnly = true
            let items = try await calendar.items(profile: delivery.profile_id, query).filter { $0.kind == .episode }
            guard !items.isEmpty else { return nil }
            return NotificationMessage.episodes(items, event: .digest, deliveryID: delivery.id, now: clock.now(), link: episodeLink, delayHours: 0)
        default:
            return nil
        }
    }

    private func finish(_ delivery: Claimed, state: String, answer: String) async throws -> Outcome {
        let now = clock.now()
        try await database.writeSQL { sql in
            try await sql.update("notification_deliveries").set("state", to: SQLBind(state)).set("answer", to: SQLBind(answer))
                .set("sent_at", to: state == "sent" ? SQLBind(now) as any SQLExpression : SQLLiteral.null)
                .set("claimed_until", to: SQLLiteral.null).where("id", .equal, SQLBind(delivery.id)).run()
        }
        return state == "sent" ? .sent : .skipped
    }

    private func failed(_ delivery: Claimed, target: NotificationTarget, error: String) async throws -> Outcome {
        let now = clock.now()
        let attempts = delivery.attempts + 1
        let givesUp = now.timeIntervalSince(delivery.due_at) >= Self.retryFor
        let wait = min(60 * pow(2, Double(attempts - 1)), 3600)
        try await database.writeSQL { sql in
            try await sql.update("notification_deliveries").set("state", to: SQLBind(givesUp ? "failed" : "retry"))
                .set("attempts", to: SQLBind(attempts)).set("answer", to: SQLBind(String(error.prefix(300))))
                .set("next_attempt_at", to: SQLBind(now.addingTimeInterval(wait))).set("claimed_until", to: SQLLiteral.null)
                .where("id", .equal, SQLBind(delivery.id)).run()
        }
        try await record(target, error: error)
        return .failed
    }

    /// The target's last delivery: its error (nil: it went through), since when it fails, paused after a week.
    func record(_ target: NotificationTarget, error: String?) async throws {
        let now = clock.now()
        try await database.writeSQL { sql in
            let update = sql.update("notification_targets").set("last_attempt_at", to: SQLBind(now))
            if let error {
                let since = target.failingSince ?? now
                update.set("last_error", to: SQLBind(String(error.prefix(300)))).set("failing_since", to: SQLBind(since))
                if now.timeIntervalSince(since) >= Self.pauseAfter { update.set("paused_at", to: SQLBind(now)) }
            } else {
                update.set("last_error", to: SQLLiteral.null).set("failing_since", to: SQLLiteral.null).set("last_success_at", to: SQLBind(now))
            }
            try await update.where("id", .equal, SQLBind(target.id)).run()
        }
    }

    /// "Send a test": one notice now, what the target answered said in words.
    func sendTest(_ target: NotificationTarget) async throws -> (ok: Bool, words: String) {
        let id = UUID()
        let message = NotificationMessage.test(deliveryID: id, now: clock.now())
        let request = NotificationFormats.request(message, for: target)
        let result: (Bool, String)
        do {
            let answer = try await poster.post(request.url, headers: request.headers, body: request.body)
            result = (answer.ok, "\(target.kind.label) answered \(answer.words)")
        } catch {
            result = (false, error.message)
        }
        let now = clock.now()
        try await database.writeSQL { sql in
            try await sql.insert(into: "notification_deliveries")
                .columns(
                    "id", "target_id", "profile_id", "kind", "subject", "due_at", "state", "attempts", "next_attempt_at", "answer", "sent_at",
                    "created_at"
                )
                .values(
                    SQLBind(id), SQLBind(target.id), SQLBind(target.profile), SQLBind("test"), SQLBind(id.uuidString), SQLBind(now),
                    SQLBind(result.0 ? "sent" : "failed"), SQLBind(1), SQLBind(now), SQLBind(result.1), SQLBind(result.0 ? now : nil),
                    SQLBind(now)
                ).run()
        }
        try await record(target, error: result.0 ? nil : result.1)
        return result
    }
}

extension Calendar {
    /// The hour of the day (0–23) of `date` in `zone`.
    static func hour(of date: Date, in zone: TimeZone) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.component(.hour, from: date)
    }
}
