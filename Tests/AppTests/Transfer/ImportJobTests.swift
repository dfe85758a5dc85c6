import Foundation
import Testing

@testable import App

/// Imports end to end below the pages: an upload read into a job, matched and landed in the
/// person's ratings, diary and lists by the worker, the unmatched queued, nothing twice.
@Suite("Import jobs")
struct ImportJobTests {
    static let films = (midsommar: 1_476_006_349, amelie: 1_436_312_339, spider: 284_910_350, spiderVerse: 1_440_739_251)

    /// A Letterboxd export with its quirks: BOM, a tags field, a review repeating a diary entry,
    /// a two-part list file, a rating that is not one, and a film iTunes does not have.
    static func letterboxdZIP() throws -> Data {
        let diary = """
            \u{FEFF}Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date
            2024-01-03,Midsommar,2019,https://boxd.it/a,4,,"horror, summer",2024-01-02
            2024-02-03,Midsommar,2019,https://boxd.it/b,4.5,Yes,,2024-02-01
            2024-03-01,Nowhere Film,1999,https://boxd.it/c,3,,,2024-02-28
            2024-03-02,Spider,2003,https://boxd.it/d,7,,,2024-03-01

            """
        let list = """
            Letterboxd list export v7
            Date,Name,Tags,URL,Description
            2024-01-01,Heists,,https://boxd.it/list,Capers

            Position,Name,Year,URL,Description
            1,Spider-Man: Into the Spider-Verse,2018,https://boxd.it/g,Fun

            """
        return try ImportReaderTests.zip([
            ("diary.csv", Data(diary.utf8)),
            ("ratings.csv", Data("Date,Name,Year,Letterboxd URI,Rating\n2024-01-05,Amélie,2001,https://boxd.it/e,4.5\n".utf8)),
            (
                "reviews.csv",
                Data(
                    "Date,Name,Year,Letterboxd URI,Rating,Rewatch,Review,Tags,Watched Date\n2024-01-03,Midsommar,2019,https://boxd.it/a,4,,\"Bright, horrible.\",,2024-01-02\n"
                        .utf8)
            ),
            ("watchlist.csv", Data("Date,Name,Year,Letterboxd URI\n2024-01-01,Spider,2003,https://boxd.it/f\n".utf8)),
            ("likes/films.csv", Data("Date,Name,Year,Letterboxd URI\n2024-01-01,Amélie,2001,https://boxd.it/e\n".utf8)),
            ("lists/heists.csv", Data(list.utf8)),
            ("__MACOSX/._diary.csv", Data("junk".utf8)),
        ])
    }

    static func run(_ app: TestApp, _ profile: UUID, _ data: Data, _ name: String) async throws -> ImportJob {
        guard case .started(let job) = try await app.services.imports.start(profile: profile, data: data, fileName: name) else {
            throw ImportRefused(message: "busy")
        }
        #expect(job.state == .queued && job.pending > 0)
        return try await app.services.imports.drain(job: job.id, owner: "test", progress: { _ in })
    }

