import Foundation
import SQLKit
import Testing

@testable import App

/// Imports through faults: a server that stops, an upstream allowance spent; and the progress
/// the page shows.
@Suite("Import jobs: recovery and progress")
struct ImportRecoveryTests {
    @Test("a server that stops mid-import leaves its lease to run out; another takes the job up at the next row")
    func resumes() async throws {
        try await TestApp.with { app in
            let (profile, _) = try await app.signedIn("ana")
            let store = app.services.imports.store
            guard
                case .started(let job) = try await app.services.imports.start(
                    profile: profile, data: try ImportJobTests.letterboxdZIP(), fileName: "a.zip")
            else { return }
            // Server A takes it, settles one row, and stops.
            let held = try #require(try await store.claim(owner: "A"))
            let first = try #require(try await store.pending(job: held.id, limit: 1).first)
            try await store.settle(job: job.id, number: first.number, from: .pending, RowSettlement(state: .queued, step: "match", reason: "test"))
            #expect(try await store.claim(owner: "B") == nil, "held while its lease lasts")
            let twice = try await store.settle(
                job: job.id, number: first.number, from: .pending, RowSettlement(state: .failed, step: "match", reason: "second"))
            #expect(!twice, "a row settled once is not settled again")
            let counted = try #require(try await store.job(job.id))
            #expect(counted.pending == job.pending - 1 && counted.queued == 1 && counted.failed == job.failed, "the counts moved once")
            app.clock.advance(ImportStore.lease + 1)
            #expect(try await store.renew(job: job.id, owner: "A"), "A's lease lapsed, but nobody took it yet")
            app.clock.advance(ImportStore.lease + 1)
            let taken = try #require(try await store.claim(owner: "B"))
            #expect(taken.pending == job.pending - 1 && taken.runStartedPending == taken.pending)
            #expect(try await store.renew(job: job.id, owner: "A") == false, "A may not go on once B has it")
            try await app.services.imports.run(taken, owner: "B")
            let done = try #require(try await store.job(job.id))
            #expect(done.state == .done && done.percent == 100 && done.processed == done.total)
            #expect(try await store.record(job: job.id, number: first.number)?.reason == "test", "the settled row was not done again")
        }
    }

    @Test("when iTunes refuses for its allowance, the job waits, says so, and goes on later")
    func waitsForTheAllowance() async throws {
        // Nothing received before: every row needs iTunes.
        try await TestApp.with(indexed: false) { app in
            let (profile, _) = try await app.signedIn("ana")
            app.upstream.fail(host: "itunes.test") { _ throws(UpstreamError) in UpstreamResponse(status: 403, body: Data()) }
            guard
                case .started(let job) = try await app.services.imports.start(
                    profile: profile, data: try ImportJobTests.letterboxdZIP(), fileName: "a.zip")
            else { return }
            #expect(try await app.services.imports.runNext(owner: "w"))
            let waiting = try #require(try await app.services.imports.latest(profile: profile))
            #expect(waiting.state == .running && waiting.pending == job.pending && waiting.message == "Waiting for iTunes’s allowance of calls.")
            #expect(try await app.services.imports.runNext(owner: "w") == false, "not before its time")
            app.upstream.respond { url throws(UpstreamError) in try Fixtures.itunesAnswer(for: url) }
            app.clock.advance(Double(TitleMatcher.waitAfterRefusal) + 60)
            #expect(try await app.services.imports.runNext(owner: "w"))
            let done = try #require(try await app.services.imports.latest(profile: profile))
            #expect(done.state == .done && done.landed == 7 && done.message == nil)
        }
    }

    @Test("an import's calls count against its person's share of iTunes, in the database: past it the job waits its turn")
    func personsShare() async throws {
        try await TestApp.with(configure: { $0.shares.itunesPerMinute = 4 }, indexed: false) { app in
            let (profile, _) = try await app.signedIn("ana")
            let titles = [
                "Spider-Man: Into the Spider-Verse,2018", "Spider,2003", "Midsommar,2019", "Amélie,2001", "Nowhere A,2000", "Nowhere B,2000",
                "Nowhere C,2000",
            ]
            let csv = "Date,Name,Year,Letterboxd URI\n" + titles.map { "2024-01-01,\($0),https://boxd.it/x\n" }.joined()
            guard case .started = try await app.services.imports.start(profile: profile, data: Data(csv.utf8), fileName: "watched.csv") else {
                Issue.record("not started")
                return
            }
            #expect(try await app.services.imports.runNext(owner: "w"))
            let waiting = try #require(try await app.services.imports.latest(profile: profile))
            let share = 4
            #expect(waiting.state == .running && waiting.pending == titles.count - share)
            #expect(waiting.message == "Waiting for your share of iTunes’s allowance of calls.")
            #expect(app.upstream.requested(host: "itunes.test").count == share)
            let counted = try await app.services.database.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
                .from("upstream_shares").where("client", .equal, SQLBind("account:\(profile.uuidString)")).first()?.decode(column: "n", as: Int.self)
            #expect(counted == share, "counted for every server to see")
            app.clock.advance(61)
            #expect(try await app.services.imports.runNext(owner: "w"))
            let done = try #require(try await app.services.imports.latest(profile: profile))
            #expect(done.state == .done && done.landed == 4 && done.queued == 3)
        }
    }

