import Foundation
import HTTPTypes
import HummingbirdTesting
import SQLKit
import Testing

@testable import App

/// Episodes from TVMaze's recorded answers (`Fixtures/tvmaze/README.md` says which show carries
/// which case). The test clock reads 2026-11-18: Girls (139) ended with 62 episodes, all aired;
/// Pokémon (590) runs, 134 of its 140 regular episodes aired, S29E44 (3391244) airs on the 20th.
@Suite("TV episodes")
struct EpisodeTests {
    static let girls = 139
    static let pokemon = 590

    @Test("TVMaze's answers decode: a special with a null number, an insignificant special, unaired episodes with and without an airstamp")
    func decodesRecordedAnswers() throws {
        let list = try TVMazeDecoder.episodes(
            showID: Self.pokemon, embed: Fixtures.data("tvmaze/answers/show-590-embed.json"),
            specials: Fixtures.data("tvmaze/answers/show-590-episodes-specials.json"))
        #expect(list.regular.count == 140 && list.specials.count == 2)
        #expect(list.seasons.map(\.number) == [27, 28, 29])
        #expect(list.regular.first?.code == "S27E01" && list.regular.first?.name == "Where Did Sprigatito Go?!")
        let special = try #require(list.episodes.first { $0.id == 3_198_760 })
        #expect(special.number == nil && special.kind == .significantSpecial && special.season == 28 && special.code == "S28 special")
        #expect(try #require(list.episodes.first { $0.id == 3_390_001 }).kind == .insignificantSpecial)
        let scheduled = try #require(list.episodes.first { $0.id == 3_391_246 })
        let airs = try Date("2027-01-08T09:55:00Z", strategy: .iso8601)
        #expect(scheduled.airstamp == airs)
        #expect(!scheduled.hasAired(by: airs.addingTimeInterval(-60)) && scheduled.hasAired(by: airs))
        let unscheduled = try #require(list.episodes.first { $0.id == 3_391_248 })
        #expect(unscheduled.airstamp == nil && unscheduled.airdate == nil && unscheduled.airsAt == nil)
        #expect(!unscheduled.hasAired(by: .distantFuture), "an episode with no date has not aired")
        // Regular episodes in TVMaze's order, then the specials.
        #expect(list.episodes.map(\.position) == Array(0..<142))
        #expect(list.episodes.suffix(2).allSatisfy { $0.isSpecial })
    }

