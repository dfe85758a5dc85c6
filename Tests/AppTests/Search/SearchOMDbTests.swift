import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import App

extension SearchTests {
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
                let cookie = try await app.visitor()
                _ = try await client.get("/search?q=midsommar", cookie: cookie)
                let page = try await client.get("/search?q=Amélie", cookie: cookie)
                #expect(omdbURLs(app).count == 2, "no call past the limit")
                #expect(page.status == .ok)
                #expect(page.text.contains("Extra details such as the cast and the IMDb rating are unavailable until tomorrow."))
                #expect(page.text.contains("<dd>Jean-Pierre Jeunet</dd>"), "iTunes still answers")
                #expect(try await client.get("/search", cookie: cookie).text.contains(">Amélie</a>"), "the search is remembered")
                app.clock.advance(24 * 3600)
                _ = try await client.get("/search?q=Amélie")
                #expect(omdbURLs(app).count == 4, "a new day, a new allowance")
            }
        }
    }

    @Test("OMDb \"Movie not found!\" (Response False, HTTP 200): iTunes' film is shown with an error message, and is the last search")
    func omdbNotFound() async throws {
        try await TestApp.with(configure: Self.withOMDb) { app in
            try await app.test { client in
                let cookie = try await app.visitor()
                _ = try await client.get("/search?q=Spider", cookie: cookie)
                let page = try await client.get("/search?q=Amélie", cookie: cookie)
                #expect(page.status == .ok)
                #expect(page.text.contains(#"class="search-message search-error" role="alert"><h2>Some film details are missing</h2>"#))
                #expect(page.text.contains("There are no extra details (such as the cast and the IMDb rating) for this film"))
                let box = try #require(
                    page.text.components(separatedBy: "Some film details are missing</h2>").last?.components(separatedBy: "</div>").first)
                #expect(!box.contains("OMDb") && !box.contains("iTunes"), "the services' names mean nothing to a person")
                #expect(page.text.contains("<dd>Jean-Pierre Jeunet</dd>"), "iTunes' film is still shown")
                let last = try await client.get("/search", cookie: cookie).text
                #expect(last.contains("Your last search, “Amélie”"), "OMDb only adds details: the search is the last one")
                // It was still searched: it is among the recent searches.
                #expect(last.contains(#"class="recent-query" href="/search?q=Am%C3%A9lie">Amélie</a>"#))
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
                let cookie = try await app.visitor()
                _ = try await client.get("/search?q=Spider", cookie: cookie)
                let page = try await client.get("/search?q=Spider", cookie: cookie).text
                #expect(page.contains(#"<input type="hidden" name="return_to" value="/search?q=Spider&amp;done=added">"#))
                // A link cannot claim a save that did not happen.
                let claimed = try await client.get("/search?q=Spider&done=added", cookie: cookie).text
                #expect(claimed.contains(#"<p class="flash search-message search-success" role="status" hidden></p>"#))
                _ = try await client.postForm("/library/movies/284910350", [("favorite", "1")], cookie: cookie)
                let added = try await client.get("/search?q=Spider&done=added", cookie: cookie).text
                #expect(added.contains("“Spider”: Added to your Favorites."))
                #expect(added.contains(#"value="/search?q=Spider&amp;done=removed""#))
                let remembered = try await client.get("/search?done=added", cookie: cookie).text
                #expect(remembered.contains("“Spider”: Added to your Favorites."))
            }
        }
    }
}
