import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import App

/// The Movie Collection specs' Given/When/Then scenarios (../shared/seeds/movie-collection-specs.md),
/// one test each, named after them. "Cache memory" is the visitor's remembered search; "local
/// storage" is the database behind My Lists; "the collection" is the visitor's favorites.
@Suite("Movie Collection specs")
struct MovieCollectionSpecTests {
    static func withOMDb(_ config: inout AppConfig) { config.omdbAPIKey = Fixtures.omdbKey }

    /// Searches once so the visitor has a remembered film; returns the visitor's cookie.
    static func rememberSpider(_ client: any TestClientProtocol, _ app: TestApp) async throws -> String {
        let cookie = try await app.visitor()
        let response = try await client.get("/search?q=Spider", cookie: cookie)
        #expect(response.status == .ok)
        return cookie
    }

    /// A visitor who searched, then put these films in the collection; returns the cookie. A film
    /// the search did not show is saved at once with its details to come: the catalogue worker's
    /// round (every few seconds in a server) brings them.
    static func collection(_ client: any TestClientProtocol, _ app: TestApp, _ ids: [Int]) async throws -> String {
        let cookie = try await rememberSpider(client, app)
        for id in ids {
            #expect(try await client.postForm("/library/movies/\(id)", [("favorite", "1")], cookie: cookie).status == .seeOther)
        }
        _ = try await app.services.catalogWorker.round()
        return cookie
    }

    static func unreachable(_ url: URL) throws(UpstreamError) -> UpstreamResponse { throw .unreachable("connection refused") }

    // MARK: Movie Search — Narrative #1, online

    @Test("online: movie stored in cache — the search screen displays the movie")
    func onlineCached() async throws {
        try await TestApp.with(configure: Self.withOMDb) { app in
            try await app.test { client in
                let cookie = try await Self.rememberSpider(client, app)
                let page = try await client.get("/search", cookie: cookie)
                #expect(page.status == .ok)
                #expect(page.text.contains("Your last search"))
                #expect(page.text.contains(#"<a href="/movies/284910350">Spider</a> <span class="muted">(2003)</span>"#))
                #expect(page.text.contains("<dd>David Cronenberg</dd>"))
                #expect(page.text.contains("A mentally disturbed man takes residence in a halfway house."))
            }
        }
    }