    @Test("a Letterboxd ZIP lands in ratings, favorites, the diary and lists; the unmatched waits; a bad row is reported")
    func letterboxd() async throws {
        try await TestApp.with { app in
            let (profile, _) = try await app.signedIn("ana")
            let job = try await Self.run(app, profile, try Self.letterboxdZIP(), "letterboxd-ana-2024.zip")
            #expect(job.state == .done && job.source == .letterboxd && job.percent == 100)
            #expect(job.total == 9 && job.pending == 0)
            #expect(job.landed == 7 && job.queued == 1 && job.failed == 1 && job.skipped == 0)

            let library = app.services.library
            let amelie = try #require(try await library.item(profile: profile, movieID: Self.films.amelie))
            #expect(amelie.favorite && amelie.rating == 9 && !amelie.watched)
            let midsommar = try #require(try await library.item(profile: profile, movieID: Self.films.midsommar))
            #expect(midsommar.watched && midsommar.rating == 8, "the first diary rating, as the title had none")
            let watches = try await app.services.diary.watches(profile: profile, kind: .movie, itemID: String(Self.films.midsommar))
            #expect(watches.map(\.day).sorted() == ["2024-01-02", "2024-02-01"], "the review did not log a third watch")
            let first = try #require(watches.first { $0.day == "2024-01-02" })
            #expect(first.note == "Bright, horrible.\n\n#horror #summer" && first.rating == 8)
            #expect(watches.first { $0.day == "2024-02-01" }?.rating == 9)

            let lists = try await app.services.customLists.lists(profile: profile)
            #expect(Set(lists.map(\.name)) == ["Heists"], "the watchlist is Favorites, not a list")
            let heistsID = try #require(lists.first { $0.name == "Heists" }).id
            let heists = try #require(try await app.services.customLists.page(profile: profile, id: heistsID, page: 1))
            #expect(heists.items.map(\.itemID) == [String(Self.films.spiderVerse)] && heists.items.first?.note == "Fun")
            let toWatch = try #require(try await library.item(profile: profile, movieID: Self.films.spider))
            #expect(toWatch.favorite && !toWatch.watched, "the watchlist's film is in Favorites")

            let queued = try await app.services.imports.queue(profile: profile, job: job, page: 1)
            #expect(queued.map(\.row.title) == ["Nowhere Film"] && queued.first?.step == "match")
            #expect(queued.first?.reason == "iTunes has no film called “Nowhere Film” from about 1999.")
            let problems = try await app.services.imports.problems(profile: profile, job: job, limit: 10)
            #expect(problems.map(\.line) == [5] && problems.first?.file == "diary.csv" && problems.first?.step == "read")
            #expect(problems.first?.reason == "“7” is not a rating from ½ to 5 stars.")

            // The report names every row: what became of it, and how its title was found.
            let report = try await #require(try await app.services.imports.report(profile: profile, job: job.id)).csv()
            #expect(report.hasPrefix("Row,File,Line,Title,Year,Result,Step,Why,Matched as,Kind,Id,Found by\r\n"))
            #expect(report.split(separator: "\r\n").count == 10)
            #expect(report.contains("diary.csv,2,Midsommar,2019,landed,match,,Midsommar,movie,1476006349,title and year in PopcornSwirl’s catalogue"))
            #expect(report.contains("diary.csv,5,,,failed,read,“7” is not a rating from ½ to 5 stars."))
            #expect(try await app.services.imports.report(profile: UUID(), job: job.id)?.job == nil, "another person's report is nobody's")
        }
    }

    @Test("importing the same file again adds nothing and asks no upstream")
    func idempotent() async throws {
        try await TestApp.with { app in
            let (profile, _) = try await app.signedIn("ana")
            _ = try await Self.run(app, profile, try Self.letterboxdZIP(), "export.zip")
            let calls = app.upstream.calls()
            let diaryBefore = try await app.services.diary.page(profile: profile, page: 1).total
            let again = try await Self.run(app, profile, try Self.letterboxdZIP(), "export.zip")
            #expect(app.upstream.calls() == calls, "every title came from the resolutions kept")
            #expect(again.landed == 0 && again.skipped == 7 && again.queued == 1 && again.failed == 1)
            #expect(try await app.services.diary.page(profile: profile, page: 1).total == diaryBefore)
            #expect(try await app.services.customLists.lists(profile: profile).count == 1, "the named list; the watchlist is Favorites")
        }
    }

