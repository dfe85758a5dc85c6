import Foundation
import HTTPTypes
import HummingbirdTesting
import SQLKit
import Testing

@testable import App

/// Every screen says what happened, in one voice: one diary (a note is the same on the film's
/// page, the diary and the watch's form), remove dialogs that say exactly what goes, the words
/// and empty states, who is signed in, and a confirmation after each form.
@Suite("Every screen says what happened")
struct EveryScreenSaysTests {
    /// The `<textarea id="…">` of a page, as a person sees it in the field.
    static func textarea(_ html: String, id: String) -> String? {
        guard let open = html.range(of: #"<textarea id="\#(id)""#), let start = html[open.upperBound...].firstIndex(of: ">"),
            let end = html[start...].range(of: "</textarea>")
        else { return nil }
        return String(html[html.index(after: start)..<end.lowerBound])
    }

    /// The diary notes a page shows, in order.
    static func diaryNotes(_ html: String) -> [String] {
        html.components(separatedBy: #"<p class="diary-note">"#).dropFirst().map { String($0.prefix { $0 != "<" }) }
    }

    /// The first link to a watch's edit form on a page.
    static func editLink(_ html: String) throws -> String {
        let start = try #require(html.range(of: #"href="/diary/"#))
        let path = html[html.index(start.lowerBound, offsetBy: 6)...].prefix { $0 != "\"" }
        return String(path).replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test("the note written after Watched is the watch's note on the film's page, /diary and the watch's form; editing either edits both")
    func oneNote() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let marked = try await client.postForm("/library/movies/1001", [("watched", "1")])
                let cookie = try #require(marked.sessionCookie)
                _ = try await client.postForm("/library/movies/1001", [("note", "Loved the ending")], cookie: cookie)

                let diary = try await client.get("/diary", cookie: cookie).text
                #expect(Self.diaryNotes(diary) == ["Loved the ending"], "the diary shows the watch's note")
                let form = try await client.get(try Self.editLink(diary), cookie: cookie).text
                #expect(Self.textarea(form, id: "watch-note") == "Loved the ending", "the watch's form opens with it")

                // Edited in the watch's form: the film's own note follows.
                let edit = try Self.editLink(diary)
                let id = String(edit.dropFirst("/diary/".count).prefix(36))
                let saved = try await client.postForm("/diary/\(id)", [("note", "Better on reflection"), ("return_to", "/diary")], cookie: cookie)
                #expect(saved.status == .seeOther)
                let film = try await client.get("/movies/1001", cookie: cookie).text
                #expect(Self.textarea(film, id: "note-text") == "Better on reflection")
                #expect(Self.diaryNotes(film) == ["Better on reflection"])

                // The rating too: rated on the film's page, the watch has it; changed on the watch, the film follows.
                _ = try await client.postForm("/library/movies/1001", [("rating", "8")], cookie: cookie)
                #expect(try await client.get("/diary", cookie: cookie).text.contains("Rated 4 stars"))
                _ = try await client.postForm("/diary/\(id)", [("rating", "5"), ("note", "Better on reflection")], cookie: cookie)
                let profile = try await app.profile(cookie)
                #expect(try await app.services.library.item(profile: profile, movieID: 1001)?.rating == 5)
            }
        }
    }

    @Test("a watch without a note of its own shows none, even on a page whose film has a note; a rewatch's own note is kept")
    func noBorrowedNote() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let marked = try await client.postForm("/library/movies/1001", [("watched", "1")])
                let cookie = try #require(marked.sessionCookie)
                _ = try await client.postForm("/library/movies/1001", [("note", "First thoughts")], cookie: cookie)
                // An earlier watch, logged without a note: before, it showed the film's note on the film's page alone.
                _ = try await client.postForm("/library/movies/1001/watches", [("day", "2024-02-29")], cookie: cookie)
                let today = app.clock.now().formatted(.iso8601.year().month().day())
                _ = try await client.postForm("/library/movies/1001/watches", [("day", today), ("note", "My own words")], cookie: cookie)
                _ = try await client.postForm("/library/movies/1001", [("note", "Changed my mind")], cookie: cookie)

