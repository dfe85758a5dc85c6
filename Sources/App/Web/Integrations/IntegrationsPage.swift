import Foundation

/// Account › Integrations: each media server's URL with its set-up steps and settings, the events
/// needing the person's choice of title (Needs review), and the latest events with what each came to.
struct IntegrationsPage: Page {
    static let template = "account/integrations"

    struct Choice {
        let value: String
        let label: String
        let selected: Bool
    }

    struct Steps {
        let kind: String
        let label: String
        let steps: [String]
        let example: String?
    }

    struct IntegrationRow {
        let id: String
        let label: String
        let since: String
        let lastEvent: String
        let thresholds: [Choice]
        let serverUser: String
        let unplayedErases: Bool
        let userLabel: String
        let steps: Steps
        let saveURL: String
        let revokeURL: String
    }

    struct Candidate {
        let id: String
        let value: String
        let label: String
    }

    struct ReviewRow {
        let id: String
        let server: String
        let when: String
        let said: String
        let detail: String
        let candidates: [Candidate]
        let hasCandidates: Bool
        let searchedFor: String?
        let query: String
        let chooseURL: String
        let searchURL: String
    }

    struct EventRow {
        let when: String
        let server: String
        let said: String
        let outcome: String
        let isProblem: Bool
    }

    struct NewURL {
        let url: String
        let steps: Steps
    }

    let chrome = Chrome("Integrations", tab: .account)
    let accountURL = Route.account.path
    let addURL = Route.addIntegration.path
    let integrations: [IntegrationRow]
    let hasIntegrations: Bool
    let review: [ReviewRow]
    let hasReview: Bool
    let events: [EventRow]
    let hasEvents: Bool
    let kinds: [Choice]
    let newURL: NewURL?
    let notice: String?
    let error: String?

    struct Search {
        let event: UUID
        let query: String
        let found: [TitleCandidate]
    }

    init(
        integrations: [Integration], waiting: [IntegrationEvent], events: [IntegrationEvent], search: Search?, newURL: (Integration, String)?,
        notice: String?, error: String?
    ) {
        let kinds = Dictionary(integrations.map { ($0.id, $0.kind) }, uniquingKeysWith: { a, _ in a })
        func server(_ id: UUID) -> String { kinds[id].map(Self.label) ?? "A server" }
        self.integrations = integrations.map { integration in
            let id = integration.id.uuidString.lowercased()
            return IntegrationRow(
                id: id, label: Self.label(integration.kind), since: UTCFormatters.longDay.string(from: integration.createdAt),
                lastEvent: integration.lastEventAt.map { "Last event " + UTCFormatters.moment.string(from: $0) + "." } ?? "No event yet.",
                thresholds: stride(from: 50, through: 100, by: 5).map {
                    Choice(value: String($0), label: "\($0) %", selected: $0 == integration.settings.threshold)
                },
                serverUser: integration.settings.serverUser ?? "", unplayedErases: integration.settings.unplayedErases,
                userLabel: Self.userLabel(integration.kind), steps: Self.steps(integration.kind),
                saveURL: Route.saveIntegration.link(id), revokeURL: Route.revokeIntegration.link(id))
        }
        hasIntegrations = !integrations.isEmpty
        review = waiting.map { event in
            let id = event.id.uuidString.lowercased()
            let searched = search.flatMap { $0.event == event.id ? $0 : nil }
            let wanted: MediaKind = event.event?.type == .movie ? .movie : .show
            let pool = (searched?.found ?? event.candidates).filter { $0.kind == wanted }
            return ReviewRow(
                id: id, server: server(event.integrationID), when: UTCFormatters.moment.string(from: event.receivedAt), said: event.said,
                detail: event.detail ?? "",
                candidates: pool.map { candidate in
                    Candidate(
                        id: "event-\(id)-\(candidate.kind.rawValue)-\(candidate.id)", value: "\(candidate.kind.rawValue):\(candidate.id)",
                        label: candidate.title + (candidate.year.map { " (\($0))" } ?? "") + (candidate.kind == .show ? ", a show" : ", a film"))
                },
                hasCandidates: !pool.isEmpty, searchedFor: searched?.query, query: searched?.query ?? (event.event?.show ?? event.event?.title ?? ""),
                chooseURL: Route.chooseIntegrationTitle.link(id), searchURL: Route.integrations.path)
        }
        hasReview = !waiting.isEmpty
        self.events = events.map { event in
            EventRow(
                when: UTCFormatters.moment.string(from: event.receivedAt), server: server(event.integrationID), said: event.said,
                outcome: Self.outcome(event), isProblem: event.result == .unmatched || event.state == .retry)
        }
        hasEvents = !events.isEmpty
        self.kinds = IntegrationKind.allCases.map { Choice(value: $0.rawValue, label: Self.label($0), selected: $0 == .plex) }
        self.newURL = newURL.map { NewURL(url: $0.1, steps: Self.steps($0.0.kind)) }
        self.notice = notice
        self.error = error
    }

