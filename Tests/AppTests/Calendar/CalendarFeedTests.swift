import Foundation
import HTTPTypes
import HummingbirdTesting
import PopcornAPI
import SQLKit
import Testing

@testable import App

@Suite("Calendar feed, API and pages")
struct CalendarFeedTests {
    /// An account watching Pokémon (S29E43 watched), with its cookie.
    static func watcher(_ app: TestApp) async throws -> (profile: UUID, cookie: String, show: Show) {
        let (show, _) = try await EpisodeTests.setUp(app, show: EpisodeTests.pokemon)
        let account = try await app.signedIn("ana")
        _ = try await EpisodeTests.listed(app, show, account.profile)
        try await app.services.episodes.watch(profile: account.profile, show: show, episodeID: 3_391_243, on: .now)
        return (account.profile, account.cookie, show)
    }

    /// The path of the feed address `POST /api/v1/calendar/feed` answered.
    static func feedPath(_ response: TestResponse) throws -> String {
        let url = try APITests.decode(Schemas.CalendarFeed.self, response).url
        let start = try #require(url.range(of: "/calendar/"))
        #expect(url.hasPrefix("http") && url.hasSuffix(".ics"))
        return String(url[start.lowerBound...])
    }

    static func conditional(_ client: any TestClientProtocol, _ path: String, etag: String) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.ifNoneMatch] = etag
        return try await client.execute(uri: path, method: .get, headers: headers)
    }

    @Test("the feed: RFC 5545 with each episode's UID, an ETag and 304, HEAD, Sonarr's options; a bad option is a 400")
    func feed() async throws {
        try await TestApp.with { app in
            let person = try await Self.watcher(app)
            try await app.test { client in
                let path = try Self.feedPath(try await client.sendJSON("/api/v1/calendar/feed", method: .post, "", cookie: person.cookie))
                let first = try await client.get(path, browser: false)
                #expect(first.status == .ok && first.headers[.contentType] == "text/calendar; charset=utf-8")
                let lines = ICalendarTests.unfold(first.text)
                #expect(lines.first == "BEGIN:VCALENDAR" && lines.last == "END:VCALENDAR")
                #expect(
                    lines.filter { $0.hasPrefix("UID:") } == [
                        "UID:episode-3391243@popcornswirl", "UID:episode-3391244@popcornswirl", "UID:episode-3391245@popcornswirl",
                    ])
                #expect(lines.contains("SUMMARY:Pokémon – S29E44 – Go\\, Hatenna! Don't Give Up!"))
                #expect(lines.contains("DTSTART:20261120T095500Z") && lines.contains("DTEND:20261120T102000Z"))
                #expect(lines.contains("CATEGORIES:TV Tokyo") && lines.contains("STATUS:CONFIRMED"))
                #expect(lines.contains { $0.hasPrefix("DESCRIPTION:") && $0.hasSuffix("/episodes/3391244") && !$0.contains("<") })
                let etag = try #require(first.headers[.eTag])
                #expect(first.headers[.lastModified]?.hasSuffix(" GMT") == true && first.headers[.cacheControl]?.hasPrefix("private") == true)
                // Asked again unchanged: 304, and the same validator on a full answer.
                #expect(try await Self.conditional(client, path, etag: etag).status == .notModified)
                #expect(try await client.get(path, browser: false).headers[.eTag] == etag)
                let head = try await client.execute(uri: path, method: .head)
                #expect(head.status == .ok && head.body.readableBytes == 0 && head.headers[.contentLength] == String(first.body.readableBytes))
                // Options.
                let unwatched = ICalendarTests.unfold(
                    try await client.get(path + "?unwatchedOnly=true&pastDays=0&futureDays=10", browser: false).text)
                #expect(unwatched.filter { $0.hasPrefix("UID:") } == ["UID:episode-3391244@popcornswirl", "UID:episode-3391245@popcornswirl"])
                let allDay = ICalendarTests.unfold(try await client.get(path + "?asAllDay=true", browser: false).text)
                #expect(allDay.contains("DTSTART;VALUE=DATE:20261120") && !allDay.contains { $0.hasPrefix("DTSTART:") })
                #expect(try await client.get(path + "?premieresOnly=1", browser: false).text.contains("BEGIN:VEVENT") == false)
                for bad in ["?pastDays=400", "?futureDays=-1", "?futureDays=abc", "?unwatchedOnly=maybe"] {
                    #expect(try await client.get(path + bad, browser: false).status == .badRequest, "\(bad)")
                }
                #expect(try await client.get("/calendar/" + String(repeating: "x", count: 43) + ".ics", browser: false).status == .notFound)
                #expect(try await client.get("/calendar/nothing", browser: false).status == .notFound)
            }
        }
    }

    @Test("an unchanged feed is answered without the database; a watch, a new episode list, renewing or revoking is seen at once")
    func keptUntilSomethingChanges() async throws {
        try await TestApp.with { app in
            let person = try await Self.watcher(app)
            try await app.test { client in
                let path = try Self.feedPath(try await client.sendJSON("/api/v1/calendar/feed", method: .post, "", cookie: person.cookie))
                let etag = try #require(try await client.get(path, browser: false).headers[.eTag])
                // Delete the feed's row behind the service's back: a kept answer is given without
                // reading the database, so the feed still answers.
                let sql = try app.services.database.sql
                struct Row: Decodable { var token_hash: String }
                let kept = try await sql.select().column("token_hash").from("calendar_feeds").all(decoding: Row.self)
                try await sql.delete(from: "calendar_feeds").run()
                #expect(try await Self.conditional(client, path, etag: etag).status == .notModified)
                #expect(try await client.get(path, browser: false).status == .ok)
                // Put it back; a new episode list of the show makes the answer again, with a new validator.
                try await sql.insert(into: "calendar_feeds").columns("profile_id", "token_hash", "created_at")
                    .values(SQLBind(person.profile), SQLBind(kept[0].token_hash), SQLBind(app.clock.now())).run()
                var list = try TVMazeDecoder.episodes(
                    showID: EpisodeTests.pokemon, embed: Fixtures.data("tvmaze/answers/show-590-embed.json"), specials: nil)
                list.episodes = list.episodes.map {
                    var e = $0
                    if e.id == 3_391_244 { e.name = "Renamed" }
                    return e
                }
                try await app.services.episodeCatalog.store(list, source: .tvmaze, fetchedAt: app.clock.now().addingTimeInterval(3600))
                let renamed = try await Self.conditional(client, path, etag: etag)
                #expect(renamed.status == .ok && renamed.text.contains("S29E44 – Renamed") && renamed.headers[.eTag] != etag)
                // A change of what was watched is seen at once too.
                #expect(try await client.get(path + "?unwatchedOnly=true", browser: false).text.contains("3391243") == false)
                try await app.services.episodes.unwatch(profile: person.profile, showID: person.show.id, episodeID: 3_391_243)
                #expect(try await client.get(path + "?unwatchedOnly=true", browser: false).text.contains("3391243"))
                // Renewed: the old address answers 404, the new one the calendar.
                let renewed = try Self.feedPath(try await client.sendJSON("/api/v1/calendar/feed", method: .post, "", cookie: person.cookie))
                #expect(renewed != path)
                #expect(try await client.get(path, browser: false).status == .notFound)
                #expect(try await client.get(renewed, browser: false).status == .ok)
                // Revoked: 404; revoking again says it is off already.
                #expect(try await client.sendJSON("/api/v1/calendar/feed", method: .delete, "", cookie: person.cookie).status == .noContent)
                #expect(try await client.get(renewed, browser: false).status == .notFound)
                #expect(try await client.sendJSON("/api/v1/calendar/feed", method: .delete, "", cookie: person.cookie).status == .notFound)
            }
        }
    }

    @Test("a kept feed follows its person's day: in Auckland, their midnight (11:00 UTC) moves the window though the UTC day has not changed")
    func keptFeedFollowsThePersonsDay() async throws {
        // 2026-11-18T10:30:00Z: 23:30 on the 18th in Auckland.
        try await TestApp.with(clock: ManualClock(Date(timeIntervalSince1970: 1_794_997_800))) { app in
            let person = try await Self.watcher(app)
            try await app.services.calendar.setTimeZone("Pacific/Auckland", profile: person.profile)
            // An episode at 12:00 UTC on the 18th: 01:00 on the 19th in Auckland.
            let episode = Episode(
                id: 9_000_002, showID: person.show.id, position: 500, season: 30, number: 1, kind: .regular, name: "Tomorrow there",
                airdate: "2026-11-19", airtime: "01:00", airstamp: Date(timeIntervalSince1970: 1_795_003_200), runtimeMinutes: 25,
                summaryHTML: nil, imageMedium: nil)
            var list = try TVMazeDecoder.episodes(
                showID: EpisodeTests.pokemon, embed: Fixtures.data("tvmaze/answers/show-590-embed.json"), specials: nil)
            list.episodes.append(episode)
            try await app.services.episodeCatalog.store(list, source: .tvmaze, fetchedAt: app.clock.now().addingTimeInterval(3600))
            try await app.test { client in
                let path = try Self.feedPath(try await client.sendJSON("/api/v1/calendar/feed", method: .post, "", cookie: person.cookie))
                let today = path + "?pastDays=0&futureDays=0"
                #expect(try await client.get(today, browser: false).text.contains("9000002") == false, "the 18th there: not yet")
                app.clock.advance(3600)  // 11:30 UTC, still the 18th in UTC; 00:30 on the 19th in Auckland
                #expect(try await client.get(today, browser: false).text.contains("UID:episode-9000002@popcornswirl"))
            }
        }
    }

    @Test("a deleted account's feed answers 404 at once; a visitor gets no feed (403), nobody 401")
    func whoHasAFeed() async throws {
        try await TestApp.with { app in
            let person = try await Self.watcher(app)
            try await app.test { client in
                let path = try Self.feedPath(try await client.sendJSON("/api/v1/calendar/feed", method: .post, "", cookie: person.cookie))
                #expect(try await client.get(path, browser: false).status == .ok)
                try await app.services.database.sql.delete(from: "profiles").where("id", .equal, SQLBind(person.profile)).run()
                app.services.database.changes.publish(.person(person.profile))
                #expect(try await client.get(path, browser: false).status == .notFound)
                let visitor = try await app.visitor()
                #expect(try await client.sendJSON("/api/v1/calendar/feed", method: .post, "", cookie: visitor).status == .forbidden)
                #expect(try await client.sendJSON("/api/v1/calendar/feed", method: .post, "").status == .unauthorized)
            }
        }
    }

    @Test("GET /api/v1/calendar: items in the asked zone, at most 93 days, a bad zone or date is a 400, no session a 401")
    func api() async throws {
        try await TestApp.with { app in
            let person = try await Self.watcher(app)
            try await app.test { client in
                let answer = try await client.get("/api/v1/calendar?from=2026-11-13&to=2026-11-20&timeZone=Pacific/Auckland", cookie: person.cookie)
                #expect(answer.status == .ok)
                let calendar = try APITests.decode(Schemas.Calendar.self, answer)
                #expect(calendar.timeZone == "Pacific/Auckland")
                #expect(calendar.items.map(\.id) == [3_391_243, 3_391_244])
                let first = try #require(calendar.items.first)
                #expect(first.kind == .episode && first.title == "Into the Old Lighthouse!" && first.show == "Pokémon")
                #expect(first.season == 29 && first.number == 43 && first.start == "2026-11-13T09:55:00Z" && first.end == "2026-11-13T10:20:00Z")
                #expect(!first.allDay && first.watched && first.network == "TV Tokyo" && first.url.hasSuffix("/episodes/3391243"))
                #expect(calendar.items[1].watched == false)
                for bad in [
                    "from=2026-01-01&to=2026-04-04", "from=2026-02-01&to=2026-01-01", "from=soon&to=2026-01-01",
                    "from=2026-01-01&to=2026-01-02&timeZone=Mars/Base",
                ] {
                    #expect(try await client.get("/api/v1/calendar?" + bad, cookie: person.cookie).status == .badRequest, "\(bad)")
                }
                #expect(try await client.get("/api/v1/calendar?from=2026-11-13&to=2026-11-20").status == .unauthorized)
            }
        }
    }

    @Test("the Calendar tab: days in the browser's zone or the account's, today marked, episodes checkable there; the account page's feed controls")
    func pages() async throws {
        try await TestApp.with { app in
            let person = try await Self.watcher(app)
            try await app.test { client in
                var page = try await client.get(Route.calendar.path, cookie: person.cookie)
                #expect(page.status == .ok)
                #expect(page.text.contains("Days and times in UTC.") && page.text.contains("Today · Wednesday 18 November"))
                #expect(
                    page.text.contains("Friday 20 November") && page.text.contains("S29E44") && page.text.contains(Route.saveEpisode.link(3_391_243)))
                #expect(page.text.contains(#"aria-current="page">Calendar"#))
                // A browser in Auckland: the 20th's 09:55 UTC is 22:55 there.
                page = try await client.get(Route.calendar.path, cookie: person.cookie + "; ps_tz=Pacific%2FAuckland")
                #expect(page.text.contains("Pacific/Auckland, this browser’s time zone") && page.text.contains(">22:55<"))
                // The account's zone wins over the browser's.
                let saved = try await client.postForm(Route.saveTimeZone.path, [("time_zone", "America/Los_Angeles")], cookie: person.cookie)
                #expect(saved.status == .seeOther)
                page = try await client.get(Route.calendar.path, cookie: person.cookie + "; ps_tz=Pacific%2FAuckland")
                #expect(page.text.contains("America/Los_Angeles, as set on your account") && page.text.contains(">01:55<"))
                let refused = try await client.postForm(Route.saveTimeZone.path, [("time_zone", "Mars/Base")], cookie: person.cookie)
                #expect(refused.status == .unprocessableContent && refused.text.contains("is not a time zone"))
                // The feed: off, turned on (its address shown once), then shown as on.
                var account = try await client.get(Route.account.path, cookie: person.cookie)
                #expect(account.text.contains("Turn on my calendar feed"))
                let on = try await client.postForm(Route.renewCalendarFeed.path, [], cookie: person.cookie)
                #expect(on.status == .ok && on.text.contains("/calendar/") && on.text.contains("data-copy=\"feed-url\""))
                #expect(on.headers[.cacheControl] == "no-store")
                account = try await client.get(Route.account.path, cookie: person.cookie)
                #expect(account.text.contains("Your feed is on") && !account.text.contains(".ics"))
                let off = try await client.postForm(Route.revokeCalendarFeed.path, [], cookie: person.cookie)
                #expect(off.status == .seeOther)
                #expect(try await client.get(Route.account.path, cookie: person.cookie).text.contains("Turn on my calendar feed"))
                // Nobody: an invitation, not an error.
                let nobody = try await client.get(Route.calendar.path)
                #expect(nobody.status == .ok && nobody.text.contains("Your calendar lists the episodes"))
            }
        }
    }
}