                let film = try await client.get("/movies/1001", cookie: cookie).text
                #expect(Self.diaryNotes(film) == ["My own words", "First thoughts"], "newest first; the 2024 watch has no note")
                #expect(Self.textarea(film, id: "note-text") == "Changed my mind")
                #expect(Self.diaryNotes(try await client.get("/diary", cookie: cookie).text) == ["My own words", "First thoughts"])
            }
        }
    }

    @Test("Letterboxd's watched.csv: a dated film is a watch in the diary and the statistics, once; a film the diary has keeps its watches")
    func watchedDates() async throws {
        try await TestApp.with { app in
            let (profile, _) = try await app.signedIn("ana")
            func importing(_ name: String, _ csv: String) async throws {
                guard case .started = try await app.services.imports.start(profile: profile, data: Data(csv.utf8), fileName: name) else {
                    Issue.record("not started")
                    return
                }
                let job = try #require(try await app.services.imports.latest(profile: profile))
                _ = try await app.services.imports.drain(job: job.id, owner: "test", progress: { _ in })
            }
            try await importing(
                "diary.csv",
                "Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date\n2024-05-02,Midsommar,2019,https://boxd.it/a,4,,,2024-05-01\n")
            let watched = "Date,Name,Year,Letterboxd URI\n2024-06-01,Midsommar,2019,https://boxd.it/m\n2024-06-02,Amélie,2001,https://boxd.it/b\n"
            try await importing("watched.csv", watched)

            let diary = try await app.services.diary.page(profile: profile, page: 1)
            #expect(diary.watches.map { "\($0.title) \($0.day)" } == ["Amélie 2024-06-02", "Midsommar 2024-05-01"])
            let stats = try await app.services.statistics.statistics(profile: profile, year: nil)
            #expect(stats.films == 2 && stats.titles == 2 && stats.undatedWatched == 0)

            try await importing("watched.csv", watched)
            #expect(try await app.services.diary.page(profile: profile, page: 1).total == 2, "a second import adds nothing")
        }
    }

    @Test("the statistics say how many Watched films the diary has no day for")
    func undatedWatched() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let (profile, cookie) = try await app.signedIn("ana")
                _ = try await client.postForm("/library/movies/1001", [("watched", "1")], cookie: cookie)
                _ = try await client.postForm("/library/movies/1002", [("watched", "1")], cookie: cookie)
                let watch = try #require(try await app.services.diary.page(profile: profile, page: 1).watches.first)
                #expect(try await app.services.diary.delete(profile: profile, id: watch.id))
                let page = try await client.get("/stats", cookie: cookie).text
                #expect(page.contains("1 film marked Watched has no day in the diary, so it is not counted here."))
                #expect(page.contains("<strong>1</strong> film<"))
            }
        }
    }

    @Test("the remove dialog says exactly what goes: the lists, the note and the rating when there are some, and that the diary stays")
    func removeText() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let (_, cookie) = try await app.signedIn("ana")
                _ = try await client.postForm("/library/movies/1001", [("favorite", "1")], cookie: cookie)
                let favorites = try await client.get(Route.libraryList(.favorites), cookie: cookie).text
                #expect(
                    favorites.contains("” leaves your Favorites.\"") && !favorites.contains("” leaves your Favorites, with"),
                    "a favorite without a note or a rating")

                _ = try await client.postForm("/library/movies/1001", [("watched", "1")], cookie: cookie)
                _ = try await client.postForm("/library/movies/1001", [("note", "Good"), ("rating", "8")], cookie: cookie)
                let film = try await client.get("/movies/1001", cookie: cookie).text
                #expect(
                    film.contains("leaves your Favorites and Watched lists, with your note and your rating (4 stars). Your diary isn’t changed."))
                let confirm = try await client.get(Route.removeMovieConfirmation(1001, returnTo: "/library"), cookie: cookie).text
                #expect(
                    confirm.contains("leaves your Favorites and Watched lists, with your note and your rating (4 stars). Your diary isn’t changed."))

                let answer = try await client.postForm("/library/movies/1001", [("rating", "0")], cookie: cookie, json: true)
                #expect(answer.text.contains(#"with your note. Your diary isn’t changed.""#), "the JSON answer words the dialog anew")
                #expect(answer.text.contains(#""said":"“"#) && answer.text.contains("rating cleared."))
            }
        }
    }

    @Test("deleting a watch says the title stays in the lists only while it is in them")
    func diaryDeleteText() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let (_, cookie) = try await app.signedIn("ana")
                _ = try await client.postForm("/library/movies/1001", [("watched", "1")], cookie: cookie)
                #expect(try await client.get("/diary", cookie: cookie).text.contains("leaves the diary. The title stays in your lists."))
                _ = try await client.postForm("/library/movies/1001/remove", [], cookie: cookie)
                let diary = try await client.get("/diary", cookie: cookie).text
                #expect(diary.contains("leaves the diary.\"") && !diary.contains("stays in your lists"))
            }
        }
    }

    @Test("My Lists → TV without shows says so (not 'Browse Movies'); a film in both lists has no Move to Watched")
    func emptyTVAndMoves() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let (_, cookie) = try await app.signedIn("ana")
                _ = try await client.postForm("/library/movies/1001", [("favorite", "1"), ("watched", "1")], cookie: cookie)
                _ = try await client.postForm("/library/movies/1002", [("favorite", "1")], cookie: cookie)
                let tv = try await client.get(Route.libraryList(.all, kind: .show), cookie: cookie).text
                #expect(tv.contains("No TV shows saved yet. Open TV Shows and tap Favorite on a show to keep it here."))
                #expect(!tv.contains("Browse Movies"))
                let favorites = try await client.get(Route.libraryList(.favorites), cookie: cookie).text
                #expect(favorites.components(separatedBy: "Move to Watched</button>").count - 1 == 1, "only the film not watched yet")
            }
        }
    }

    @Test("the header names who is signed in, and a page kept for them is never shown to a visitor")
    func whoAmI() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let (_, cookie) = try await app.signedIn("ana")
                for path in ["/movies/1001", "/", "/diary", "/search"] {
                    let page = try await client.get(path, cookie: cookie).text
                    #expect(page.contains(#"<span class="sr-only">Signed in as </span>ana</a>"#), "\(path)")
                }
                let visitor = try await client.get("/movies/1001").text
                #expect(visitor.contains(">Sign in</a>") && !visitor.contains("Signed in as"))
                let other = try await app.signedIn("bob")
                #expect(try await client.get("/movies/1001", cookie: other.cookie).text.contains("Signed in as </span>bob</a>"))
            }
        }
    }

    @Test("a form answered with a redirect leaves what it did for the next page to say")
    func confirmations() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let (_, cookie) = try await app.signedIn("ana")
                let logged = try await client.postForm("/library/movies/1001/watches", [("day", "2024-02-29")], cookie: cookie)
                let done = try #require(logged.headers[values: .setCookie].first { $0.hasPrefix(CookieJar.done + "=") })
                let text = try #require(done.dropFirst(CookieJar.done.count + 1).prefix { $0 != ";" }.removingPercentEncoding)
                #expect(text.hasSuffix("watch on 29 February 2024 logged in your diary."), "\(text)")
                #expect(!done.contains("HttpOnly") && done.contains("Max-Age=60"))
                let saved = try await client.postForm("/library/movies/1001", [("favorite", "1")], cookie: cookie)
                #expect(saved.headers[values: .setCookie].contains { $0.hasPrefix(CookieJar.done + "=") && $0.contains("Favorites") })
            }
        }
    }

    @Test("words: a 404 without its own message is a sentence, not 'Not Found' again; counts agree with their nouns")
    func words() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let missing = try await client.get("/no-such-page").text
                #expect(missing.contains("There is nothing at this address.") && !missing.contains("<p>Not Found</p>"))
                let show = try await client.get("/shows/99999998").text
                #expect(!show.contains("99999998") || !show.contains("TVMaze has no show"))
            }
        }
        let stats = WatchStatistics(
            year: 2026, films: 1, shows: 1, titles: 2, rewatches: 0, filmMinutes: 90, showMinutes: 30,
            months: [.init(key: "2026-11", films: 1, shows: 1, minutes: 120)], years: [.init(key: "2026", films: 1, shows: 1, minutes: 120)],
            ratings: [0, 0, 0, 0, 0, 0, 0, 1, 0, 0], genres: [], rewatched: [], reviewYears: [2026])
        let page = StatsPageView(stats)
        #expect(page.monthsChart.contains("November 2026: 1 film<") && page.monthsChart.contains("November 2026: 1 show watch<"))
        #expect(page.ratingsChart?.contains("4 stars: 1 title<") == true)
        #expect(Formats.day("2008-01-20") == "20 January 2008" && Formats.omdbDay("16 Jul 2010") == "16 July 2010")
    }
}