    @Test("online: no movie stored in cache — the search screen shows a welcoming message")
    func onlineNotCached() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let page = try await client.get("/search")
                #expect(page.status == .ok)
                #expect(page.text.contains("Find a film or a show"))
                #expect(page.text.contains("Type the title of a film or TV show above."))
                #expect(!page.text.contains("best-match"))
            }
        }
    }

    @Test("search movie (success) — the movie is displayed and the cache updated")
    func searchSuccess() async throws {
        try await TestApp.with(configure: Self.withOMDb) { app in
            try await app.test { client in
                let cookie = try await Self.rememberSpider(client, app)
                let page = try await client.get("/search?q=midsommar", cookie: cookie)
                #expect(page.status == .ok)
                // The best match in full: poster, title, year, genre, director, plot, OMDb's extras and the detail's links.
                #expect(page.text.contains(#"data-movie-id="1476006349""#))
                #expect(page.text.contains(#"alt="Poster of Midsommar""#))
                #expect(page.text.contains("<dd>Horror</dd>") && page.text.contains("<dd>Ari Aster</dd>"))
                #expect(page.text.contains("A couple travels to Northern Europe"), "OMDb's plot")
                #expect(page.text.contains("<dd>7.1/10 (432,163 votes)</dd>"))
                #expect(page.text.contains("<dd>Florence Pugh, Jack Reynor, Vilhelm Blomgren</dd>"))
                #expect(page.text.contains(#"href="https://www.imdb.com/title/tt8772262/""#))
                #expect(page.text.contains(">More on iTunes</a>"))
                #expect(page.text.contains(">Favorite</button>"))
                let remembered = try await client.get("/search", cookie: cookie)
                #expect(remembered.text.contains(#"<a href="/movies/1476006349">Midsommar</a>"#))
                #expect(remembered.text.contains("<dd>Florence Pugh, Jack Reynor, Vilhelm Blomgren</dd>"), "OMDb's details are remembered too")
                #expect(!remembered.text.contains("Cronenberg"))
            }
        }
    }

    @Test(
        "search movie (failure) — an invalid response from the film catalogue shows an error message and keeps the cached movie",
        arguments: [
            UpstreamResponse(status: 200, contentType: "text/javascript", body: Data(#"{"resultCount":1,"results":[{"#.utf8)),
            UpstreamResponse(status: 500, body: Data("Internal Server Error".utf8)),
        ])
    func searchFailure(answer: UpstreamResponse) async throws {
        try await TestApp.with(configure: Self.withOMDb) { app in
            try await app.test { client in
                let cookie = try await Self.rememberSpider(client, app)
                app.upstream.fail(host: "itunes.test") { _ in answer }
                let page = try await client.get("/search?q=midsommar", cookie: cookie)
                #expect(page.text.contains(#"class="search-message search-error" role="alert""#))
                #expect(page.status == .serviceUnavailable)
                #expect(page.text.contains("An error occurred while fetching data. Do you want to try again?"))
                #expect(page.text.contains(#"<a class="btn btn-primary" href="/search?q=midsommar">Retry</a>"#))
                #expect(page.text.contains("Your last search is kept as it was"))
                let remembered = try await client.get("/search", cookie: cookie)
                #expect(remembered.text.contains(#"<a href="/movies/284910350">Spider</a>"#))
                #expect(!remembered.text.contains("Midsommar"))
            }
        }
    }

    @Test(
        "search movie — OMDb (optional details) failing shows the film with a note and still updates the cache",
        arguments: [
            UpstreamResponse(status: 200, body: Data(#"{"Response":"False","Error":"Something went wrong."}"#.utf8)),
            UpstreamResponse(status: 200, body: Data(#"{"Response":"False","Error":"Movie not found!"}"#.utf8)),
            UpstreamResponse(status: 401, body: Data(#"{"Response":"False","Error":"Invalid API key!"}"#.utf8)),
            UpstreamResponse(status: 503, body: Data("<html>unavailable</html>".utf8)),
        ])
    func searchWithoutDetails(answer: UpstreamResponse) async throws {
        try await TestApp.with(configure: Self.withOMDb) { app in
            try await app.test { client in
                let cookie = try await Self.rememberSpider(client, app)
                app.upstream.fail(host: "omdb.test") { _ in answer }
                let page = try await client.get("/search?q=midsommar", cookie: cookie)
                #expect(page.status == .ok)
                #expect(page.text.contains("Some film details are missing"))
                #expect(page.text.contains("<dd>Ari Aster</dd>"), "iTunes' answer is shown")
                let remembered = try await client.get("/search", cookie: cookie)
                #expect(remembered.text.contains(#"<a href="/movies/1476006349">Midsommar</a>"#))
            }
        }
    }

    @Test("search movie — iTunes refusing for its limit (403/429): the films PopcornSwirl holds, marked, never an error")
    func searchAtTheLimit() async throws {
        try await TestApp.with(configure: Self.withOMDb) { app in
            try await app.test { client in
                let cookie = try await Self.rememberSpider(client, app)
                app.upstream.fail(host: "itunes.test") { _ in UpstreamResponse(status: 403, body: Data()) }
                let page = try await client.get("/search?q=spider%20man", cookie: cookie)
                #expect(page.status == .ok)
                #expect(page.text.contains("Spider-Man: Into the Spider-Verse"), "seen in an earlier answer, so in the title index")
                #expect(page.text.contains("iTunes will be asked again in a moment"))
            }
        }
    }

    // MARK: Movie Search — Narrative #2, offline

    @Test("offline: movie stored in cache — the search screen displays the latest movie saved")
    func offlineCached() async throws {
        try await TestApp.with(configure: Self.withOMDb) { app in
            try await app.test { client in
                let cookie = try await Self.rememberSpider(client, app)
                _ = try await client.get("/search?q=midsommar", cookie: cookie)
                app.upstream.respond(Self.unreachable)
                let callsBefore = app.upstream.calls()
                let page = try await client.get("/search", cookie: cookie)
                #expect(page.status == .ok)
                #expect(page.text.contains(#"<a href="/movies/1476006349">Midsommar</a>"#))
                #expect(page.text.contains("<dd>7.1/10 (432,163 votes)</dd>"))
                #expect(app.upstream.calls() == callsBefore, "the remembered film comes from the database, not the network")
            }
        }
    }

    @Test("offline: no movie stored in cache — the search screen shows an error message")
    func offlineNotCached() async throws {
        let upstream = FakeUpstream(Self.unreachable)
        try await TestApp.with(upstream: upstream) { app in
            try await app.test { client in
                let page = try await client.get("/search")
                #expect(page.status == .serviceUnavailable)
                #expect(page.text.contains(#"role="alert""#))
                #expect(page.text.contains("No connection"))
                #expect(page.text.contains("Searching needs a connection to iTunes"))
            }
        }
    }

    @Test("offline mode (POPCORN_OFFLINE): no movie stored in cache — the error message, without trying the network")
    func offlineModeNotCached() async throws {
        try await TestApp.with(configure: { $0.offline = true }) { app in
            try await app.test { client in
                let page = try await client.get("/search")
                #expect(page.status == .serviceUnavailable && page.text.contains("No connection"))
                #expect(app.upstream.calls() == 0)
            }
        }
    }

    // MARK: Movies List — add, list, remove

    @Test("add movie to the collection (success) — a success message")
    func addSuccess() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try await Self.rememberSpider(client, app)
                let saved = try await client.postForm(
                    "/library/movies/284910350", [("favorite", "1"), ("return_to", "/search?q=Spider&done=added")], cookie: cookie
                )
                #expect(saved.status == .seeOther || saved.status == .found)
                let location = try #require(saved.headers[.location])
                #expect(location == "/search?q=Spider&done=added#movie-284910350")
                let page = try await client.get(location, cookie: cookie)
                #expect(page.text.contains(#"<p class="flash search-message search-success" role="status">“Spider”: Added to your Favorites.</p>"#))
                #expect(page.text.contains(">Favorite ✓</button>"))
                let json = try await client.postForm("/library/movies/284910350", [("favorite", "1")], cookie: cookie, json: true)
                #expect(json.status == .ok && json.text.contains(#""favorite":true"#))
            }
        }
    }

    @Test("add movie to the collection (failure) — an error message, and nothing half-saved")
    func addFailure() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try await Self.rememberSpider(client, app)
                try await app.services.database.sql.raw("DROP TABLE library_entries").run()
                let page = try await client.postForm(
                    "/library/movies/284910350", [("favorite", "1"), ("return_to", "/search?q=Spider&done=added")], cookie: cookie)
                #expect(page.status == .serviceUnavailable)
                #expect(page.text.contains("Oops, something went wrong"))
                #expect(page.text.contains("There was a problem saving/deleting this movie. Do you want to try again?"))
                let json = try await client.postForm("/library/movies/284910350", [("favorite", "1")], cookie: cookie, json: true)
                #expect(json.status == .serviceUnavailable)
                #expect(json.text.contains("There was a problem saving/deleting this movie. Do you want to try again?"))
                // The flash never claims a save that did not happen.
                let search = try await client.get("/search?q=Spider&done=added", cookie: cookie)
                #expect(!search.text.contains(#"role="status">“Spider”: Added to your Favorites."#))
            }
        }
    }
}
