import Foundation
import SQLKit
import Testing

@testable import App

/// The calendar from recorded TVMaze answers (`Fixtures/tvmaze/README.md`): the test clock reads
/// 2026-11-18; Pokémon (590) airs weekly on Fridays at 09:55 UTC (S29E43 on the 13th, S29E44 on
/// the 20th, S29E45 on the 27th), then S29E46 on 8 January 2027.
@Suite("Calendar")
struct CalendarServiceTests {
    static let utc = TimeZone(identifier: "UTC")!

    static func query(_ from: String, _ to: String, _ zone: TimeZone = utc) throws -> CalendarQuery {
        try CalendarService.query(from: from, to: to, zone: zone)
    }

    /// A film saved straight into the person's Favorites, released on `day`.
    static func favoriteFilm(_ app: TestApp, _ profile: UUID, id: Int, title: String, day: String) async throws {
        let title = SavedTitle(
            kind: .movie, itemID: String(id), title: title, genre: "Drama", releaseDate: UTCFormatters.startOfDay(day), artworkURL: nil,
            snapshot: Data("{}".utf8))
        _ = try await app.services.library.save(profile: profile, title: title, change: LibraryChange(favorite: true), logsWatch: false)
    }

    @Test("tracked shows' episodes by time (watched ones marked), favourite films on their day; Stopped shows and other people's never")
    func itemsOfTrackedShows() async throws {
        try await TestApp.with { app in
            let (show, profile) = try await EpisodeTests.setUp(app, show: EpisodeTests.pokemon)
            _ = try await EpisodeTests.listed(app, show, profile)
            let calendar = app.services.calendar
            #expect(try await calendar.items(profile: profile, Self.query("2026-11-11", "2026-12-18")).isEmpty, "nothing tracked yet")
            try await app.services.episodes.watch(profile: profile, show: show, episodeID: 3_391_243, on: .now)
            try await Self.favoriteFilm(app, profile, id: 4242, title: "Winter Film", day: "2026-12-04")
            try await Self.favoriteFilm(app, profile, id: 4243, title: "Too Late", day: "2027-03-01")
            var items = try await calendar.items(profile: profile, Self.query("2026-11-11", "2026-12-18"))
            #expect(items.map(\.id) == [3_391_243, 3_391_244, 3_391_245, 4242])
            #expect(items.map(\.watched) == [true, false, false, false])
            let first = items[0]
            #expect(first.kind == .episode && first.title == "Pokémon" && first.fullTitle == "Pokémon – S29E43 – Into the Old Lighthouse!")
            let airs = try Date("2026-11-13T09:55:00Z", strategy: .iso8601)
            #expect(!first.allDay && first.start == airs)
            #expect(first.end == first.start.addingTimeInterval(25 * 60))
            #expect(items[3].kind == .movie && items[3].allDay && items[3].day == "2026-12-04" && items[3].title == "Winter Film")
            // Options: unwatched only, premieres only (none in these weeks: films are never premieres).
            var unwatched = try Self.query("2026-11-11", "2026-12-18")
            unwatched.unwatchedOnly = true
            #expect(try await calendar.items(profile: profile, unwatched).map(\.id) == [3_391_244, 3_391_245, 4242])
            var premieres = try Self.query("2026-11-11", "2026-12-18")
            premieres.premieresOnly = true
            #expect(try await calendar.items(profile: profile, premieres).isEmpty)
            // Someone else sees none of it.
            let other = try await app.services.sessions.startVisitor().profile
            #expect(try await calendar.items(profile: other, Self.query("2026-11-11", "2026-12-18")).isEmpty)
            // Stopped: the show leaves the calendar, even as a TV favourite.
            _ = try await app.services.library.save(profile: profile, title: try show.savedTitle(), change: LibraryChange(favorite: true))
            _ = try await app.services.episodes.choose(profile: profile, show: show, stopped: true, includeSpecials: nil)
            items = try await calendar.items(profile: profile, Self.query("2026-11-11", "2026-12-18"))
            #expect(items.map(\.id) == [4242])
            // A TV favourite never watched is tracked.
            _ = try await app.services.library.save(profile: other, title: try show.savedTitle(), change: LibraryChange(favorite: true))
            #expect(try await calendar.items(profile: other, Self.query("2026-11-11", "2026-12-18")).map(\.id) == [3_391_243, 3_391_244, 3_391_245])
        }
    }

