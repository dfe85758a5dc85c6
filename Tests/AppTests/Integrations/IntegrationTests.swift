import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SQLKit
import Testing

@testable import App

/// Media servers' events posted to a person's integration URL, as each product sends them
/// (`Fixtures/integrations`), through the whole app on SQLite or PostgreSQL, with a fake TVMaze that
/// knows Breaking Bad (`tvmaze-breaking-bad.json`).
@Suite("Media server integrations")
struct IntegrationTests {
    /// 2026-11-29T01:15:00Z: just after the Emby fixture's stop (01:12:44), when Plex and the
    /// shemanaev plugin (which send no time) report the same play.
    static let start = Date(timeIntervalSince1970: 1_795_914_900)

    nonisolated(unsafe) static let breakingBad =
        try! JSONSerialization.jsonObject(with: Fixtures.data("integrations/tvmaze-breaking-bad.json")) as! [String: Any]
    static let pilot = 12192
    static let catInTheBag = 12193

    /// TVMaze with Breaking Bad: found by its show ids (TheTVDB 81189, IMDb tt0903747) and by name.
    /// The episode's own TheTVDB id (349233) answers another show, so taking it for the show's
    /// would land the watch on Girls.
    static func upstream() -> FakeUpstream {
        FakeUpstream { url throws(UpstreamError) in
            guard url.host == "tvmaze.test" else { return try Fixtures.itunesAnswer(for: url) }
            let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            func value(_ name: String) -> String? { query.first { $0.name == name }?.value }
            func json(_ object: Any) -> UpstreamResponse {
                UpstreamResponse(status: 200, contentType: "application/json", body: try! JSONSerialization.data(withJSONObject: object))
            }
            let show = breakingBad["show"] as! [String: Any]
            switch url.path {
            case "/lookup/shows" where value("thetvdb") == "81189" || value("imdb") == "tt0903747":
                return UpstreamResponse(status: 301, body: Data(), location: "https://api.tvmaze.com/shows/169")
            case "/lookup/shows" where value("thetvdb") == "349233":
                return UpstreamResponse(status: 301, body: Data(), location: "https://api.tvmaze.com/shows/139")
            case "/shows/169":
                guard query.contains(where: { $0.name.hasPrefix("embed") }) else { return json(show) }
                var embedded = show
                embedded["_embedded"] = ["episodes": breakingBad["episodes"]!, "seasons": breakingBad["seasons"]!]
                return json(embedded)
            case "/shows/169/episodes":
                return json(breakingBad["episodes"]!)
            case "/search/shows" where (value("q") ?? "").lowercased().contains("breaking"):
                return json([["score": 0.9, "show": show]])
            default:
                return Fixtures.tvmazeAnswer(for: url)
            }
        }
    }

    static func with(_ body: (TestApp) async throws -> Void) async throws {
        try await TestApp.with(upstream: upstream(), clock: ManualClock(start), configure: { $0.omdbAPIKey = Fixtures.omdbKey }) { app in
            try await body(app)
        }
    }

    /// A new integration's URL path for the account.
    static func integration(_ app: TestApp, _ profile: UUID, _ kind: IntegrationKind) async throws -> (id: UUID, path: String) {
        let (integration, token) = try await app.services.integrations.create(profile: profile, kind: kind)
        return (integration.id, Route.integrationURL(base: "", kind: kind, token: token))
    }

    /// Plex's transport: `multipart/form-data` with the JSON in `payload`, and a thumbnail larger
    /// than any other body the site takes.
    static func plexBody(_ payload: Data, thumbnailBytes: Int = 96 * 1024) -> (contentType: String, body: ByteBuffer) {
        let boundary = "------------------------1b2f6b5e2cd0d1a4"
        var body = ByteBuffer()
        body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"payload\"\r\nContent-Type: application/json\r\n\r\n")
        body.writeBytes(payload)
        body.writeString(
            "\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"thumb\"; filename=\"thumb.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n")
        body.writeBytes([0xFF, 0xD8, 0xFF, 0xE0] + (0..<thumbnailBytes).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        body.writeString("\r\n--\(boundary)--\r\n")
        return ("multipart/form-data; boundary=\(boundary)", body)
    }

    /// Posts a fixture the way its server does.
    static func post(_ client: any TestClientProtocol, _ path: String, fixture: String, kind: IntegrationKind) async throws -> TestResponse {
        let data = Fixtures.data("integrations/\(fixture).json")
        return try await post(client, path, data, kind: kind)
    }