    @Test("a queued row is resolved by a choice (remembered for the next import) or kept as it is")
    func needsAMatch() async throws {
        try await TestApp.with { app in
            let (profile, _) = try await app.signedIn("ana")
            let imports = app.services.imports
            let job = try await Self.run(app, profile, try Self.letterboxdZIP(), "export.zip")
            let row = try #require(try await imports.queue(profile: profile, job: job, page: 1).first)
            #expect(try await imports.choose(profile: UUID(), job: job.id, number: row.number, kind: .movie, id: 2001) == .notWaiting)
            #expect(try await imports.choose(profile: profile, job: job.id, number: row.number, kind: .movie, id: 2001) == .done(.landed))
            #expect(try await imports.choose(profile: profile, job: job.id, number: row.number, kind: .movie, id: 2001) == .notWaiting)
            let watches = try await app.services.diary.watches(profile: profile, kind: .movie, itemID: "2001")
            #expect(watches.map(\.day) == ["2024-02-28"] && watches.first?.rating == 6)
            let after = try #require(try await imports.latest(profile: profile))
            #expect(after.queued == 0 && after.landed == 8)
            let candidates = await imports.candidates(for: "spider")
            #expect(candidates.contains(TitleCandidate(kind: .movie, id: Self.films.spider, title: "Spider", year: 2003)))

            let again = try await Self.run(app, profile, try Self.letterboxdZIP(), "export.zip")
            #expect(again.queued == 0 && again.skipped == 8, "the choice is taken for the same title")
            let chosen = try await app.services.imports.report(profile: profile, job: again.id)?.csv() ?? ""
            #expect(chosen.contains("Nowhere Film,1999,skipped,match,Already in your lists.,Last Year's Hit,movie,2001,chosen by you"))

            // A choice is the chooser's: another person's import of the same file still asks them.
            let (third, _) = try await app.signedIn("cy")
            let cysImport = try await Self.run(app, third, try Self.letterboxdZIP(), "export.zip")
            #expect(cysImport.queued == 1 && cysImport.landed == 7, "another person's choice decides nothing for them")

            // A fresh person keeps theirs as it is.
            let (other, _) = try await app.signedIn("bo")
            let zip = try ImportReaderTests.zip([
                (
                    "diary.csv",
                    Data("Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date\n2024-03-01,Elsewhere,1999,u,3,,,2024-02-28\n".utf8)
                )
            ])
            let theirs = try await Self.run(app, other, zip, "x.zip")
            let waiting = try #require(try await imports.queue(profile: other, job: theirs, page: 1).first)
            #expect(try await imports.keep(profile: profile, job: theirs.id, number: waiting.number) == .notWaiting)
            #expect(try await imports.keep(profile: other, job: theirs.id, number: waiting.number) == .done(.kept))
            let kept = try #require(try await imports.latest(profile: other))
            #expect(kept.queued == 0 && kept.skipped == 1 && kept.percent == 100)
        }
    }

    @Test("one import per person at a time; a cancelled one stops where it was and frees the way")
    func oneAtATimeAndCancel() async throws {
        try await TestApp.with { app in
            let (profile, _) = try await app.signedIn("ana")
            let imports = app.services.imports
            guard case .started(let job) = try await imports.start(profile: profile, data: try Self.letterboxdZIP(), fileName: "a.zip") else {
                Issue.record("not started")
                return
            }
            #expect(try await imports.start(profile: profile, data: try Self.letterboxdZIP(), fileName: "b.zip") == .busy)
            let (other, _) = try await app.signedIn("bo")
            guard case .started = try await imports.start(profile: other, data: try Self.letterboxdZIP(), fileName: "c.zip") else {
                Issue.record("another person waits for nobody")
                return
            }
            #expect(try await imports.cancel(profile: profile))
            let cancelled = try #require(try await imports.latest(profile: profile))
            #expect(cancelled.id == job.id && cancelled.state == .cancelled && cancelled.pending == 0)
            #expect(cancelled.cancelledRows == job.pending, "the rows it never reached are counted, and deleted")
            #expect(try await imports.store.records(job: job.id, states: [.pending], limit: 100).isEmpty)
            #expect(try await app.services.library.list(profile: profile, list: .all, page: 1).total == 0, "nothing landed")
            #expect(try await imports.runNext(owner: "w"), "the other person's import runs")
            #expect(try await imports.latest(profile: profile)?.state == .cancelled)
            guard case .started = try await imports.start(profile: profile, data: try Self.letterboxdZIP(), fileName: "b.zip") else {
                Issue.record("a cancelled import blocks the next")
                return
            }
        }
    }