    static func label(_ kind: IntegrationKind) -> String {
        switch kind {
        case .plex: "Plex"
        case .jellyfin: "Jellyfin"
        case .emby: "Emby"
        case .kodi: "Kodi"
        case .generic: "Another app (generic JSON)"
        }
    }

    static func userLabel(_ kind: IntegrationKind) -> String {
        switch kind {
        case .plex: "Only plays by this Plex user (the account’s name; empty: everyone’s)"
        case .jellyfin, .emby: "Only plays by this server user (empty: everyone’s)"
        case .kodi, .generic: "Only events whose “user” is this (empty: every event)"
        }
    }

    /// What an event came to, in words.
    static func outcome(_ event: IntegrationEvent) -> String {
        switch event.state {
        case .pending: return "Being matched…"
        case .retry: return "Waiting: " + (event.detail ?? "asked again shortly.")
        case .waiting: return "Needs review: " + (event.detail ?? "choose the title.")
        case .done: break
        }
        let detail = event.detail ?? ""
        switch event.result {
        case .watched?: return detail
        case .duplicate?: return "Duplicate: " + detail
        case .belowThreshold?: return "Below threshold: " + detail
        case .unmatched?: return "Unknown title: " + detail
        case .unplayed?, .unwatched?: return detail
        case .ignored?: return "Ignored: " + detail
        case .otherUser?: return "Another user’s: " + detail
        case nil: return detail
        }
    }

    static let genericExample = """
        {"type": "episode", "show": {"title": "Breaking Bad", "ids": {"tvdb": 81189}}, "season": 1, "episode": 2,
         "progress": 100, "watchedAt": "2026-11-29T21:30:00Z", "eventId": "kodi-1234"}
        """

    static func steps(_ kind: IntegrationKind) -> Steps {
        let steps: [String]
        var example: String?
        switch kind {
        case .plex:
            steps = [
                "Plex webhooks need Plex Pass. In Plex Web, open Settings › your account › Webhooks, choose Add Webhook, paste this URL and save.",
                "Plex tells PopcornSwirl when you pass 90 % of a film or an episode (a scrobble); plays, pauses and stops count from this integration’s threshold.",
                "A Plex server shared with others sends their plays too: put your Plex user name below to count only yours.",
            ]
        case .jellyfin:
            steps = [
                "In Jellyfin’s Dashboard › Plugins › Catalog, install “Webhook”, then restart Jellyfin.",
                "In the plugin’s settings, add a Generic Destination: paste this URL, tick “Send All Properties”, choose the notification types Playback Stop and User Data Saved, and the item types Movies and Episodes.",
                "The shemanaev “Webhooks” plugin works too: add a hook with this URL in its Default format, for the events Stop, Mark played and Mark unplayed.",
            ]
        case .emby:
            steps = [
                "Emby webhooks need Emby Premiere. In Emby’s Settings › Notifications (Webhooks on older servers), add a webhook with this URL.",
                "Send the events Playback Stop, Mark played and Mark unplayed, for films and episodes, as JSON.",
            ]
        case .kodi:
            steps = [
                "Kodi sends no webhooks of its own: use an add-on or a script (a Kodi service add-on reacting to the end of playback) that posts JSON to this URL.",
                "The body is PopcornSwirl’s generic event (GenericMediaEvent in the API’s document, /api/openapi.yaml), for example:",
            ]
            example = genericExample
        case .generic:
            steps = [
                "POST one JSON event per play to this URL, as described by GenericMediaEvent in the API’s document (/api/openapi.yaml). Send an eventId: a retry with the same id is the same event.",
                "For example:",
            ]
            example = genericExample
        }
        return Steps(kind: kind.rawValue, label: label(kind), steps: steps, example: example)
    }
}
