import Foundation

/// The Notifications page: each target with its settings and how its deliveries go, a form to
/// add one, and the latest deliveries.
struct NotificationsPage: Page {
    static let template = "account/notifications"

    struct Report {
        let ok: Bool
        let words: String
    }

    struct Choice {
        let value: String
        let label: String
        let selected: Bool
    }

    struct TargetRow {
        let id: String
        let name: String
        let kindLabel: String
        let address: String
        let onAir: Bool
        let digest: Bool
        let delays: [Choice]
        let hours: [Choice]
        let isPaused: Bool
        let statusText: String
        let lastError: String?
        let saveURL: String
        let testURL: String
        let resumeURL: String
        let removeURL: String
    }

    struct DeliveryRow {
        let when: String
        let target: String
        let what: String
        let state: String
        let answer: String?
    }

    let chrome = Chrome("Notifications", tab: .account)
    let accountURL = Route.account.path
    let addURL = Route.addNotificationTarget.path
    let targets: [TargetRow]
    let hasTargets: Bool
    let deliveries: [DeliveryRow]
    let hasDeliveries: Bool
    let notice: String?
    let error: String?
    let newSecret: String?
    let report: Report?
    let kinds: [Choice]
    let delays: [Choice]
    let hours: [Choice]
    let addressHint: String

    init(
        targets: [NotificationTarget], deliveries: [NotificationTargets.Delivery], notice: String?, error: String?, newSecret: String?,
        report: Report?, allowsPrivate: Bool
    ) {
        self.targets = targets.map { target in
            let id = target.id.uuidString.lowercased()
            let status: String
            if let paused = target.pausedAt {
                status = "Paused on \(UTCFormatters.longDay.string(from: paused)) after a week of failed deliveries. Resume it once it works again."
            } else if let success = target.lastSuccessAt, target.lastError == nil {
                status = "Last delivered \(UTCFormatters.moment.string(from: success))."
            } else if let since = target.failingSince {
                status = "Failing since \(UTCFormatters.moment.string(from: since)); tried again with longer waits, paused after a week."
            } else {
                status = "Nothing sent yet."
            }
            return TargetRow(
                id: id, name: target.name, kindLabel: target.kind.label, address: target.shownAddress, onAir: target.settings.onAir,
                digest: target.settings.digest, delays: Self.delayChoices(target.settings.delayHours),
                hours: Self.hourChoices(target.settings.digestHour), isPaused: target.pausedAt != nil, statusText: status,
                lastError: target.lastError, saveURL: Route.saveNotificationTarget.link(id), testURL: Route.testNotificationTarget.link(id),
                resumeURL: Route.resumeNotificationTarget.link(id), removeURL: Route.removeNotificationTarget.link(id))
        }
        hasTargets = !targets.isEmpty
        let names = Dictionary(targets.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        self.deliveries = deliveries.map {
            DeliveryRow(
                when: UTCFormatters.moment.string(from: $0.sentAt ?? $0.dueAt), target: names[$0.targetID] ?? "", what: $0.what,
                state: Self.stateWords($0.state, attempts: $0.attempts, test: $0.kind == "test"), answer: $0.answer)
        }
        hasDeliveries = !deliveries.isEmpty
        self.notice = notice
        self.error = error
        self.newSecret = newSecret
        self.report = report
        kinds = NotificationTarget.Kind.allCases.map { Choice(value: $0.rawValue, label: $0.label, selected: $0 == .ntfy) }
        delays = Self.delayChoices(0)
        hours = Self.hourChoices(9)
        addressHint =
            allowsPrivate
            ? "https:// or http:// (this server allows addresses on your own network)."
            : "An https:// address on the internet (not one on a private network)."
    }

    static func delayChoices(_ selected: Int) -> [Choice] {
        NotificationSettings.delays.map {
            Choice(value: String($0), label: $0 == 0 ? "when it airs" : "\($0) hour\($0 == 1 ? "" : "s") after it airs", selected: $0 == selected)
        }
    }

    static func hourChoices(_ selected: Int) -> [Choice] {
        NotificationSettings.digestHours.map { Choice(value: String($0), label: ($0 < 10 ? "0" : "") + "\($0):00", selected: $0 == selected) }
    }

    static func stateWords(_ state: String, attempts: Int, test: Bool) -> String {
        switch state {
        case "failed" where test: "Failed"
        case "sent": "Sent"
        case "skipped": "Not sent"
        case "folded": "In the digest"
        case "retry": "Failed \(attempts) time\(attempts == 1 ? "" : "s"), trying again"
        case "failed": "Failed for a day: given up"
        case "sending": "Sending"
        default: "Waiting"
        }
    }
}