    @Test("bad input changes nothing: a file that is no export leaves no job")
    func badInput() async throws {
        try await TestApp.with { app in
            let (profile, _) = try await app.signedIn("ana")
            for (data, name) in [(Data("Title,Artist\nHeat,Moby\n".utf8), "songs.csv"), (Data([0x50, 0x4B, 0x03, 0x04, 0x01]), "x.zip")] {
                await #expect(throws: ImportRefused.self) { _ = try await app.services.imports.start(profile: profile, data: data, fileName: name) }
            }
            #expect(try await app.services.imports.latest(profile: profile) == nil)
            let rows = try await app.services.database.sql.raw("SELECT COUNT(*) AS n FROM import_rows").first(decodingColumn: "n", as: Int.self)
            #expect(rows == 0)
        }
    }

    /// Trakt's export as it comes (newest first): Girls' episodes watched, with their moments; Rent
    /// twice one evening; a special under season 0; an episode TVMaze does not list; a rating of
    /// the pilot.
    static func traktZIP() throws -> Data {
        let girls =
            #""show":{"title":"Girls","year":2012,"ids":{"trakt":1,"slug":"girls","tvdb":220411,"imdb":"tt1723816","tmdb":42282,"tvrage":null}}"#
        func watch(_ id: Int, _ at: String, _ season: Int, _ number: Int, _ title: String) -> String {
            #"{"id":\#(id),"watched_at":"\#(at)","action":"scrobble","type":"episode","episode":{"season":\#(season),"number":\#(number),"title":"\#(title)","ids":{"trakt":\#(id + 100),"tvdb":null,"imdb":null,"tmdb":null,"tvrage":null}},\#(girls)}"#
        }
        let history = [
            watch(6, "2024-01-07T19:00:00.000Z", 9, 1, "Never Made"),
            watch(5, "2024-01-06T19:00:00.000Z", 0, 1, "Girls: Inside the Series"),
            watch(4, "2024-01-05T22:00:00.000Z", 1, 3, "Open Mic"),
            watch(3, "2024-01-04T21:30:00.000Z", 1, 2, "Rent"),
            watch(2, "2024-01-04T20:00:00.000Z", 1, 2, "Rent"),
            watch(1, "2024-01-03T20:00:00.000Z", 1, 1, "Pilot"),
        ]
        let rating =
            #"{"rated_at":"2024-01-03T21:00:00.000Z","rating":8,"type":"episode","episode":{"season":1,"number":1,"title":"Pilot","ids":{"trakt":101}},\#(girls)}"#
        return try ImportReaderTests.zip([
            ("watched-history.json", Data("[\(history.joined(separator: ","))]".utf8)), ("ratings-episodes.json", Data("[\(rating)]".utf8)),
        ])
    }

