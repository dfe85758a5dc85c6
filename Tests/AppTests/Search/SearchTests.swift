import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import App

@Suite("Search")
struct SearchTests {
    static func withOMDb(_ config: inout AppConfig) { config.omdbAPIKey = Fixtures.omdbKey }

    func omdbURLs(_ app: TestApp) -> [String] {
        app.upstream.requested(host: "omdb.test").map(\.absoluteString)
    }

    @Test(
        "bad input: an empty query asks for a title, more than 200 characters is refused, nothing is remembered",
        arguments: [
            ("", "Type the title of a film or TV show to search for."),
            ("%20%20%0A", "Type the title of a film or TV show to search for."),
            (String(repeating: "a", count: 201), "That title is 201 characters long; searches can be at most 200 characters."),
            (String(repeating: "%F0%9F%8D%BF", count: 201), "That title is 201 characters long"),
        ])
    func badInput(query: String, message: String) async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let page = try await client.get("/search?q=\(query)")
                #expect(page.status == .badRequest)
                #expect(page.text.contains(#"role="alert""#) && page.text.contains(message))
                #expect(page.sessionCookie == nil)
                #expect(app.upstream.calls() == 0)
            }
        }
    }

    @Test("200 characters (emoji count as one) is accepted")
    func longestQuery() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let page = try await client.get("/search?q=" + String(repeating: "%F0%9F%8D%BF", count: 200))
                #expect(page.status == .ok)
                #expect(page.text.contains("No films match"))
            }
        }
    }

    @Test(
        "any Unicode title reaches iTunes, OMDb and TVMaze percent-encoded as UTF-8",
        arguments: [
            ("Am%C3%A9lie", "Amélie", "1436312339"),
            ("Ame%CC%81lie", "Amélie", "1436312339"),  // e + combining acute: normalised to é first
            ("%E5%8D%83%E3%81%A8%E5%8D%83%E5%B0%8B", "千と千尋", "1439452110"),
            ("%F0%9F%8D%BF%20Am%C3%A9lie", "🍿 Amélie", nil),
            ("Pok%C3%A9mon", "Pokémon", nil),
        ])
    func unicode(encoded: String, text: String, movieID: String?) async throws {
        try await TestApp.with(configure: Self.withOMDb) { app in
            try await app.test { client in
                let page = try await client.get("/search?q=\(encoded)")
                #expect(page.status == .ok)
                #expect(page.text.contains(#"value="\#(text)""#), "the field keeps the title as typed")
                let itunes = try #require(app.upstream.requested(host: "itunes.test").first { $0.path == "/search" })
                #expect(itunes.absoluteString.contains("term=\(Route.query(text))&media=movie&entity=movie"))
                let term = URLComponents(url: itunes, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "term" }?.value
                #expect(term == text)
                let tvmaze = try #require(app.upstream.requested(host: "tvmaze.test").first)
                #expect(URLComponents(url: tvmaze, resolvingAgainstBaseURL: false)?.queryItems?.first?.value == text)
                if let movieID {
                    #expect(page.text.contains(#"class="detail best-match" data-movie-id="\#(movieID)""#))
                    let omdb = try #require(app.upstream.requested(host: "omdb.test").first)
                    let title = try #require(URLComponents(url: omdb, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "t" }?.value)
                    #expect(title.hasPrefix(text), "OMDb is asked for iTunes' title")
                    #expect(omdb.absoluteString.contains("t=\(Route.query(title))&"))
                    let allASCII = omdb.absoluteString.unicodeScalars.allSatisfy(\.isASCII)
                    #expect(allASCII, "non-ASCII titles are percent-encoded")
                }
                if text == "Pokémon" {
                    #expect(page.text.contains("No films match “Pokémon” on iTunes."))
                    #expect(page.text.contains(">TV shows</h2>") && page.text.contains(#"href="/shows/"#))
                }
            }
        }
    }

    @Test("the form's encoding: + is a space, %2B a plus (search and TV Shows alike)")
    func formEncoding() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let page = try await client.get("/search?q=into+the+spider").text
                #expect(page.contains(#"value="into the spider""#) && page.contains(">Spider-Man: Into the Spider-Verse</a>"))
                let plus = try await client.get("/search?q=C%2B%2B").text
                #expect(plus.contains(#"value="C++""#))
                #expect(app.upstream.requested(host: "itunes.test").last?.absoluteString.contains("term=C%2B%2B&") == true)
                let shows = try await client.get("/shows?q=chicken+girls").text
                #expect(shows.contains("Chicken Girls"))
                let garbled = try await client.get("/search?q=%E0%A4%A")
                #expect(garbled.status == .badRequest && garbled.text.contains("The address could not be read."))
            }
        }
    }

    @Test("bidirectional overrides are dropped from a query; emoji joiners are kept")
    func bidiControls() throws {
        #expect(try SearchQuery("abc\u{202E}def\u{2066}").text == "abcdef")
        #expect(try SearchQuery("👨\u{200D}👩\u{200D}👧  family").text == "👨\u{200D}👩\u{200D}👧 family")
        #expect(throws: SearchQuery.Invalid.empty) { try SearchQuery("\u{202E}\u{0007} ") }
    }

    @Test("the closest title is the best match; other films and TV-episode results follow or are dropped")
    func ranking() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let page = try await client.get("/search?q=spider").text
                // iTunes put Spider-Man first; the exact title "Spider" wins.
                #expect(page.contains(#"<a href="/movies/284910350">Spider</a>"#))
                #expect(page.contains(">More films</h2>") && page.contains(">Spider-Man: Into the Spider-Verse</h3>"))
                #expect(!page.contains("Spider Episode"))
                let best = try #require(page.range(of: "best-match"))
                let more = try #require(page.range(of: "More films"))
                #expect(best.lowerBound < more.lowerBound)
            }
        }
    }

    @Test("results are cached 12 hours per title (case does not matter), one request per title at a time")
    func caching() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                app.upstream.setDelay(milliseconds: 100)
                try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for query in ["spider", "Spider", "SPIDER", "spider ", "  spider"] {
                        group.addTask { try await client.get("/search?q=\(Route.query(query))").status }
                    }
                    for try await status in group { #expect(status == .ok) }
                }
                #expect(app.upstream.calls("/search") == 1)
                app.clock.advance(11 * 3600)
                _ = try await client.get("/search?q=spider")
                #expect(app.upstream.calls("/search") == 1)
                app.clock.advance(2 * 3600)
                _ = try await client.get("/search?q=spider")
                #expect(app.upstream.calls("/search") == 2)
            }
        }
    }

    @Test("when iTunes fails, the last good answer is shown, marked with when it was saved")
    func staleAnswer() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                _ = try await client.get("/search?q=spider")
                app.clock.advance(13 * 3600)
                app.upstream.fail(host: "itunes.test") { _ in UpstreamResponse(status: 502, body: Data()) }
                let page = try await client.get("/search?q=spider")
                #expect(page.status == .ok)
                #expect(page.text.contains("Offline — showing results saved on"))
                #expect(page.text.contains(#"<a href="/movies/284910350">Spider</a>"#))
            }
        }
    }

    @Test("when iTunes cannot be reached and nothing is cached, the built-in catalogue is searched and marked offline")
    func offlineCatalogue() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                app.upstream.respond { _ throws(UpstreamError) in throw .unreachable("refused") }
                let page = try await client.get("/search?q=midsommar")
                #expect(page.status == .ok)
                #expect(page.text.contains("can’t be reached, showing PopcornSwirl’s built-in catalogue"))
                #expect(page.text.contains(">Midsommar</a>"))
                let nothing = try await client.get("/search?q=zzzz-not-a-film")
                #expect(nothing.text.contains("You’re offline and no film in PopcornSwirl’s built-in catalogue matches “zzzz-not-a-film”."))
            }
        }
    }

    @Test("a film from a search can be saved even when iTunes stops answering after the search")
    func saveAfterSearchOffline() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try #require(try await client.get("/search?q=Spider").sessionCookie)
                app.upstream.respond { _ throws(UpstreamError) in throw .unreachable("refused") }
                let saved = try await client.postForm("/library/movies/284910350", [("favorite", "1")], cookie: cookie, json: true)
                #expect(saved.status == .ok && saved.text.contains(#""favorite":true"#))
            }
        }
    }

    @Test("OMDb: films are kept 7 days, \"not found\" 1 day")
    func omdbCaching() async throws {
        try await TestApp.with(configure: Self.withOMDb) { app in
            try await app.test { client in
                // Each is asked by title and year, then by title alone.
                _ = try await client.get("/search?q=Spider")  // OMDb knows it (as 2002; iTunes says 2003)
                _ = try await client.get("/search?q=Amélie")  // OMDb does not
                #expect(omdbURLs(app).count == 4)
                app.clock.advance(23 * 3600)
                _ = try await client.get("/search?q=Spider")
                _ = try await client.get("/search?q=Amélie")
                #expect(omdbURLs(app).count == 4)
                app.clock.advance(2 * 3600)
                _ = try await client.get("/search?q=Spider")
                _ = try await client.get("/search?q=Amélie")
                #expect(omdbURLs(app).count == 6, "only the day-old \"not found\" answers are asked again")
                #expect(
                    omdbURLs(app).suffix(2) == [
                        "https://omdb.test/?apikey=test-key&t=Am%C3%A9lie&y=2001", "https://omdb.test/?apikey=test-key&t=Am%C3%A9lie",
                    ])
                app.clock.advance(6 * 24 * 3600)
                _ = try await client.get("/search?q=Spider")
                #expect(omdbURLs(app).count == 7, "a week on, the film is asked again")
            }
        }
    }

    @Test("OMDb: the first lookup is by title and year; once the IMDb id is known, by i=")
    func omdbByID() async throws {
        try await TestApp.with(configure: Self.withOMDb) { app in
            try await app.test { client in
                _ = try await client.get("/search?q=Spider")
                #expect(omdbURLs(app) == ["https://omdb.test/?apikey=test-key&t=Spider&y=2003", "https://omdb.test/?apikey=test-key&t=Spider"])
                app.clock.advance(8 * 24 * 3600)
                let page = try await client.get("/search?q=Spider")
                #expect(omdbURLs(app).last == "https://omdb.test/?apikey=test-key&i=tt0278731")
                #expect(page.text.contains("<dd>6.7/10 (44,517 votes)</dd>"))
            }
        }
    }

    @Test("OMDb: calls are counted per day; at 1,000 it is not called and the page says why")
    func omdbDailyLimit() async throws {
        try await TestApp.with(configure: Self.withOMDb) { app in
            try await app.test { client in
                _ = try await client.get("/search?q=Spider")
                let counter = DailyCallCounter(database: app.services.database, api: "omdb", limit: OMDbClient.dailyLimit, clock: app.clock)
                #expect(try await counter.callsToday() == 2)
                try await app.services.database.sql.raw("UPDATE upstream_calls SET calls = 1000").run()
                let cookie = try #require(try await client.get("/search?q=midsommar").sessionCookie)
                let page = try await client.get("/search?q=Amélie", cookie: cookie)
                #expect(omdbURLs(app).count == 2, "no call past the limit")
                #expect(page.status == .ok)
                #expect(page.text.contains("OMDb’s daily allowance of 1,000 lookups is used up"))
                #expect(page.text.contains("<dd>Jean-Pierre Jeunet</dd>"), "iTunes still answers")
                #expect(try await client.get("/search", cookie: cookie).text.contains(">Amélie</a>"), "the search is remembered")
                app.clock.advance(24 * 3600)
                _ = try await client.get("/search?q=Amélie")
                #expect(omdbURLs(app).count == 4, "a new day, a new allowance")
            }
        }
    }

    @Test("OMDb \"Movie not found!\" (Response False, HTTP 200): iTunes' film is shown with an error message, the last search is kept")
    func omdbNotFound() async throws {
        try await TestApp.with(configure: Self.withOMDb) { app in
            try await app.test { client in
                let cookie = try #require(try await client.get("/search?q=Spider").sessionCookie)
                let page = try await client.get("/search?q=Amélie", cookie: cookie)
                #expect(page.status == .ok)
                #expect(page.text.contains(#"class="search-message search-error" role="alert"><h2>Film details unavailable</h2>"#))
                #expect(page.text.contains("OMDb answered that it has no such film"))
                #expect(page.text.contains("<dd>Jean-Pierre Jeunet</dd>"), "iTunes' film is still shown")
                let last = try await client.get("/search", cookie: cookie).text
                #expect(last.contains(#"<a href="/movies/284910350">Spider</a>"#) && !last.contains("Amélie"))
            }
        }
    }

    @Test("without OMDB_API_KEY everything works from iTunes alone and OMDb is never called")
    func withoutOMDb() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let page = try await client.get("/search?q=midsommar")
                #expect(page.status == .ok)
                #expect(page.text.contains("<dd>Ari Aster</dd>") && page.text.contains("A couple travels to Sweden"))
                #expect(!page.text.contains("imdb.com") && !page.text.contains("OMDb"))
                #expect(omdbURLs(app).isEmpty)
            }
        }
    }

    @Test("titles typed and titles from upstream are escaped")
    func escaping() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let page = try await client.get("/search?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E%22%3E").text
                #expect(!page.contains("<script>alert"))
                #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;"))
            }
        }
    }

    @Test("the collection message after a save without JavaScript matches what was done, read from the database")
    func collectionFlash() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try #require(try await client.get("/search?q=Spider").sessionCookie)
                let page = try await client.get("/search?q=Spider", cookie: cookie).text
                #expect(page.contains(#"<input type="hidden" name="return_to" value="/search?q=Spider&amp;done=added">"#))
                // A link cannot claim a save that did not happen.
                let claimed = try await client.get("/search?q=Spider&done=added", cookie: cookie).text
                #expect(claimed.contains(#"<p class="flash search-message search-success" role="status" hidden></p>"#))
                _ = try await client.postForm("/library/movies/284910350", [("favorite", "1")], cookie: cookie)
                let added = try await client.get("/search?q=Spider&done=added", cookie: cookie).text
                #expect(added.contains("“Spider”: Added to your collection."))
                #expect(added.contains(#"value="/search?q=Spider&amp;done=removed""#))
                let remembered = try await client.get("/search?done=added", cookie: cookie).text
                #expect(remembered.contains("“Spider”: Added to your collection."))
            }
        }
    }
}