    @Test("IMDb rows: a show by its IMDb id on TVMaze, a film by its IMDb id through OMDb, one iTunes lacks kept by its IMDb id")
    func imdbAndShows() async throws {
        try await TestApp.with(configure: { $0.omdbAPIKey = Fixtures.omdbKey }) { app in
            let (profile, cookie) = try await app.signedIn("ana")
            let csv = """
                Const,Your Rating,Date Rated,Title,URL,Title Type,IMDb Rating,Runtime (mins),Year,Genres,Num Votes,Release Date,Directors
                tt1723816,8,2024-01-02,Girls,u,TV Series,7.3,30,2012,Comedy,1,2012-04-15,
                tt4633694,10,2024-01-03,Spider-Man: A New Universe,u,movie,8.4,117,2018,Animation,1,2018-12-14,
                tt0133093,9,2024-01-04,Matrix,u,movie,8.7,136,1999,Action,1,1999-03-31,

                """
            let job = try await ImportJobTests.run(app, profile, Data(csv.utf8), "ratings.csv")
            #expect(job.source == .imdb && job.landed == 3 && job.skipped == 0 && job.queued == 0, "\(job)")
            // The film iTunes lacks lands under its IMDb id, with what OMDb says of it.
            let keptID = try #require(KeptFilms.id(imdb: "tt0133093"))
            #expect(keptID == 90_000_133_093 && KeptFilms.imdbID(of: keptID) == "tt0133093")
            #expect(KeptFilms.id(imdb: "tt12345678") == 90_012_345_678 && KeptFilms.id(imdb: "tt133093") == nil, "IMDb writes seven digits or more")
            #expect(KeptFilms.imdbID(of: 284_910_350) == nil, "an iTunes id is not a kept one")
            let kept = try #require(try await app.services.library.item(profile: profile, movieID: keptID))
            #expect(kept.rating == 9 && kept.title == "The Matrix")
            let record = try #require(
                try await app.services.imports.store.records(job: job.id, states: [.landed], limit: 5).first { $0.matchTitle == "The Matrix" })
            #expect(record.matchHow == ImportService.keptHow && record.matchID == String(keptID))
            #expect(record.reason == "Not on iTunes: kept with its IMDb id tt0133093, as OMDb knows it: “The Matrix” (1999).")
            #expect(try await app.services.library.item(profile: profile, movieID: 139, kind: .show)?.rating == 8)
            #expect(try await app.services.library.item(profile: profile, movieID: ImportJobTests.films.spiderVerse)?.rating == 10)
            let report = try await app.services.imports.report(profile: profile, job: job.id)?.csv() ?? ""
            #expect(report.contains("IMDb id on TVMaze") && report.contains("IMDb id via OMDb, then title and year in PopcornSwirl’s catalogue"))
            #expect(report.contains(ImportService.keptHow))

            // Its page opens from what was kept, marked as not on iTunes, without asking iTunes.
            let itunesCalls = app.upstream.requested(host: "itunes.test").count
            try await app.test { client in
                let page = try await client.get("/movies/\(keptID)", cookie: cookie)
                #expect(page.status == .ok)
                #expect(page.text.contains("The Matrix") && page.text.contains("Lana Wachowski") && page.text.contains("2 h 16 min"))
                #expect(page.text.contains("Not on iTunes — kept from an import by its IMDb id"))
                // An id in the kept range that no import kept is not found.
                let unknown = try await client.get("/movies/\(KeptFilms.keptIDBase + 1_234_567)", cookie: cookie)
                #expect(unknown.status == .notFound)
                // A watch of it is logged from its page like any film's; a Letterboxd export names it by its IMDb id.
                let logged = try await client.postForm("/library/movies/\(keptID)/watches", [("day", "2024-05-01")], cookie: cookie)
                #expect(logged.status == .seeOther)
                let export = try await client.get("/export/letterboxd.csv", cookie: cookie).text
                #expect(export.contains("The Matrix,1999,tt0133093,2024-05-01,9,false"))
            }
            #expect(app.upstream.requested(host: "itunes.test").count == itunesCalls, "a kept film is never asked of iTunes")
        }
    }

    @Test("a show is found by TVMaze's lookup of its IMDb or TheTVDB id, whatever the row calls it; an id TVMaze lacks falls back to the name")
    func showLookups() async throws {
        try await TestApp.with { app in
            let (profile, _) = try await app.signedIn("ana")
            let matcher = app.services.imports.matcher
            let girls = try #require(await Self.show(app, 139))
            let wonderEgg = try #require(await Self.show(app, 52491))
            let pokemon = try #require(await Self.show(app, 590))
            var byIMDb = ImportRow(file: "watched-history.json", line: 1, kind: .show, title: "Les Filles", year: 2012)
            byIMDb.imdbID = "tt1723816"
            #expect(try await matcher.resolve(byIMDb, profile: profile) == .found(.show(girls), how: "IMDb id on TVMaze"))
            var byTVDB = ImportRow(file: "watched-history.json", line: 2, kind: .show, title: "ワンダーエッグ・プライオリティ", year: 2021)
            byTVDB.tvdbID = 390_028
            #expect(try await matcher.resolve(byTVDB, profile: profile) == .found(.show(wonderEgg), how: "TheTVDB id on TVMaze"))
            var unknown = ImportRow(file: "watched-history.json", line: 3, kind: .show, title: "Pokémon", year: 1997)
            unknown.tvdbID = 1
            let byName = try await matcher.resolve(unknown, profile: profile)
            #expect(byName == .found(.show(pokemon), how: "title and year on TVMaze"))
            let asked = app.upstream.requested(host: "tvmaze.test").map { "\($0.path)?\($0.query ?? "")" }
            #expect(asked.contains("/lookup/shows?imdb=tt1723816") && asked.contains("/lookup/shows?thetvdb=390028"))
            #expect(asked.contains("/lookup/shows?thetvdb=1"))
            #expect(!asked.contains { $0.hasPrefix("/search/shows?q=Les") }, "no name search once the id answered")
        }
    }

    static func show(_ app: TestApp, _ id: Int) async -> Show? {
        if case .found(let show, _) = await app.services.shows.show(id: id) { return show }
        return nil
    }

    @Test("an iTunes answer about one title (a 400, a body that is not JSON) queues that row; the job goes on")
    func titleRefusals() async throws {
        try await TestApp.with(indexed: false) { app in
            let (profile, _) = try await app.signedIn("ana")
            app.upstream.fail(host: "itunes.test") { url throws(UpstreamError) in
                if url.query?.contains("Midsommar") == true { return UpstreamResponse(status: 400, body: Data("{}".utf8)) }
                return try Fixtures.itunesAnswer(for: url)
            }
            let job = try await ImportJobTests.run(app, profile, try ImportJobTests.letterboxdZIP(), "a.zip")
            #expect(job.state == .done && job.queued == 1 + 3, "the three Midsommar rows wait for a person, with the unknown film")
            let waiting = try await app.services.imports.queue(profile: profile, job: job, page: 1)
            #expect(waiting.contains { $0.reason == "iTunes refused the search for this title (status 400)." })
        }
    }

    @Test("a ZIP member's long path is kept as its folder and name; texts are held to their limits")
    func bounded() {
        var row = ImportRow(file: String(repeating: "deep/", count: 5000) + "lists/diary.csv", line: 2, title: String(repeating: "T", count: 9000))
        row.imdbID = "tt123; DROP"
        row.tags = Array(repeating: String(repeating: "x", count: 500), count: 80)
        let kept = row.bounded()
        #expect(kept.file == "lists/diary.csv" && kept.title.count == 500 && kept.imdbID == nil)
        #expect(kept.tags.count == 50 && kept.tags.allSatisfy { $0.count == 100 })
    }

    @Test("the server's own worker takes up an uploaded import and finishes it")
    func workerRuns() async throws {
        try await TestApp.with(configure: { $0.importWorker = true }) { app in
            try await app.test { client in
                let (profile, cookie) = try await app.signedIn("ana")
                let uploaded = try await ImportPageTests.upload(client, try ImportJobTests.letterboxdZIP(), name: "a.zip", cookie: cookie)
                #expect(uploaded.status == .seeOther)
                var job = try await app.services.imports.latest(profile: profile)
                for _ in 0..<100 where job?.state != .done {
                    try await Task.sleep(for: .milliseconds(100))
                    job = try await app.services.imports.latest(profile: profile)
                }
                #expect(job?.state == .done && job?.landed == 7 && job?.queued == 1)
            }
        }
    }

    @Test("progress never passes 100 %, and the estimate reads as a person would say it")
    func progress() {
        var job = ImportJob(
            id: UUID(), profileID: UUID(), source: .letterboxd, fileName: "x", state: .running, total: 200, pending: 150, landed: 50, queued: 0,
            failed: 0, skipped: 0, createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0),
            runStartedAt: Date(timeIntervalSince1970: 0), runStartedPending: 200)
        #expect(job.percent == 25 && job.processed == 50)
        #expect(job.secondsLeft(at: Date(timeIntervalSince1970: 100)) == 300)
        #expect(ImportJob.estimateText(300) == "about 5 minutes left" && ImportJob.estimateText(20) == "less than a minute left")
        #expect(ImportJob.estimateText(3 * 3600) == "about 3 hours left")
        job.pending = -5
        #expect(job.percent == 100)
        job.total = 0
        #expect(job.percent == 100 && job.secondsLeft(at: Date()) == nil)
    }
}