    @Test(
        "Trakt's episode history lands as each episode's watch on its day (a special by its name, a rating on its episode); one TVMaze does not list is reported; the same file again adds nothing"
    )
    func traktEpisodes() async throws {
        try await TestApp.with { app in
            let (profile, _) = try await app.signedIn("ana")
            guard case .found(let girls, _) = await app.services.shows.show(id: 139) else { throw Unexpected("no Girls") }
            // Open Mic was marked watched on no known day: the import gives it its day.
            _ = try #require(await app.services.episodeCatalog.prepare(showID: 139))
            try await app.services.episodes.watch(profile: profile, show: girls, episodeID: 12303, on: .unknown)

            let job = try await Self.run(app, profile, try Self.traktZIP(), "trakt-export.zip")
            #expect(job.state == .done && job.source == .trakt)
            #expect(job.landed == 6 && job.failed == 1 && job.queued == 0)
            let held = try #require(await app.services.episodeCatalog.prepare(showID: 139))
            let listed = try await app.services.episodes.show(girls, held: held, profile: profile)
            var states: [Int: EpisodeState] = [:]
            for tracked in listed.seasons.flatMap(\.episodes) + listed.specials { states[tracked.episode.id] = tracked.state }
            #expect(states[12301]?.datedWatches == 1 && states[12301]?.rating == 8)
            #expect(states[12302]?.datedWatches == 2, "Rent twice that evening: two watches")
            #expect(states[12303]?.datedWatches == 1 && states[12303]?.undatedWatches == 0, "the watch on no known day now has its day")
            #expect(states[1_512_344]?.datedWatches == 1, "season 0's special found by its name")
            #expect(listed.progress.next?.id == 12304 && listed.progress.watched == 3)

            let diary = try await app.services.diary.page(profile: profile, page: 1)
            #expect(diary.watches.compactMap(\.episode?.code).sorted() == ["S01E01", "S01E02", "S01E02", "S01E03", "S01 special"].sorted())
            #expect(Set(diary.watches.filter { $0.episode?.id == 12302 }.map(\.day)) == ["2024-01-04"])
            #expect(try await app.services.diary.watches(profile: profile, kind: .show, itemID: "139").isEmpty, "no watch of the whole show")
            let upNext = try #require(try await app.services.episodes.upNext(profile: profile).first)
            #expect(upNext.showID == 139 && upNext.next?.id == 12304)
            #expect(upNext.lastWatchedAt == app.clock.now(), "Open Mic marked today is later than any imported watch: they do not move it back")

            let report = try await #require(try await app.services.imports.report(profile: profile, job: job.id)).csv()
            #expect(report.contains("S01E02 “Rent”"))
            #expect(report.contains("failed,episode,TVMaze lists no S09E01 “Never Made” of “Girls”"))

            // Again: every watch is there already, and no upstream is asked.
            let calls = app.upstream.calls()
            let again = try await Self.run(app, profile, try Self.traktZIP(), "trakt-export.zip")
            #expect(again.landed == 0 && again.skipped == 6 && again.failed == 1)
            #expect(app.upstream.calls() == calls)
            #expect(try await app.services.diary.page(profile: profile, page: 1).total == diary.total)
        }
    }

    @Test("while TVMaze can't give a show's episodes, its rows wait and land once it can")
    func traktEpisodesWait() async throws {
        try await TestApp.with { app in
            let (profile, _) = try await app.signedIn("ana")
            app.upstream.respond { url throws(UpstreamError) in
                // The show is found; its episode lists are not to be had.
                if url.host == "tvmaze.test", url.query?.contains("embed") == true || url.path.hasSuffix("/episodes") {
                    return UpstreamResponse(status: 503, body: Data())
                }
                return try Fixtures.itunesAnswer(for: url)
            }
            guard case .started(let job) = try await app.services.imports.start(profile: profile, data: try Self.traktZIP(), fileName: "t.zip")
            else { throw Unexpected("busy") }
            #expect(try await app.services.imports.runNext(owner: "w"))
            let waiting = try #require(try await app.services.imports.latest(profile: profile))
            #expect(waiting.state.isActive && waiting.landed == 0 && waiting.failed == 0)
            #expect(waiting.message == "Waiting for TVMaze’s list of the episodes of “Girls”.")
            app.upstream.respond { url throws(UpstreamError) in try Fixtures.itunesAnswer(for: url) }
            app.clock.advance(120)
            let done = try await app.services.imports.drain(job: job.id, owner: "w", progress: { _ in })
            #expect(done.state == .done && done.landed == 6 && done.failed == 1)
            let upNext = try #require(try await app.services.episodes.upNext(profile: profile).first)
            #expect(upNext.lastWatchedAt == (try Date("2024-01-06T19:00:00Z", strategy: .iso8601)), "the latest watch's moment, as Trakt kept it")
        }
    }
}