    @Test("a show with more than 1,000 episodes decodes whole; a body that is not a show's episodes is refused")
    func longShowAndBadBodies() throws {
        let list = try TVMazeDecoder.episodes(showID: 990_001, embed: Fixtures.data("tvmaze/long-show.json"), specials: nil)
        #expect(list.regular.count == 1318 && list.seasons.count == 7)
        #expect(throws: (any Error).self) { try TVMazeDecoder.episodes(showID: 139, embed: Data("[]".utf8), specials: nil) }
        // Another show's answer is not this show's.
        #expect(throws: (any Error).self) {
            try TVMazeDecoder.episodes(showID: 139, embed: Fixtures.data("tvmaze/answers/show-590-embed.json"), specials: nil)
        }
    }

    /// The show as PopcornSwirl holds it, and a person.
    static func setUp(_ app: TestApp, show id: Int) async throws -> (Show, UUID) {
        guard case .found(let show, _) = await app.services.shows.show(id: id) else { throw Unexpected("no show \(id)") }
        let profile = try await app.services.sessions.startVisitor().profile
        return (show, profile)
    }

    static func listed(_ app: TestApp, _ show: Show, _ profile: UUID?) async throws -> ShowEpisodes {
        let held = try #require(await app.services.episodeCatalog.prepare(showID: show.id))
        return try await app.services.episodes.show(show, held: held, profile: profile)
    }

    @Test("marking: the next episode is the first aired, unwatched one in airing order, whatever was watched after it")
    func nextEpisodeNeverSkipsAGap() async throws {
        try await TestApp.with { app in
            let (show, profile) = try await Self.setUp(app, show: Self.girls)
            let episodes = app.services.episodes
            var listed = try await Self.listed(app, show, profile)
            #expect(listed.held.source == .tvmaze)
            #expect(listed.seasons.count == 6 && listed.seasons.map(\.episodes.count) == [10, 10, 12, 10, 10, 10])
            #expect(listed.specials.map(\.episode.id) == [1_512_344])
            #expect(listed.progress.status == .notStarted && listed.progress.next?.id == 12301 && listed.progress.aired == 62)
            try await episodes.watch(profile: profile, show: show, episodeID: 12301, on: .now)
            try await episodes.watch(profile: profile, show: show, episodeID: 12303, on: .now)
            listed = try await Self.listed(app, show, profile)
            #expect(listed.progress.next?.id == 12302, "S1E3 watched out of order: S1E2 is still next")
            #expect(listed.progress.status == .watching && listed.progress.watched == 2 && listed.progress.remaining == 60)
            // Marking again without `again` changes nothing; `again` is a rewatch.
            #expect(try await episodes.watch(profile: profile, show: show, episodeID: 12301, on: .now).watchCount == 1)
            #expect(try await episodes.watch(profile: profile, show: show, episodeID: 12301, on: .now, again: true).watchCount == 2)
            // Unmarking takes every watch of it away: it is next again.
            try await episodes.unwatch(profile: profile, showID: show.id, episodeID: 12301)
            listed = try await Self.listed(app, show, profile)
            #expect(listed.progress.next?.id == 12301 && listed.progress.watched == 1)
        }
    }

    @Test("a watch's day: today, its air date, a day picked, or unknown (not in the diary); the diary names the episode")
    func watchDays() async throws {
        try await TestApp.with { app in
            let (show, profile) = try await Self.setUp(app, show: Self.girls)
            let episodes = app.services.episodes
            _ = try await Self.listed(app, show, profile)
            try await episodes.watch(profile: profile, show: show, episodeID: 12301, on: .now)
            try await episodes.watch(profile: profile, show: show, episodeID: 12302, on: .airDate)
            try await episodes.watch(profile: profile, show: show, episodeID: 12303, on: .day("2020-05-01"))
            let unknown = try await episodes.watch(profile: profile, show: show, episodeID: 12304, on: .unknown)
            #expect(unknown.watched && unknown.undatedWatches == 1 && unknown.datedWatches == 0)
            await #expect(throws: EpisodeError.self) {
                try await episodes.watch(profile: profile, show: show, episodeID: 12305, on: .day("2030-01-01"))
            }
            let diary = try await app.services.diary.page(profile: profile, page: 1)
            #expect(diary.watches.count == 3, "the watch on no known day is not in the diary")
            let byEpisode = Dictionary(uniqueKeysWithValues: diary.watches.compactMap { w in w.episode.map { ($0.id, w) } })
            #expect(byEpisode[12301]?.day == "2026-11-18")
            #expect(byEpisode[12302]?.day == "2012-04-22", "S1E2 aired on 22 April 2012")
            #expect(byEpisode[12303]?.day == "2020-05-01")
            #expect(byEpisode[12301]?.episode?.code == "S01E01" && byEpisode[12301]?.title == "Girls")
            // The show's own page lists its whole-show watches, not its episodes'.
            #expect(try await app.services.diary.watches(profile: profile, kind: .show, itemID: "139").isEmpty)
            // Each episode's first watch is no rewatch of the show.
            #expect(diary.watches.allSatisfy { !$0.isRewatch })
        }
    }

    @Test("episodes not yet aired can't be marked; bulk marks skip them and the specials; ratings go from 1 to 10")
    func bulkMarksAndRatings() async throws {
        try await TestApp.with { app in
            let (show, profile) = try await Self.setUp(app, show: Self.pokemon)
            let episodes = app.services.episodes
            _ = try await Self.listed(app, show, profile)
            await #expect(throws: EpisodeError.notAired("Go, Hatenna! Don't Give Up!")) {
                try await episodes.watch(profile: profile, show: show, episodeID: 3_391_244, on: .now)
            }
            #expect(try await episodes.watchAll(profile: profile, show: show, season: 27) == 46)
            #expect(try await episodes.watchAll(profile: profile, show: show, season: 27) == 0, "marked already")
            #expect(try await episodes.watchAll(profile: profile, show: show, season: nil) == 134 - 46)
            let listed = try await Self.listed(app, show, profile)
            #expect(listed.specials.allSatisfy { !$0.state.watched }, "specials are never bulk-marked")
            #expect(listed.seasons.flatMap(\.episodes).filter { !$0.hasAired }.allSatisfy { !$0.state.watched })
            #expect(listed.progress.status == .upToDate && listed.progress.next == nil && listed.progress.nextAiring?.id == 3_391_244)
            try await episodes.rate(profile: profile, show: show, episodeID: 2_937_797, rating: 8)
            await #expect(throws: EpisodeError.self) { try await episodes.rate(profile: profile, show: show, episodeID: 2_937_797, rating: 11) }
            #expect(try await episodes.states(profile: profile, showID: show.id)[2_937_797]?.rating == 8)
            // Counting the specials in: one of the two has aired and is unwatched.
            _ = try await episodes.choose(profile: profile, show: show, stopped: nil, includeSpecials: true)
            let counted = try await Self.listed(app, show, profile)
            #expect(counted.progress.aired == 136 && counted.progress.watched == 134 && counted.progress.status == .watching)
        }
    }

    @Test("Up Next: shows in progress, most recently watched first, with their next episode; waiting, finished and stopped shows apart")
    func upNext() async throws {
        try await TestApp.with { app in
            let (girls, profile) = try await Self.setUp(app, show: Self.girls)
            guard case .found(let pokemon, _) = await app.services.shows.show(id: Self.pokemon) else { throw Unexpected("no 590") }
            let episodes = app.services.episodes
            _ = try await Self.listed(app, girls, profile)
            _ = try await Self.listed(app, pokemon, profile)
            try await episodes.watch(profile: profile, show: pokemon, episodeID: 2_937_797, on: .now)
            app.clock.advance(60)
            try await episodes.watch(profile: profile, show: girls, episodeID: 12301, on: .now)
            var items = try await episodes.upNext(profile: profile)
            #expect(items.map(\.showID) == [139, 590], "Girls was watched last")
            #expect(items[0].next?.id == 12302 && items[0].remaining == 61 && items[0].title == "Girls")
            #expect(items[1].next?.id == 2_937_798 && items[1].remaining == 133 && items[1].nextAiring?.id == 3_391_244)
            // Stopped: gone from Up Next; resumed: back.
            _ = try await episodes.choose(profile: profile, show: girls, stopped: true, includeSpecials: nil)
            #expect(try await episodes.upNext(profile: profile).map(\.showID) == [590])
            _ = try await episodes.choose(profile: profile, show: girls, stopped: false, includeSpecials: nil)
            // Up to date with Pokémon: waiting for S29E44; finished with Girls: in neither list.
            _ = try await episodes.watchAll(profile: profile, show: pokemon, season: nil)
            _ = try await episodes.watchAll(profile: profile, show: girls, season: nil)
            items = try await episodes.upNext(profile: profile)
            #expect(items.isEmpty)
            let waiting = try await episodes.upNext(profile: profile, filter: .waiting)
            #expect(waiting.map(\.showID) == [590] && waiting[0].nextAiring?.id == 3_391_244)
            #expect(try await Self.listed(app, girls, profile).progress.status == .finished)
            // A new episode airs: Pokémon is back in Up Next, with one new.
            app.clock.advance(3 * 86_400)
            items = try await episodes.upNext(profile: profile)
            #expect(items.map(\.showID) == [590] && items[0].next?.id == 3_391_244 && items[0].new == 1)
        }
    }

    @Test("statistics: episodes per month, and shows finished (ended, every aired episode seen) on the day of the last watch")
    func statistics() async throws {
        try await TestApp.with { app in
            let (girls, _) = try await Self.setUp(app, show: Self.girls)
            let (profile, cookie) = try await app.signedIn("ana")
            guard case .found(let pokemon, _) = await app.services.shows.show(id: Self.pokemon) else { throw Unexpected("no 590") }
            let episodes = app.services.episodes
            let stats = app.services.statistics
            _ = try await Self.listed(app, girls, profile)
            _ = try await Self.listed(app, pokemon, profile)
            // Pokémon seen to its latest episode: up to date, not finished (it runs on).
            _ = try await episodes.watchAll(profile: profile, show: pokemon, season: nil)
            #expect(try await stats.statistics(profile: profile, year: nil).showsFinished == 0)
            // Girls: all but the finale on no known day, the finale on 1 March 2025.
            _ = try await episodes.watchAll(profile: profile, show: girls, season: nil)
            let finale = try #require(try await Self.listed(app, girls, profile).seasons.last?.episodes.last?.episode)
            try await episodes.unwatch(profile: profile, showID: girls.id, episodeID: finale.id)
            #expect(try await stats.statistics(profile: profile, year: nil).showsFinished == 0, "one episode left")
            try await episodes.watch(profile: profile, show: girls, episodeID: finale.id, on: .day("2025-03-01"))
            let allTime = try await stats.statistics(profile: profile, year: nil)
            #expect(allTime.showsFinished == 1 && allTime.episodes == 1)
            #expect(allTime.titles == 1 && allTime.rewatches == 0, "a show seen episode by episode is a title watched, and no rewatch")
            let year2025 = try await stats.statistics(profile: profile, year: 2025)
            #expect(year2025.showsFinished == 1 && year2025.months[2].episodes == 1 && year2025.months[2].shows == 1)
            #expect(year2025.titles == 1 && year2025.rewatches == 0)
            #expect(try await stats.statistics(profile: profile, year: 2024).titles == 0)
            #expect(try await stats.statistics(profile: profile, year: 2026).showsFinished == 0, "finished in 2025")
            // Counting the specials in: its insignificant special is unwatched, so not finished.
            _ = try await episodes.choose(profile: profile, show: girls, stopped: nil, includeSpecials: true)
            #expect(try await stats.statistics(profile: profile, year: nil).showsFinished == 0)
            _ = try await episodes.choose(profile: profile, show: girls, stopped: nil, includeSpecials: false)

            try await app.test { client in
                let page = try await client.get("/stats?year=2025", cookie: cookie)
                #expect(page.text.contains("<li><strong>1</strong> show finished</li>"))
                #expect(page.text.contains(#"<th scope="col" class="num">Episodes</th>"#))
                let api = try await client.get("/api/v1/stats?year=2025", cookie: cookie, accept: "application/json")
                let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: api.body)) as? [String: Any])
                #expect(json["showsFinished"] as? Int == 1 && json["episodes"] as? Int == 1)
                #expect((json["months"] as? [[String: Any]])?[2]["episodes"] as? Int == 1)
                let diary = try await client.get("/api/v1/diary", cookie: cookie, accept: "application/json")
                let entries =
                    try #require(try JSONSerialization.jsonObject(with: Data(buffer: diary.body)) as? [String: Any])["items"] as? [[String: Any]]
                let episode = try #require(entries?.first?["episode"] as? [String: Any])
                #expect(episode["id"] as? Int == finale.id && episode["season"] as? Int == 6 && episode["name"] as? String == finale.name)
            }
        }
    }

    @Test("the bundled list stands in while TVMaze can't be reached; TVMaze's list then takes over and the watches follow their episodes")
    func bundledThenTVMaze() async throws {
        try await TestApp.with { app in
            let catalog = app.services.episodeCatalog
            let (show, profile) = try await Self.setUp(app, show: Self.girls)
            // Girls as a bundled list would have it: the same episodes under other ids.
            let live = try TVMazeDecoder.episodes(
                showID: 139, embed: Fixtures.data("tvmaze/answers/show-139-embed.json"),
                specials: Fixtures.data("tvmaze/answers/show-139-episodes-specials.json"))
            var bundled = live
            bundled.episodes = live.episodes.map {
                var e = $0
                e.id += 950_000_000
                return e
            }
            try await catalog.store(bundled, source: .offline, fetchedAt: .distantPast)
            try await app.services.episodes.watch(profile: profile, show: show, episodeID: 950_012_301, on: .now)
            try await app.services.episodes.rate(profile: profile, show: show, episodeID: 950_012_302, rating: 6)
            // TVMaze answers: its list replaces the bundled one, and the watch and rating move.
            let held = try #require(await catalog.prepare(showID: 139))
            #expect(held.source == .tvmaze)
            let states = try await app.services.episodes.states(profile: profile, showID: 139)
            #expect(states[12301]?.watched == true && states[12302]?.rating == 6 && states[950_012_301] == nil)
            // An older answer never replaces a newer one.
            try await catalog.store(bundled, source: .offline, fetchedAt: .distantPast)
            #expect(try await catalog.heldList(139)?.source == "tvmaze")
        }
    }

    @Test("the backup keeps each episode's watches (dated, and on no known day), ratings and Stopped; restoring it twice adds nothing")
    func backupRoundTrip() async throws {
        try await TestApp.with { app in
            let (show, profile) = try await Self.setUp(app, show: Self.girls)
            let episodes = app.services.episodes
            _ = try await Self.listed(app, show, profile)
            try await episodes.watch(profile: profile, show: show, episodeID: 12301, on: .day("2024-03-01"))
            try await episodes.watch(profile: profile, show: show, episodeID: 12301, on: .day("2025-03-01"), again: true)
            try await episodes.watch(profile: profile, show: show, episodeID: 12302, on: .unknown)
            try await episodes.rate(profile: profile, show: show, episodeID: 12302, rating: 7)
            _ = try await episodes.choose(profile: profile, show: show, stopped: true, includeSpecials: true)
            let backup = try await app.services.exports.backup(profile: profile)
            #expect(backup.watches.compactMap(\.episode?.id) == [12301, 12301])
            #expect(backup.episodes?.map(\.episodeID) == [12302] && backup.episodes?.first?.rating == 7)
            #expect(backup.shows?.first?.stopped == true && backup.shows?.first?.includeSpecials == true)
            // Through its JSON, into another person's lists, twice.
            let file = try Backup.decoder.decode(Backup.self, from: try Backup.encoder.encode(backup))
            let other = try await app.services.sessions.startVisitor().profile
            let restore = BackupRestore(database: app.services.database, history: SearchHistoryStore(database: app.services.database))
            _ = try await restore.restore(file, profile: other)
            let again = try await restore.restore(file, profile: other)
            #expect(again.added == 0)
            let states = try await episodes.states(profile: other, showID: 139)
            #expect(states[12301]?.datedWatches == 2 && states[12302]?.undatedWatches == 1 && states[12302]?.rating == 7)
            #expect(try await episodes.choices(profile: other, showID: 139).stopped)
            // A backup made before episodes (no such keys) still reads.
            let old =
                #"{"format":"popcornswirl-backup","version":1,"exportedAt":"2026-01-01T00:00:00.000Z","titles":[],"watches":[],"lists":[],"searches":[]}"#
            #expect(try Backup.decoder.decode(Backup.self, from: Data(old.utf8)).episodes == nil)
        }
    }

    @Test("TVMaze's updates mark a held list changed; the refresher asks for it again, and a list a day old is asked for again by its page")
    func refresh() async throws {
        try await TestApp.with { app in
            let catalog = app.services.episodeCatalog
            // 30 November: TVMaze's updates (recorded on the 29th) are in the past.
            app.clock.advance(12 * 86_400)
            #expect(await catalog.prepare(showID: Self.pokemon)?.source == .tvmaze)
            let calls = { app.upstream.calls("/shows/590") }
            let before = calls()
            // Nothing changed after the list was fetched: nothing to do.
            #expect(try await app.services.episodeRefresher.round() == EpisodeRefresher.Round(marked: 0, refreshed: 0))
            // The list as fetched before TVMaze's change (29 November, 08:43 UTC).
            try await app.services.database.writeSQL { sql in
                try await sql.update("tv_episode_lists").set("fetched_at", to: SQLBind(try Date("2026-11-28T00:00:00Z", strategy: .iso8601)))
                    .where("show_id", .equal, SQLBind(590)).run()
            }
            let round = try await app.services.episodeRefresher.round()
            #expect(round.marked == 1 && round.refreshed == 1)
            #expect(calls() == before + 1)
            #expect(try await app.services.episodeRefresher.round() == EpisodeRefresher.Round(marked: 0, refreshed: 0), "nothing changed since")
            // Within the day, the page reads the tables alone; after it, TVMaze is asked.
            app.clock.advance(3600)
            _ = await catalog.prepare(showID: Self.pokemon)
            #expect(calls() == before + 1)
            app.clock.advance(EpisodeCatalog.freshness)
            _ = await catalog.prepare(showID: Self.pokemon)
            #expect(calls() == before + 2)
        }
    }
}

