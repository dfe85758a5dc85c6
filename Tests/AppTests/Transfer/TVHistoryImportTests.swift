import Foundation
import Testing

@testable import App

/// TV Time and Simkl imports end to end below the pages, on SQLite and PostgreSQL alike: every
/// row's outcome, the match queue for what TVMaze and iTunes do not know (picked once for all of a
/// title's rows, remembered), nothing twice.
@Suite("Import: TV history")
struct TVHistoryImportTests {
    static let shows = (girls: 139, pokemon: 590, gospel: 45499)

    /// Each row's outcome in the report, as `file-name:line state step reason`.
    static func outcomes(_ app: TestApp, _ profile: UUID, _ job: ImportJob) async throws -> [String] {
        let report = try #require(try await app.services.imports.report(profile: profile, job: job.id))
        return try await report.csv().split(whereSeparator: \.isNewline).dropFirst().map(String.init)
    }

    static func states(_ app: TestApp, _ profile: UUID, show id: Int) async throws -> [String: EpisodeState] {
        guard case .found(let show, _) = await app.services.shows.show(id: id) else { throw Unexpected("no show \(id)") }
        let held = try #require(await app.services.episodeCatalog.prepare(showID: id))
        let listed = try await app.services.episodes.show(show, held: held, profile: profile)
        var states: [String: EpisodeState] = [:]
        for tracked in listed.seasons.flatMap(\.episodes) { states[tracked.episode.code] = tracked.state }
        return states
    }

    @Test(
        "TV Time's export: each watch on its day and time, the rewatch too; the archived show Stopped; the favourite; what TVMaze lacks and the films wait for a match, picked once"
    )
    func tvtime() async throws {
        try await TestApp.with { app in
            let (profile, _) = try await app.signedIn("ana")
            let job = try await ImportJobTests.run(app, profile, try TVHistoryReaderTests.tvtimeZIP(), "tv-time-personal-data.zip")
            #expect(job.state == .done && job.source == .tvtime)
            let outcomes = try await Self.outcomes(app, profile, job)

            // Girls: every watch of season 6 on its day; archived on TV Time, so Stopped.
            let girls = try await Self.states(app, profile, show: Self.shows.girls)
            #expect(["S06E06", "S06E07", "S06E08", "S06E09", "S06E10"].allSatisfy { girls[$0]?.datedWatches == 1 })
            #expect(girls["S06E09"]?.lastDay == "2026-02-21" && girls.values.filter(\.watched).count == 5)
            #expect(try await app.services.episodes.choices(profile: profile, showID: Self.shows.girls).stopped)

            // The Midnight Gospel: three watches (the row repeated counts once), a favourite; S01E09 is past its 8 episodes.
            let gospel = try await Self.states(app, profile, show: Self.shows.gospel)
            #expect(gospel["S01E01"]?.datedWatches == 1 && gospel["S01E02"]?.datedWatches == 1 && gospel["S01E03"]?.lastDay == "2026-03-07")
            #expect(gospel.values.filter(\.watched).count == 3)
            #expect(try await app.services.library.item(profile: profile, movieID: Self.shows.gospel, kind: .show)?.favorite == true)
            #expect(outcomes.contains { $0.contains("failed,episode,TVMaze lists no S01E09 of “The Midnight Gospel”") })
            #expect(outcomes.filter { $0.contains("skipped,read,") && $0.contains("The same watch as") }.count == 3)

            // Pokémon: followed, in progress; TVMaze's list here holds seasons 27–29 only, so its season 1 watches fail, saying so.
            #expect(try await app.services.episodes.choices(profile: profile, showID: Self.shows.pokemon).stopped == false)
            #expect(outcomes.filter { $0.contains("TVMaze lists no S01E0") && $0.contains("“Pokémon”") }.count == 5)

            // Up Next: The Midnight Gospel (watched last), not Girls (Stopped), nor Pokémon (nothing watched).
            let upNext = try await app.services.episodes.upNext(profile: profile)
            #expect(upNext.map(\.showID) == [Self.shows.gospel])
            #expect(upNext.first?.lastWatchedAt == (try Date("2026-03-07T23:02:18Z", strategy: .iso8601)), "the moment TV Time kept")

            // Waiting for a match: the show TVMaze does not know (two watches, its follow and its data), and the four films.
            let imports = app.services.imports
            let queue = try await imports.queue(profile: profile, job: job, page: 1)
            #expect(queue.filter { $0.row.title == "Moths of Varrow Fen, and Other Stories" }.count == 5)
            #expect(
                Set(queue.filter { $0.row.kind == .movie }.map(\.row.title)) == [
                    "Spirited Away", "Crouching Tiger, Hidden Dragon", "Paddington 2", "The Glass Orchard Affair",
                ])
            #expect(job.queued == 9)

            // Picked once for the show: its other rows wait no more, and land once a worker takes them.
            let moths = try #require(queue.first { $0.row.title.hasPrefix("Moths") && $0.row.episode != nil })
            #expect(try await imports.choose(profile: profile, job: job.id, number: moths.number, kind: .show, id: 52491) == .done(.landed))
            let requeued = try #require(try await imports.latest(profile: profile))
            #expect(requeued.state == .queued && requeued.pending == 4 && requeued.queued == 4)
            let done = try await imports.drain(job: job.id, owner: "test", progress: { _ in })
            #expect(done.state == .done && done.queued == 4 && done.pending == 0)
            let chosen = try await Self.states(app, profile, show: 52491)
            #expect(chosen["S01E01"]?.lastDay == "2026-06-14" && chosen["S01E02"]?.lastDay == "2026-06-21")

            // Spirited Away is 千と千尋の神隠し on iTunes: picked from a search, its watch lands on its day.
            let spirited = try #require(queue.first { $0.row.title == "Spirited Away" })
            #expect(
                try await imports.choose(profile: profile, job: job.id, number: spirited.number, kind: .movie, id: 1_439_452_110) == .done(.landed))
            #expect(try await app.services.diary.watches(profile: profile, kind: .movie, itemID: "1439452110").map(\.day) == ["2026-02-07"])

