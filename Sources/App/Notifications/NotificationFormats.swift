import Crypto
import Foundation

/// What a notice says, whatever carries it.
struct NotificationMessage: Sendable {
    enum Event: String, Sendable {
        case airing = "episode.airing"
        case digest
        case test
    }

    struct Item: Sendable, Encodable {
        var show: String
        var showId: Int
        var season: Int
        var number: Int?
        var title: String
        var airstamp: String?
        var url: String?
    }

    var event: Event
    var deliveryID: UUID
    var title: String
    var text: String
    /// Where a tap opens (an episode's page), when the site's address is known.
    var url: String?
    var items: [Item]
    var sentAt: Date

    static func episodes(
        _ calendarItems: [CalendarItem], event: Event, deliveryID: UUID, now: Date, link: (Int) -> String?, delayHours: Int
    ) -> NotificationMessage {
        let items = calendarItems.compactMap { item -> Item? in
            guard let episode = item.episode else { return nil }
            return Item(
                show: item.title, showId: episode.showID, season: episode.season, number: episode.number, title: episode.name,
                airstamp: episode.airstamp.map { $0.formatted(.iso8601) }, url: link(episode.id))
        }
        let lines = calendarItems.compactMap { item in item.episode.map { "\(item.title) \($0.code) “\($0.name)”" } }
        switch event {
        case .airing:
            let first = calendarItems.first
            let when = delayHours == 0 ? "airs now" : "aired \(delayHours) hour\(delayHours == 1 ? "" : "s") ago"
            let network = first?.network.map { " on \($0)" } ?? ""
            return NotificationMessage(
                event: event, deliveryID: deliveryID, title: first.map { "\($0.title) \($0.episode?.code ?? "")" } ?? "New episode",
                text: "“\(first?.episode?.name ?? "")” \(when)\(network).", url: items.first?.url, items: items, sentAt: now)
        case .digest, .test:
            return NotificationMessage(
                event: .digest, deliveryID: deliveryID, title: "Today: \(lines.count) episode\(lines.count == 1 ? "" : "s")",
                text: lines.joined(separator: "\n"), url: items.first?.url, items: items, sentAt: now)
        }
    }

    static func test(deliveryID: UUID, now: Date) -> NotificationMessage {
        NotificationMessage(
            event: .test, deliveryID: deliveryID, title: "PopcornSwirl test", text: "Notifications from PopcornSwirl arrive here.", url: nil,
            items: [], sentAt: now)
    }
}

/// A notice as each kind of target takes it.
enum NotificationFormats {
    struct Request {
        var url: URL
        var headers: [(String, String)]
        var body: Data
    }

    /// The webhook's signature header: `sha256=` and the HMAC-SHA256 of the body with the secret, in hex.
    static let signatureHeader = "X-PopcornSwirl-Signature"

    static func signature(_ body: Data, secret: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Data(secret.utf8)))
        return "sha256=" + Data(mac).map { String(format: "%02x", $0) }.joined()
    }

    static func request(_ message: NotificationMessage, for target: NotificationTarget) -> Request {
        let url = URL(string: target.url)!
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        switch target.kind {
        case .ntfy:
            // ntfy's publish by headers: the body is the message (https://docs.ntfy.sh/publish/).
            var headers = [("Title", headerSafe(message.title)), ("Tags", "tv"), ("Content-Type", "text/plain; charset=utf-8")]
            if let link = message.url { headers.append(("Click", link)) }
            if let token = target.token { headers.append(("Authorization", "Bearer \(token)")) }
            return Request(url: url, headers: headers, body: Data(message.text.utf8))
        case .gotify:
            // Gotify's POST /message with the app token (https://gotify.net/api-docs).
            struct Body: Encodable {
                var title: String
                var message: String
                var priority = 5
                var extras: [String: [String: [String: String]]]?
            }
            let base = target.url.hasSuffix("/") ? String(target.url.dropLast()) : target.url
            let extras = message.url.map { ["client::notification": ["click": ["url": $0]]] }
            let body = (try? encoder.encode(Body(title: message.title, message: message.text, extras: extras))) ?? Data()
            return Request(
                url: URL(string: base + "/message")!,
                headers: [("Content-Type", "application/json"), ("X-Gotify-Key", target.token ?? "")], body: body)
        case .discord:
            // Discord's execute webhook: content, and an embed linking the episode.
            struct Embed: Encodable {
                var title: String
                var description: String
                var url: String?
            }
            struct Body: Encodable {
                var username = "PopcornSwirl"
                var content: String
                var embeds: [Embed]
            }
            let body = Body(
                content: String("**\(message.title)**".prefix(1900)),
                embeds: [Embed(title: String(message.title.prefix(250)), description: String(message.text.prefix(3000)), url: message.url)])
            return Request(url: url, headers: [("Content-Type", "application/json")], body: (try? encoder.encode(body)) ?? Data())
        case .webhook:
            struct Body: Encodable {
                var event: String
                var id: String
                var sentAt: String
                var title: String
                var text: String
                var url: String?
                var episodes: [NotificationMessage.Item]
            }
            let body =
                (try? encoder.encode(
                    Body(
                        event: message.event.rawValue, id: message.deliveryID.uuidString.lowercased(), sentAt: message.sentAt.formatted(.iso8601),
                        title: message.title, text: message.text, url: message.url, episodes: message.items))) ?? Data()
            var headers = [
                ("Content-Type", "application/json"), ("X-PopcornSwirl-Event", message.event.rawValue),
                ("X-PopcornSwirl-Delivery", message.deliveryID.uuidString.lowercased()),
            ]
            if let secret = target.secret { headers.append((signatureHeader, signature(body, secret: secret))) }
            return Request(url: url, headers: headers, body: body)
        }
    }

    /// A header value keeps to printable ASCII: ntfy reads other characters from RFC 2047 words,
    /// so non-ASCII text goes as one (`=?UTF-8?B?…?=`).
    static func headerSafe(_ text: String) -> String {
        if text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F }) { return text }
        return "=?UTF-8?B?" + Data(text.utf8).base64EncodedString() + "?="
    }
}
