import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import SQLKit
import Testing

@testable import App

/// Notifications sent to a receiver on 127.0.0.1 (`NOTIFY_ALLOW_PRIVATE=1` for these tests). The
/// test clock starts on 2026-11-18; Pokémon's S29E44 airs on 2026-11-20 at 09:55 UTC.
@Suite("Notifications")
struct NotificationTests {
    /// 2026-11-20T10:00:00Z, five minutes after S29E44 aired.
    static let afterAiring: TimeInterval = 1_795_168_800 - 1_795_000_000

    static func allowingPrivate(_ config: inout AppConfig) { config.notifyAllowPrivate = true }

    /// An account tracking Pokémon (S29E43 watched).
    static func watcher(_ app: TestApp) async throws -> (profile: UUID, cookie: String, show: Show) {
        try await CalendarFeedTests.watcher(app)
    }

    static func expectSigned(_ request: NotificationReceiver.Received, secret: String) {
        let mac = HMAC<SHA256>.authenticationCode(for: request.body, using: SymmetricKey(data: Data(secret.utf8)))
        let expected = "sha256=" + mac.map { String(format: "%02x", $0) }.joined()
        #expect(request.headers[HTTPField.Name("X-PopcornSwirl-Signature")!] == expected)
    }

    @Test("a test send arrives signed; the page reports what the target answered")
    func testSend() async throws {
        try await TestApp.with(configure: Self.allowingPrivate) { app in
            let person = try await Self.watcher(app)
            try await NotificationReceiver.with { receiver, base in
                let made = try await app.services.notificationTargets.add(
                    profile: person.profile, kind: .webhook, url: base + "/hook", token: nil, settings: NotificationSettings())
                let secret = try #require(made.secret)
                #expect(secret.hasPrefix("whsec_"))
                let result = try await app.services.notifications.sendTest(made.target)
                #expect(result.ok && result.words == "Webhook answered 200 OK")
                let request = try #require(receiver.requests.first)
                Self.expectSigned(request, secret: secret)
                let json = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
                #expect(json["event"] as? String == "test" && request.headers[HTTPField.Name("X-PopcornSwirl-Event")!] == "test")
                // Through the page: a report in words, and the delivery listed.
                try await app.test { client in
                    let page = try await client.postForm(
                        Route.testNotificationTarget.link(made.target.id.uuidString.lowercased()), [], cookie: person.cookie)
                    #expect(page.status == .ok && page.text.contains("Webhook answered 200 OK"))
                    #expect(page.text.contains("Latest deliveries") && page.text.contains("a test"))
                    #expect(!page.text.contains(secret), "the secret is shown once, when the target is made")
                }
                #expect(receiver.requests.count == 2)
                Self.expectSigned(receiver.requests[1], secret: secret)
            }
        }
    }