@Suite("TV episodes: pages and API")
struct EpisodePagesTests {
    @Test("a show's page lists its seasons, the current one open, each episode with its air date and a check; checking works without JavaScript")
    func showPage() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let html = try await client.get("/shows/139").text
                #expect(html.contains(#"<section class="episodes" id="episodes""#))
                #expect(html.contains("Not started") && html.contains("0 of 62 aired episodes watched."))
                #expect(html.components(separatedBy: #"<details class="season"#).count - 1 == 7, "six seasons and the specials")
                #expect(html.contains(#"<details class="season" id="season-1" open>"#), "the first season is the current one")
                #expect(html.contains(#"<time datetime="2012-04-16T02:00:00Z" data-local>16 April 2012, 02:00 UTC</time>"#))
                #expect(html.contains(#"aria-label="Mark S01E01 “Pilot” watched""#))
                #expect(html.contains("Show season 2’s episodes") && html.contains(#"href="/shows/139?season=2#season-2""#))
                #expect(html.contains("1 special, not counted in progress"))
                // One check, without JavaScript: back to the page, the episode watched, the next one named.
                let checked = try await client.postForm("/library/episodes/12301", [("mark", "watch"), ("return_to", "/shows/139#episodes")])
                #expect(checked.status == .seeOther && checked.headers[.location] == "/shows/139#episodes")
                let cookie = try #require(checked.sessionCookie)
                let after = try await client.get("/shows/139", cookie: cookie).text
                #expect(after.contains("Watching") && after.contains("1 of 62 aired episodes watched."))
                #expect(after.contains(#"aria-label="Unmark S01E01 “Pilot” (watched)""#))
                #expect(after.contains(#"Next:</span> <a href="/episodes/12302"><span class="ep-code">S01E02</span> Rent</a>"#))
                // A folded season, opened by its link; the specials too.
                let season2 = try await client.get("/shows/139?season=2", cookie: cookie).text
                #expect(season2.contains(#"<details class="season" id="season-2" open>"#) && season2.contains("S02E01"))
                let specials = try await client.get("/shows/139?season=specials", cookie: cookie).text
                #expect(specials.contains(#"id="specials" open"#) && specials.contains("S01 special"))
                let bad = try await client.get("/shows/139?season=two")
                #expect(bad.status == .badRequest && bad.text.contains("is not a season"))
                // The whole season at once.
                let marked = try await client.postForm(
                    "/library/shows/139/watched", [("season", "1"), ("return_to", "/shows/139#episodes")], cookie: cookie)
                #expect(marked.status == .seeOther)
                #expect(try await client.get("/shows/139", cookie: cookie).text.contains("10 of 62 aired episodes watched."))
            }
        }
    }

    @Test("an episode not yet aired shows no check, and a check sent for it is refused with the reason; an unknown episode is a 404")
    func unairedAndUnknown() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let html = try await client.get("/shows/590?season=29").text
                #expect(html.contains(#"id="episode-3391244""#))
                let row = try #require(html.range(of: #"id="episode-3391244""#).map { String(html[$0.upperBound...].prefix(900)) })
                #expect(!row.contains("<form") && row.contains("Airs "))
                let refused = try await client.postForm("/library/episodes/3391244", [("mark", "watch")])
                #expect(refused.status == .unprocessableContent && refused.text.contains("hasn’t aired yet"))
                let json = try await client.postForm("/library/episodes/3391244", [("mark", "watch")], json: true)
                #expect(json.status == .unprocessableContent && json.text.contains("hasn’t aired yet"))
                #expect(try await client.postForm("/library/episodes/77", [("mark", "watch")]).status == .notFound)
                #expect(try await client.get("/episodes/77").status == .notFound)
            }
        }
    }

    @Test("an episode's page: its air time, every way to mark it, its rating; Up Next offers the episode after a check")
    func episodePageAndUpNext() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                _ = try await client.get("/shows/139")
                let page = try await client.get("/episodes/12301").text
                #expect(page.contains("Girls S01E01: Pilot") && page.contains(#"value="airdate""#) && page.contains(#"value="unknown""#))
                #expect(page.contains(#"href="/episodes/12302" rel="next""#))
                let empty = try await client.get("/shows/up-next").text
                #expect(empty.contains("Nothing to watch next") && empty.contains(#"aria-current="page">Up Next</a>"#))
                let saved = try await client.postForm("/library/episodes/12301", [("mark", "watch"), ("on", "airdate")])
                let cookie = try #require(saved.sessionCookie)
                let rated = try await client.postForm("/library/episodes/12301", [("mark", "rate"), ("rating", "8")], cookie: cookie, json: true)
                #expect(rated.status == .ok && rated.text.contains(#""rating":8"#))
                var upNext = try await client.get("/shows/up-next", cookie: cookie).text
                #expect(upNext.contains(#"id="up-next-139""#) && upNext.contains("S01E02") && upNext.contains("61 episodes left"))
                let checked = try await client.postForm(
                    "/library/episodes/12302", [("mark", "watch"), ("return_to", "/shows/up-next#up-next-139")], cookie: cookie, json: true)
                #expect(checked.status == .ok && checked.text.contains(#""watched":true"#))
                upNext = try await client.get("/shows/up-next", cookie: cookie).text
                #expect(upNext.contains("S01E03") && upNext.contains("60 episodes left"))
                let stopped = try await client.postForm("/library/shows/139/progress", [("stopped", "1")], cookie: cookie)
                #expect(stopped.status == .seeOther)
                #expect(try await client.get("/shows/up-next", cookie: cookie).text.contains("Nothing to watch next"))
            }
        }
    }

    @Test("a check kept offline and sent days later is a watch on the day it was made")
    func offlineCheckKeepsItsDay() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                _ = try await client.get("/shows/139")
                var headers = HTTPFields()
                headers[FormInput.madeAtHeader] = "2026-11-15T21:30:00.000Z"
                let sent = try await client.postForm("/library/episodes/12301", [("mark", "watch")], json: true, headers: headers)
                #expect(sent.status == .ok)
                let cookie = try #require(sent.sessionCookie)
                let diary = try await client.get("/diary", cookie: cookie).text
                #expect(diary.contains(#"<time datetime="2026-11-15">15 November 2026</time>"#))
            }
        }
    }

    @Test("the API: a show's episodes, marking one, a season at once, Up Next")
    func api() async throws {
        try await TestApp.with { app in
            let (profile, cookie) = try await app.signedIn("ana")
            _ = profile
            try await app.test { client in
                let list = try await client.get("/api/v1/shows/139/episodes", accept: "application/json")
                #expect(list.status == .ok)
                let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: list.body)) as? [String: Any])
                let seasons = try #require(json["seasons"] as? [[String: Any]])
                #expect(seasons.count == 6)
                let first = try #require((seasons[0]["episodes"] as? [[String: Any]])?.first)
                #expect(first["id"] as? Int == 12301 && first["season"] as? Int == 1 && first["number"] as? Int == 1)
                #expect(first["type"] as? String == "regular" && first["airdate"] as? String == "2012-04-15" && first["watched"] as? Bool == false)
                let special = try #require((json["specials"] as? [[String: Any]])?.first)
                #expect(special["number"] == nil && special["type"] as? String == "insignificant_special")
                func object(_ response: TestResponse) throws -> [String: Any] {
                    try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                }
                let put = try await client.sendJSON(
                    "/api/v1/library/episodes/12301", method: .put, #"{"watched": true, "rating": 9}"#, cookie: cookie)
                #expect(put.status == .ok)
                let putState = try object(put)
                #expect(putState["watchCount"] as? Int == 1 && putState["rating"] as? Int == 9)
                let again = try await client.sendJSON("/api/v1/library/episodes/12301", method: .put, #"{"watched": true}"#, cookie: cookie)
                let againState = try object(again)
                #expect(againState["watchCount"] as? Int == 1, "PUT is idempotent")
                let rewatch = try await client.sendJSON("/api/v1/library/episodes/12301/watches", method: .post, "{}", cookie: cookie)
                let rewatchState = try object(rewatch)
                #expect(rewatch.status == .ok && rewatchState["watchCount"] as? Int == 2)
                let season = try await client.sendJSON("/api/v1/library/shows/139/watched", method: .post, #"{"season": 1}"#, cookie: cookie)
                let marked = try object(season)
                #expect(season.status == .ok && marked["marked"] as? Int == 9)
                let upNext = try await client.get("/api/v1/up-next", cookie: cookie, accept: "application/json")
                let items = try #require(try object(upNext)["items"] as? [[String: Any]])
                #expect(items.count == 1 && items[0]["remaining"] as? Int == 52)
                #expect((items[0]["next"] as? [String: Any])?["id"] as? Int == 12311)
                #expect((items[0]["show"] as? [String: Any])?["name"] as? String == "Girls")
                #expect(try await client.get("/api/v1/up-next", accept: "application/json").status == .unauthorized)
                let future = try await client.sendJSON("/api/v1/library/episodes/3391244", method: .put, #"{"watched": true}"#, cookie: cookie)
                #expect(future.status == .notFound, "Pokémon's list was never asked for: its episodes are unknown")
                let unmark = try await client.sendJSON("/api/v1/library/episodes/12301", method: .put, #"{"watched": false}"#, cookie: cookie)
                let unmarked = try object(unmark)
                #expect(unmark.status == .ok && unmarked["watched"] as? Bool == false && unmarked["rating"] as? Int == 9)
                let bad = try await client.sendJSON(
                    "/api/v1/library/episodes/12302", method: .put, #"{"watched": true, "watchedAt": "2031-01-01T00:00:00Z"}"#, cookie: cookie)
                #expect(bad.status == .unprocessableContent)
            }
        }
    }

    @Test("a show with more than 1,000 episodes draws one season's on its page")
    func longShowPage() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let page = try await client.get("/shows/990001")
                #expect(page.status == .ok)
                let html = page.text
                #expect(html.components(separatedBy: #"<li class="episode"#).count - 1 < 300, "only the open season's episodes are drawn")
                #expect(html.contains("0 of 1,307 aired episodes watched."))
            }
        }
    }
}

struct Unexpected: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