    static func post(_ client: any TestClientProtocol, _ path: String, _ data: Data, kind: IntegrationKind) async throws -> TestResponse {
        var headers = HTTPFields()
        let body: ByteBuffer
        switch kind {
        case .plex:
            let (type, multipart) = plexBody(data)
            headers[.contentType] = type
            body = multipart
        case .jellyfin:
            // The official plugin's default: the JSON as text/plain.
            headers[.contentType] = "text/plain; charset=utf-8"
            body = ByteBuffer(data: data)
        case .emby, .kodi, .generic:
            headers[.contentType] = "application/json"
            body = ByteBuffer(data: data)
        }
        headers[.userAgent] = kind == .emby ? "Emby Server/4.8.10.0" : "PlexMediaServer/1.41.3"
        return try await client.execute(uri: path, method: .post, headers: headers, body: body)
    }

    static func receipt(_ response: TestResponse) throws -> (id: String, duplicate: Bool) {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
        return (try #require(json["receipt"] as? String), try #require(json["duplicate"] as? Bool))
    }

    static func episodeWatches(_ app: TestApp, _ profile: UUID, _ episode: Int) async throws -> Int {
        try await app.services.database.sql.raw(
            "SELECT COUNT(*) AS n FROM watches WHERE profile_id = \(bind: profile) AND episode_id = \(bind: episode)"
        ).first(decodingColumn: "n", as: Int.self) ?? 0
    }

    static func filmWatches(_ app: TestApp, _ profile: UUID) async throws -> [String] {
        struct Row: Decodable { var title: String }
        return try await app.services.database.sql.raw(
            "SELECT title FROM watches WHERE profile_id = \(bind: profile) AND media_kind = 'movie'"
        ).all(decoding: Row.self).map(\.title)
    }

    static func events(_ app: TestApp, _ profile: UUID) async throws -> [IntegrationEvent] {
        try await app.services.integrationWorker.drain()
        return try await app.services.integrations.events(profile: profile)
    }

    @Test(
        "each server's format lands as the right watch exactly once: Plex (only episode-level GUIDs), Jellyfin official (a two-episode file, UserDataSaved), shemanaev, Emby, a film by IMDb id alone"
    )
    func everyFormatLandsOnce() async throws {
        try await Self.with { app in
            try await app.test { client in
                let cases: [(fixture: String, kind: IntegrationKind, episodes: [Int], films: [String])] = [
                    ("plex-episode-scrobble", .plex, [Self.catInTheBag], []),
                    ("jellyfin-official-playbackstop", .jellyfin, [Self.pilot, Self.catInTheBag], []),
                    ("jellyfin-official-template-playbackstop", .jellyfin, [Self.pilot, Self.catInTheBag], []),
                    ("jellyfin-shemanaev-stop", .jellyfin, [Self.catInTheBag], []),
                    ("emby-playback-stop", .emby, [Self.catInTheBag], []),
                    ("plex-movie-scrobble", .plex, [], ["Inception"]),
                    ("jellyfin-official-userdatasaved", .jellyfin, [], ["Inception"]),
                    ("jellyfin-shemanaev-markplayed", .jellyfin, [], ["Inception"]),
                ]
                for (number, item) in cases.enumerated() {
                    let person = try await app.signedIn("viewer\(number)")
                    let url = try await Self.integration(app, person.profile, item.kind)
                    let first = try await Self.post(client, url.path, fixture: item.fixture, kind: item.kind)
                    #expect(first.status == .accepted, "\(item.fixture): \(first.text)")
                    #expect(try Self.receipt(first).duplicate == false)
                    // The server sends it again (a retry): the same receipt, nothing more.
                    let again = try await Self.post(client, url.path, fixture: item.fixture, kind: item.kind)
                    #expect(try Self.receipt(again).id == Self.receipt(first).id && Self.receipt(again).duplicate)
                    let events = try await Self.events(app, person.profile)
                    #expect(events.count == 1 && events.first?.result == .watched, "\(item.fixture): \(events.map { $0.detail ?? "" })")
                    for episode in [Self.pilot, Self.catInTheBag] {
                        let expected = item.episodes.contains(episode) ? 1 : 0
                        #expect(try await Self.episodeWatches(app, person.profile, episode) == expected, "\(item.fixture), episode \(episode)")
                    }
                    #expect(try await Self.filmWatches(app, person.profile) == item.films, "\(item.fixture)")
                }
                // Never the show the episode's own id points to (Girls).
                let girls = try await app.services.database.sql.raw("SELECT COUNT(*) AS n FROM watches WHERE item_id = '139'")
                    .first(decodingColumn: "n", as: Int.self)
                #expect(girls == 0)
            }
        }
    }

    @Test("the generic format: a film with only an IMDb id, an episode by air day, by title; 422 saying what is wrong")
    func generic() async throws {
        try await Self.with { app in
            let person = try await app.signedIn("kodi")
            let url = try await Self.integration(app, person.profile, .kodi)
            try await app.test { client in
                func send(_ json: String) async throws -> TestResponse {
                    try await Self.post(client, url.path, Data(json.utf8), kind: .kodi)
                }
                #expect(try await send(#"{"type": "movie", "ids": {"imdb": "tt1375666"}, "eventId": "k-1"}"#).status == .accepted)
                #expect(
                    try await send(#"{"type": "episode", "show": {"ids": {"tvdb": 81189}}, "aired": "2008-02-17", "eventId": "k-2"}"#).status
                        == .accepted)
                #expect(
                    try await send(#"{"type": "episode", "show": {"title": "Breaking Bad"}, "title": "Gray Matter", "eventId": "k-3"}"#).status
                        == .accepted)
                let events = try await Self.events(app, person.profile)
                #expect(events.map(\.result) == [.watched, .watched, .watched], "\(events.map { $0.detail ?? "" })")
                #expect(try await Self.filmWatches(app, person.profile) == ["Inception"])
                #expect(try await Self.episodeWatches(app, person.profile, 12195) == 1, "Cancer Man, aired 2008-02-17")
                #expect(try await Self.episodeWatches(app, person.profile, 12196) == 1, "Gray Matter")
                #expect(events.contains { $0.detail == "Breaking Bad S01E04, watched" })

                let wrong: [(String, String)] = [
                    ("not json", "not a JSON object"),
                    (#"{"type": "song"}"#, "“type” must be"),
                    (#"{"type": "movie"}"#, "A film needs its “title” or its “ids”"),
                    (#"{"type": "episode", "show": {"title": "Breaking Bad"}}"#, "An episode needs “season” and “episode”"),
                    (#"{"type": "movie", "title": "Inception", "progress": 140}"#, "“progress” must be a number from 0 to 100"),
                    (#"{"type": "movie", "ids": {"imdb": "nm0000138"}}"#, "IMDb id"),
                    (#"{"type": "movie", "title": "Inception", "watchedAt": "yesterday"}"#, "ISO 8601"),
                ]
                for (body, words) in wrong {
                    let response = try await send(body)
                    #expect(response.status == .unprocessableContent && response.text.contains(words), "\(body): \(response.text)")
                }
            }
        }
    }

    @Test("the same watch sent 5 times at once to three servers is one watch; each server's retries are one receipt")
    func concurrentRetriesAcrossServers() async throws {
        try await Self.with { app in
            let person = try await app.signedIn("jesse")
            let servers: [(kind: IntegrationKind, fixture: String)] = [
                (.plex, "plex-episode-scrobble"), (.jellyfin, "jellyfin-shemanaev-stop"), (.emby, "emby-playback-stop"),
            ]
            var paths: [String] = []
            for server in servers { paths.append(try await Self.integration(app, person.profile, server.kind).path) }
            let sent = paths
            try await app.test { client in
                let receipts = try await withThrowingTaskGroup(of: (Int, String, Bool).self) { group in
                    for (index, server) in servers.enumerated() {
                        for _ in 0..<5 {
                            group.addTask {
                                let response = try await Self.post(client, sent[index], fixture: server.fixture, kind: server.kind)
                                #expect(response.status == .accepted)
                                let receipt = try Self.receipt(response)
                                return (index, receipt.id, receipt.duplicate)
                            }
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                for index in servers.indices {
                    let mine = receipts.filter { $0.0 == index }
                    #expect(Set(mine.map(\.1)).count == 1 && mine.filter { !$0.2 }.count == 1, "server \(index): one receipt, four retries")
                }
            }
            let events = try await Self.events(app, person.profile)
            #expect(events.count == 3)
            #expect(events.filter { $0.result == .watched }.count == 1 && events.filter { $0.result == .duplicate }.count == 2)
            #expect(try await Self.episodeWatches(app, person.profile, Self.catInTheBag) == 1)
            // Two servers of one database settle the same events at once: still once.
            let other = try AppServices(
                config: app.services.config, database: app.services.database, http: app.upstream, clock: app.clock, logger: TestDatabase.logger,
                sleep: { _ in })
            let second = try await app.services.integrations.create(profile: person.profile, kind: .jellyfin)
            let event = try MediaEventFormats.event(
                kind: .jellyfin, MediaEventFormats.json(Fixtures.data("integrations/jellyfin-official-playbackstop.json")))
            _ = try await app.services.integrations.receive(event, body: Data("a".utf8), for: second.0)
            async let one = app.services.integrationWorker.round()
            async let two = other.integrationWorker.round()
            #expect(try await one + two == 1, "one server settles it")
            #expect(try await Self.episodeWatches(app, person.profile, Self.pilot) == 1)
            #expect(try await Self.episodeWatches(app, person.profile, Self.catInTheBag) == 1)
            await other.offers.tracker.close()
        }
    }

    @Test("an unknown show waits in Needs review; the person's choice is remembered for the server's id and the event applied")
    func unmatchedWaitsForChoice() async throws {
        try await Self.with { app in
            let person = try await app.signedIn("marie")
            let url = try await Self.integration(app, person.profile, .emby)
            try await app.test { client in
                #expect(try await Self.post(client, url.path, fixture: "emby-unknown-show", kind: .emby).status == .accepted)
                let events = try await Self.events(app, person.profile)
                let waiting = try #require(events.first)
                #expect(waiting.state == .waiting && waiting.result == .unmatched)
                let page = try await client.get(Route.integrations.path, cookie: person.cookie)
                #expect(page.status == .ok && page.text.contains("Needs review") && page.text.contains("Grandpa&#39;s Garage Tapes S01E03"))
                // The person searches, and picks Breaking Bad (whose S01E03 the tape is, say).
                let id = waiting.id.uuidString.lowercased()
                let search = try await client.get(Route.integrations.link(query: ["review": id, "q": "Breaking Bad"]), cookie: person.cookie)
                #expect(search.text.contains("Found for “Breaking Bad”") && search.text.contains("value=\"show:169\""))
                let chosen = try await client.postForm(
                    Route.chooseIntegrationTitle.link(id), [("choice", "show:169")], cookie: person.cookie)
                #expect(chosen.status == .seeOther || chosen.status == .found, "\(chosen.text)")
                #expect(try await Self.episodeWatches(app, person.profile, 12194) == 1)
                let after = try await client.get(Route.integrations.path, cookie: person.cookie)
                #expect(!after.text.contains("Needs review") && after.text.contains("Breaking Bad S01E03, watched"))
                // The next episode from the same server's show needs no choice.
                var next = try JSONSerialization.jsonObject(with: Fixtures.data("integrations/emby-unknown-show.json")) as! [String: Any]
                var item = next["Item"] as! [String: Any]
                item["IndexNumber"] = 4
                item["Name"] = "Another Tape"
                next["Item"] = item
                let body = try JSONSerialization.data(withJSONObject: next)
                #expect(try await Self.post(client, url.path, body, kind: .emby).status == .accepted)
                _ = try await Self.events(app, person.profile)
                #expect(try await Self.episodeWatches(app, person.profile, 12195) == 1)
            }
        }
    }

    @Test("below the threshold is recorded, not watched; mark unplayed keeps the watch unless the person says; another user's plays are not theirs")
    func thresholdsUnplayedAndUsers() async throws {
        try await Self.with { app in
            let person = try await app.signedIn("walt")
            let url = try await Self.integration(app, person.profile, .generic)
            try await app.test { client in
                func send(_ json: String) async throws {
                    #expect(try await Self.post(client, url.path, Data(json.utf8), kind: .generic).status == .accepted)
                    _ = try await Self.events(app, person.profile)
                    app.clock.advance(60)
                }
                let episode = #""type": "episode", "show": {"title": "Breaking Bad"}, "season": 1, "episode": 5"#
                try await send("{\(episode), \"progress\": 45, \"eventId\": \"g-1\"}")
                var events = try await Self.events(app, person.profile)
                #expect(events.first?.result == .belowThreshold && events.first?.detail?.contains("Played 45 %") == true)
                #expect(try await Self.episodeWatches(app, person.profile, 12196) == 0)
                try await send("{\(episode), \"progress\": 93, \"eventId\": \"g-2\"}")
                try await send("{\(episode), \"action\": \"unplayed\", \"eventId\": \"g-3\"}")
                events = try await Self.events(app, person.profile)
                #expect(events.map(\.result) == [.unplayed, .watched, .belowThreshold])
                #expect(try await Self.episodeWatches(app, person.profile, 12196) == 1, "kept")
                try await app.services.integrations.save(
                    profile: person.profile, id: try #require(try await app.services.integrations.list(profile: person.profile).first).id,
                    settings: IntegrationSettings(threshold: 90, serverUser: "walt", unplayedErases: true))
                try await send("{\(episode), \"action\": \"unplayed\", \"eventId\": \"g-4\", \"user\": \"walt\"}")
                try await send("{\(episode), \"eventId\": \"g-5\", \"user\": \"skyler\"}")
                events = try await Self.events(app, person.profile)
                #expect(events.prefix(2).map(\.result) == [.otherUser, .unwatched])
                #expect(try await Self.episodeWatches(app, person.profile, 12196) == 0, "erased")
            }
            let metrics = String(decoding: await app.services.metrics.exposition(), as: UTF8.self)
            #expect(metrics.contains(#"popcornswirl_integration_events_total{kind="generic",result="below_threshold"} 1"#))
        }
    }

    @Test("the API makes and revokes a URL (accounts only); a revoked, wrong or other-kind URL is 404; bodies are bounded")
    func apiAndRefusals() async throws {
        try await Self.with { app in
            let person = try await app.signedIn("hank")
            try await app.test { client in
                let made = try await client.sendJSON("/api/v1/integrations", method: .post, #"{"kind": "plex"}"#, cookie: person.cookie)
                #expect(made.status == .created, "\(made.text)")
                let created = try APITests.decode(Schemas.IntegrationCreated.self, made)
                let path = try #require(URL(string: created.url)?.path)
                #expect(path.hasPrefix("/integrations/plex/"))
                #expect(try await Self.post(client, path, fixture: "plex-movie-play", kind: .plex).status == .accepted)
                // The same token at another kind's address, a made-up token: 404.
                let jellyfin = path.replacingOccurrences(of: "/plex/", with: "/jellyfin/")
                #expect(try await Self.post(client, jellyfin, fixture: "jellyfin-shemanaev-stop", kind: .jellyfin).status == .notFound)
                let madeUp = "/integrations/plex/" + String(repeating: "x", count: 43)
                #expect(try await Self.post(client, madeUp, fixture: "plex-movie-play", kind: .plex).status == .notFound)
                // A JSON part over 256 KiB: refused, saying so.
                var big = try JSONSerialization.jsonObject(with: Fixtures.data("integrations/plex-movie-play.json")) as! [String: Any]
                big["padding"] = String(repeating: "a", count: 300 * 1024)
                let tooBig = try await Self.post(client, path, try JSONSerialization.data(withJSONObject: big), kind: .plex)
                #expect(tooBig.status == .unprocessableContent && tooBig.text.contains("256 KiB"))
                // A thumbnail past the whole body's limit: 413, nothing kept.
                let (type, huge) = Self.plexBody(Fixtures.data("integrations/plex-movie-play.json"), thumbnailBytes: 9 << 20)
                var headers = HTTPFields()
                headers[.contentType] = type
                #expect(try await client.execute(uri: path, method: .post, headers: headers, body: huge).status == .contentTooLarge)

                let list = try await client.get("/api/v1/integrations", cookie: person.cookie, accept: "application/json")
                let items = try #require(
                    (try JSONSerialization.jsonObject(with: Data(buffer: list.body)) as? [String: Any])?["items"] as? [[String: Any]])
                #expect(items.count == 1 && items[0]["id"] as? String == created.id && items[0]["threshold"] as? Int == 90)
                let revoked = try await client.execute(uri: "/api/v1/integrations/\(created.id)", method: .delete, headers: [.cookie: person.cookie])
                #expect(revoked.status == .noContent)
                #expect(try await Self.post(client, path, fixture: "plex-movie-play", kind: .plex).status == .notFound)
                let twice = try await client.execute(uri: "/api/v1/integrations/\(created.id)", method: .delete, headers: [.cookie: person.cookie])
                #expect(twice.status == .notFound)
                // At most 20 a person.
                for _ in 0..<Integrations.perPerson { _ = try await app.services.integrations.create(profile: person.profile, kind: .generic) }
                let over = try await client.sendJSON("/api/v1/integrations", method: .post, #"{"kind": "kodi"}"#, cookie: person.cookie)
                #expect(over.status == .conflict && over.text.contains("revoke one first"))
                // A visitor has no integrations.
                let visitor = try await app.visitor()
                let refused = try await client.sendJSON("/api/v1/integrations", method: .post, #"{"kind": "emby"}"#, cookie: visitor)
                #expect(refused.status == .forbidden)
            }
        }
    }
}