    @Test("days are the person's: an episode at 12:00 UTC is on the 21st in Auckland and the 20th in Los Angeles")
    func timeZones() async throws {
        try await TestApp.with { app in
            let (show, profile) = try await EpisodeTests.setUp(app, show: EpisodeTests.pokemon)
            let noon = try Date("2026-11-20T12:00:00Z", strategy: .iso8601)
            let episode = Episode(
                id: 9_000_001, showID: show.id, position: 0, season: 1, number: 1, kind: .regular, name: "Pilot", airdate: "2026-11-20",
                airtime: "21:00", airstamp: noon, runtimeMinutes: 60, summaryHTML: nil, imageMedium: nil)
            let list = EpisodeList(showID: show.id, seasons: [], episodes: [episode], showStatus: "Running", network: "TV Tokyo")
            try await app.services.episodeCatalog.store(list, source: .tvmaze, fetchedAt: app.clock.now().addingTimeInterval(86_400))
            _ = try await app.services.episodes.choose(profile: profile, show: show, stopped: false, includeSpecials: nil)
            let auckland = try #require(TimeZone(identifier: "Pacific/Auckland"))
            let losAngeles = try #require(TimeZone(identifier: "America/Los_Angeles"))
            let calendar = app.services.calendar
            let inAuckland = try await calendar.items(profile: profile, Self.query("2026-11-21", "2026-11-21", auckland))
            #expect(inAuckland.map(\.id) == [9_000_001] && inAuckland[0].localDay(in: auckland) == "2026-11-21")
            #expect(try await calendar.items(profile: profile, Self.query("2026-11-20", "2026-11-20", auckland)).isEmpty)
            let inLA = try await calendar.items(profile: profile, Self.query("2026-11-20", "2026-11-20", losAngeles))
            #expect(inLA.map(\.id) == [9_000_001] && inLA[0].localDay(in: losAngeles) == "2026-11-20")
            #expect(try await calendar.items(profile: profile, Self.query("2026-11-21", "2026-11-21", losAngeles)).isEmpty)
            #expect(inLA[0].mark == .seriesPremiere && inLA[0].network == "TV Tokyo")
        }
    }

    @Test("premieres and finales: a season's first and last (by its announced order), the series' last when it ended; an all-day episode")
    func premieresAndFinales() async throws {
        try await TestApp.with { app in
            let (show, profile) = try await EpisodeTests.setUp(app, show: EpisodeTests.pokemon)
            func episode(_ id: Int, _ season: Int, _ number: Int, _ day: String, stamp: Bool = true) -> Episode {
                Episode(
                    id: id, showID: show.id, position: id, season: season, number: number, kind: .regular, name: "E\(number)", airdate: day,
                    airtime: nil, airstamp: stamp ? UTCFormatters.startOfDay(day)?.addingTimeInterval(20 * 3600) : nil, runtimeMinutes: 30,
                    summaryHTML: nil, imageMedium: nil)
            }
            let list = EpisodeList(
                showID: show.id,
                seasons: [
                    Season(number: 1, name: nil, episodeOrder: 2, premiereDate: nil, endDate: "2025-01-08"),
                    Season(number: 2, name: nil, episodeOrder: 3, premiereDate: nil, endDate: nil),
                ],
                episodes: [
                    episode(1, 1, 1, "2025-01-01"), episode(2, 1, 2, "2025-01-08"), episode(3, 2, 1, "2026-11-19"),
                    episode(4, 2, 2, "2026-11-26", stamp: false), episode(5, 2, 3, "2026-12-03"),
                ], showStatus: "Ended")
            try await app.services.episodeCatalog.store(list, source: .tvmaze, fetchedAt: app.clock.now().addingTimeInterval(86_400))
            _ = try await app.services.episodes.choose(profile: profile, show: show, stopped: false, includeSpecials: nil)
            let items = try await app.services.calendar.items(profile: profile, Self.query("2026-11-11", "2026-12-18"))
            #expect(items.map(\.id) == [3, 4, 5])
            #expect(items.map(\.mark) == [.seasonPremiere, nil, .seriesFinale])
            #expect(items[1].allDay && items[1].day == "2026-11-26" && items[1].end == nil)
            let earlier = try await app.services.calendar.items(profile: profile, Self.query("2024-12-28", "2025-01-10"))
            #expect(earlier.map(\.mark) == [.seriesPremiere, .seasonFinale])
        }
    }

    @Test("a query: at most 93 days, dates as 2026-11-24, the end not before the start; time zones by IANA name only")
    func queries() throws {
        #expect(try Self.query("2026-01-01", "2026-04-03").to == "2026-04-03")
        #expect(throws: CalendarError.self) { try Self.query("2026-01-01", "2026-04-04") }
        #expect(throws: CalendarError.self) { try Self.query("2026-02-01", "2026-01-01") }
        #expect(throws: CalendarError.self) { try Self.query("yesterday", "2026-01-01") }
        #expect(CalendarService.zone(named: "Pacific/Auckland") != nil && CalendarService.zone(named: "UTC") != nil)
        #expect(CalendarService.zone(named: "GMT+5") == nil && CalendarService.zone(named: "Mars/Olympus") == nil)
    }
}