            // The same export again adds nothing, and asks no upstream: the picks are remembered.
            let calls = app.upstream.calls()
            let diary = try await app.services.diary.page(profile: profile, page: 1).total
            let again = try await ImportJobTests.run(app, profile, try TVHistoryReaderTests.tvtimeZIP(), "tv-time-personal-data.zip")
            #expect(again.landed == 0 && again.queued == 3, "only the three films nobody picked")
            #expect(app.upstream.calls() == calls)
            #expect(try await app.services.diary.page(profile: profile, page: 1).total == diary)
        }
    }

    @Test(
        "Simkl's backup: a completed show watched through its last episode, episodes on their days, ratings, statuses; its CSV again adds nothing"
    )
    func simkl() async throws {
        try await TestApp.with { app in
            let (profile, _) = try await app.signedIn("ana")
            let job = try await ImportJobTests.run(app, profile, Fixtures.data("simkl/simkl-backup.json"), "SimklBackup.json")
            #expect(job.state == .done && job.source == .simkl)

            // Girls, completed with no episode list: all 62 regular episodes, the last on its day.
            let girls = try await Self.states(app, profile, show: Self.shows.girls)
            #expect(girls.values.filter(\.watched).count == 62 && girls["S06E10"]?.lastDay == "2026-05-02")
            #expect(girls["S01E01"]?.undatedWatches == 1 && girls["S01E01"]?.datedWatches == 0)
            #expect(try await app.services.library.item(profile: profile, movieID: Self.shows.girls, kind: .show)?.rating == 9)
            let gospel = try await Self.states(app, profile, show: Self.shows.gospel)
            #expect(gospel.values.filter(\.watched).count == 3 && gospel["S01E02"]?.lastDay == "2026-03-06")
            #expect(try await app.services.library.item(profile: profile, movieID: Self.shows.gospel, kind: .show)?.rating == 7)
            let outcomes = try await Self.outcomes(app, profile, job)
            #expect(outcomes.contains { $0.contains("Watched up to S06E10: 62 episodes marked.") })
            let watches = try await app.services.diary.watches(profile: profile, kind: .show, itemID: String(Self.shows.girls))
            #expect(watches.isEmpty, "no watch of the whole show")
            let page = try await app.services.diary.page(profile: profile, page: 1)
            #expect(
                page.watches.filter { $0.itemID == String(Self.shows.girls) }.compactMap(\.episode?.code) == ["S06E10"],
                "the diary has the last one's day")

            // The plan-to-watch film and show wait for a match (nobody has heard of them); Spirited Away is found by its IMDb id or waits.
            let queue = try await app.services.imports.queue(profile: profile, job: job, page: 1)
            #expect(queue.contains { $0.row.title == "The Glass Orchard Affair" && $0.row.watchlist })
            #expect(queue.contains { $0.row.title == "Moths of Varrow Fen, and Other Stories" && $0.row.watchlist })

            let diary = try await app.services.diary.page(profile: profile, page: 1).total
            let csv = try await ImportJobTests.run(app, profile, Fixtures.data("simkl/simkl-export.csv"), "simkl-export.csv")
            #expect(csv.source == .simkl && csv.landed == 0 && csv.failed == 1, "only Pokémon’s S01E03, which TVMaze’s list here lacks")
            #expect(try await app.services.diary.page(profile: profile, page: 1).total == diary, "the CSV says what the backup said")
        }
    }
}