    @Test("an airing episode is told once by three servers on one database; never one already watched")
    func exactlyOnceAcrossServers() async throws {
        try await TestApp.with(configure: Self.allowingPrivate) { app in
            let person = try await Self.watcher(app)
            try await NotificationReceiver.with { receiver, base in
                let made = try await app.services.notificationTargets.add(
                    profile: person.profile, kind: .webhook, url: base + "/hook", token: nil, settings: NotificationSettings())
                // Before it airs: nothing.
                #expect(try await app.services.notifications.round().planned == 0)
                app.clock.advance(Self.afterAiring)
                let servers = try (0..<3).map { _ in
                    try AppServices(
                        config: app.services.config, database: app.services.database, http: app.upstream, clock: app.clock,
                        logger: TestDatabase.logger, sleep: { _ in })
                }
                let rounds = try await withThrowingTaskGroup(of: NotificationWorker.Round.self) { group in
                    for server in servers + servers { group.addTask { try await server.notifications.round() } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(rounds.map(\.planned).reduce(0, +) == 1 && rounds.map(\.sent).reduce(0, +) == 1)
                #expect(receiver.requests.count == 1)
                let request = try #require(receiver.requests.first)
                Self.expectSigned(request, secret: try #require(made.secret))
                let json = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
                #expect(json["event"] as? String == "episode.airing")
                let episodes = try #require(json["episodes"] as? [[String: Any]])
                #expect(episodes.count == 1 && episodes[0]["number"] as? Int == 44 && episodes[0]["show"] as? String == "Pokémon")
                #expect((json["text"] as? String)?.contains("airs now on TV Tokyo") == true)
                _ = try await servers[0].notifications.round()
                #expect(receiver.requests.count == 1, "never twice")
                // S29E45 is watched before its notice is due (an hour after it airs): not sent.
                try await app.services.notificationTargets.save(
                    profile: person.profile, id: made.target.id, settings: NotificationSettings(onAir: true, delayHours: 1))
                app.clock.advance(7 * 86_400)  // 2026-11-27T10:00Z: S29E45 aired at 09:55
                try await app.services.episodes.watch(profile: person.profile, show: person.show, episodeID: 3_391_245, on: .now)
                app.clock.advance(3600)
                let later = try await app.services.notifications.round()
                #expect(later.planned == 1 && later.skipped == 1 && later.sent == 0)
                #expect(receiver.requests.count == 1)
                let deliveries = try await app.services.notificationTargets.deliveries(profile: person.profile)
                #expect(deliveries.first?.state == "skipped" && deliveries.first?.what == "Pokémon S29E45 “Go, Charcadet! Don't Give Up!”")
                for server in servers { await server.offers.tracker.close() }
            }
        }
    }

    @Test("a target answering 500 is tried again with backoff, its error shown; given up after a day, paused after a week")
    func failuresRetryAndPause() async throws {
        try await TestApp.with(configure: Self.allowingPrivate) { app in
            let person = try await Self.watcher(app)
            try await NotificationReceiver.with { receiver, base in
                receiver.answer(.internalServerError)
                let made = try await app.services.notificationTargets.add(
                    profile: person.profile, kind: .ntfy, url: base + "/hook", token: "tk_secret", settings: NotificationSettings())
                app.clock.advance(Self.afterAiring)
                let worker = app.services.notifications
                #expect(try await worker.round().failed == 1)
                #expect(try await worker.round().failed == 0, "not again before its backoff")
                app.clock.advance(61)
                #expect(try await worker.round().failed == 1)
                #expect(receiver.requests.count == 2)
                // ntfy's form: the text as the body, the title and the token in headers.
                let first = receiver.requests[0]
                #expect(String(decoding: first.body, as: UTF8.self) == "“Go, Hatenna! Don't Give Up!” airs now on TV Tokyo.")
                #expect(first.headers[HTTPField.Name("Authorization")!] == "Bearer tk_secret")
                #expect(first.headers[HTTPField.Name("Title")!] == NotificationFormats.headerSafe("Pokémon S29E44"))
                var target = try #require(try await app.services.notificationTargets.target(profile: person.profile, id: made.target.id))
                #expect(target.lastError == "ntfy answered 500 Internal Server Error: {\"ok\":true}" && target.failingSince != nil)
                // Signed in again: two days passed since the first session.
                let cookie = "\(SessionService.cookieName)=\(try await app.services.sessions.start(profile: person.profile)); \(TestApp.csrfCookie)"
                try await app.test { client in
                    let page = try await client.get(Route.notifications.path, cookie: cookie)
                    #expect(page.text.contains("Last error: ntfy answered 500 Internal Server Error"))
                    #expect(page.text.contains("Failed 2 times, trying again") && !page.text.contains("tk_secret"))
                }
                // Now it works: delivered at the next try, the error cleared.
                receiver.answer(.ok)
                app.clock.advance(121)
                #expect(try await worker.round().sent == 1)
                target = try #require(try await app.services.notificationTargets.target(profile: person.profile, id: made.target.id))
                #expect(target.lastError == nil && target.failingSince == nil && target.lastSuccessAt != nil)
                // Failing for a week: paused, and nothing more is sent until resumed.
                receiver.answer(.badGateway)
                try await app.services.database.sql.update("notification_targets")
                    .set("failing_since", to: SQLBind(app.clock.now().addingTimeInterval(-8 * 86_400))).run()
                target = try #require(try await app.services.notificationTargets.target(profile: person.profile, id: made.target.id))
                #expect(try await worker.sendTest(target).ok == false)
                target = try #require(try await app.services.notificationTargets.target(profile: person.profile, id: made.target.id))
                #expect(target.pausedAt != nil)
                app.clock.advance(7 * 86_400)  // S29E45 airs
                #expect(try await worker.round().planned == 0, "a paused target is told nothing")
                try await app.services.notificationTargets.resume(profile: person.profile, id: made.target.id)
                #expect(try await worker.round().planned == 1)
            }
        }
    }

    @Test("a digest at the person's hour; with it on, an episode airing at night waits for it")
    func digestAndQuietHours() async throws {
        try await TestApp.with(configure: Self.allowingPrivate) { app in
            let person = try await Self.watcher(app)
            // In Los Angeles, S29E44 airs at 01:55 on the 20th.
            try await app.services.calendar.setTimeZone("America/Los_Angeles", profile: person.profile)
            try await NotificationReceiver.with { receiver, base in
                _ = try await app.services.notificationTargets.add(
                    profile: person.profile, kind: .webhook, url: base + "/hook", token: nil,
                    settings: NotificationSettings(onAir: true, delayHours: 0, digest: true, digestHour: 8))
                app.clock.advance(Self.afterAiring)  // 02:00 in Los Angeles
                let night = try await app.services.notifications.round()
                #expect(night.planned == 1 && night.sent == 0)
                #expect(receiver.requests.isEmpty)
                app.clock.advance(6 * 3600)  // 08:00 there
                let morning = try await app.services.notifications.round()
                #expect(morning.sent == 1)
                let digest = try #require(receiver.requests.first)
                let json = try #require(try JSONSerialization.jsonObject(with: digest.body) as? [String: Any])
                #expect(json["event"] as? String == "digest" && (json["title"] as? String) == "Today: 1 episode")
                #expect((json["text"] as? String) == "Pokémon S29E44 “Go, Hatenna! Don't Give Up!”")
                let deliveries = try await app.services.notificationTargets.deliveries(profile: person.profile)
                #expect(deliveries.map(\.state).sorted() == ["folded", "sent"])
                app.clock.advance(3600)
                #expect(try await app.services.notifications.round().planned == 0, "one digest a day")
            }
        }
    }

    @Test("without NOTIFY_ALLOW_PRIVATE: a private or loopback target is refused when added and when sent, also by name and after a redirect")
    func privateAddressesRefused() async throws {
        try await TestApp.with { app in
            let person = try await Self.watcher(app)
            let targets = app.services.notificationTargets
            for url in ["https://127.0.0.1/hook", "https://10.1.2.3/x", "https://[::1]/x", "https://169.254.169.254/latest", "http://ntfy.example/x"]
            {
                await #expect(throws: NotificationError.self, "\(url)") {
                    try await targets.add(profile: person.profile, kind: .webhook, url: url, token: nil, settings: NotificationSettings())
                }
            }
            try await NotificationReceiver.with { receiver, base in
                let guarded = GuardedPoster(allowPrivate: false)
                let port = base.split(separator: ":").last!
                for url in ["https://127.0.0.1:\(port)/hook", "https://localhost:\(port)/hook", base + "/hook"] {
                    await #expect(throws: DeliveryFailure.self, "\(url)") { try await guarded.post(URL(string: url)!, headers: [], body: Data()) }
                }
                #expect(receiver.requests.isEmpty)
                // Allowed, a 307 is followed to where it points, checked again.
                let allowed = GuardedPoster(allowPrivate: true)
                let moved = try await allowed.post(URL(string: base + "/moved")!, headers: [], body: Data("x".utf8))
                #expect(moved.status == 200)
                #expect(receiver.requests.map(\.path) == ["/hook"])
            }
        }
    }

    @Test("addresses: private, loopback, link-local, CGNAT and reserved ones are not public; IPv4 inside IPv6 is judged as IPv4")
    func addressCheck() {
        for host in [
            "127.0.0.1", "10.0.0.1", "172.16.5.4", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "::1", "::", "fe80::1",
            "fc00::1", "::ffff:127.0.0.1", "[::1]",
        ] {
            #expect(AddressCheck.literalVerdict(host) == false, "\(host)")
        }
        for host in ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"] {
            #expect(AddressCheck.literalVerdict(host) == true, "\(host)")
        }
        #expect(AddressCheck.literalVerdict("ntfy.sh") == nil)
    }

    @Test("each target's format: ntfy's headers, Gotify's /message with its key, Discord's embed, the webhook's signature")
    func formats() throws {
        let message = NotificationMessage(
            event: .airing, deliveryID: UUID(), title: "Pokémon S29E44", text: "“Go” airs now.", url: "https://ps.example/episodes/1", items: [],
            sentAt: Date(timeIntervalSince1970: 0))
        func target(_ kind: NotificationTarget.Kind, _ url: String, token: String? = nil, secret: String? = nil) -> NotificationTarget {
            NotificationTarget(
                id: UUID(), profile: UUID(), kind: kind, name: "t", url: url, token: token, secret: secret, settings: NotificationSettings(),
                createdAt: Date())
        }
        let ntfy = NotificationFormats.request(message, for: target(.ntfy, "https://ntfy.sh/shows", token: "tk"))
        #expect(ntfy.url.absoluteString == "https://ntfy.sh/shows" && String(decoding: ntfy.body, as: UTF8.self) == "“Go” airs now.")
        #expect(
            ntfy.headers.contains { $0 == ("Click", "https://ps.example/episodes/1") }
                && ntfy.headers.contains { $0 == ("Authorization", "Bearer tk") })
        #expect(ntfy.headers.first { $0.0 == "Title" }?.1 == "=?UTF-8?B?" + Data("Pokémon S29E44".utf8).base64EncodedString() + "?=")
        let gotify = NotificationFormats.request(message, for: target(.gotify, "https://push.example/", token: "AbC"))
        #expect(gotify.url.absoluteString == "https://push.example/message" && gotify.headers.contains { $0 == ("X-Gotify-Key", "AbC") })
        let gotifyJSON = try #require(try JSONSerialization.jsonObject(with: gotify.body) as? [String: Any])
        #expect(gotifyJSON["title"] as? String == "Pokémon S29E44" && gotifyJSON["priority"] as? Int == 5)
        let discord = NotificationFormats.request(message, for: target(.discord, "https://discord.com/api/webhooks/1/abc"))
        let discordJSON = try #require(try JSONSerialization.jsonObject(with: discord.body) as? [String: Any])
        let embeds = try #require(discordJSON["embeds"] as? [[String: Any]])
        #expect(embeds.first?["url"] as? String == "https://ps.example/episodes/1" && discordJSON["content"] as? String == "**Pokémon S29E44**")
        let webhook = NotificationFormats.request(message, for: target(.webhook, "https://hooks.example/in", secret: "s3cret"))
        #expect(
            webhook.headers.first { $0.0 == NotificationFormats.signatureHeader }?.1 == NotificationFormats.signature(webhook.body, secret: "s3cret"))
    }
}
