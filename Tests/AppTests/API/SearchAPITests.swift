import Foundation
import HummingbirdTesting
import PopcornAPI
import Testing

@testable import App

@Suite("JSON API v1: search")
struct SearchAPITests {
    @Test("GET /api/v1/search: best match with OMDb details, the other films, shows; remembered for the caller")
    func search() async throws {
        try await TestApp.with(configure: { $0.omdbAPIKey = Fixtures.omdbKey }) { app in
            try await app.test { client in
                // Without a session the search is answered and nothing is written.
                let anonymous = try await client.get("/api/v1/search?q=spider")
                #expect(anonymous.status == .ok && anonymous.sessionCookie == nil)
                #expect(try !APITests.decode(Schemas.SearchResults.self, anonymous).remembered)
                let cookie = try await app.visitor()
                let response = try await client.get("/api/v1/search?q=spider", cookie: cookie)
                #expect(response.status == .ok)
                let results = try APITests.decode(Schemas.SearchResults.self, response)
                #expect(results.query == "spider" && results.source.kind == .live && results.remembered)
                #expect(results.bestMatch?.movie.id == 284_910_350)
                #expect(results.bestMatch?.details?.imdbId == "tt0278731" && results.bestMatch?.details?.director == "David Cronenberg")
                #expect(results.bestMatch?.details?.imdbUrl == "https://www.imdb.com/title/tt0278731/")
                #expect(results.omdb?.status == .found)
                #expect(results.movies.map(\.id) == [1_440_739_251])
                _ = try await client.sendJSON("/api/v1/library/movies/284910350", method: .put, #"{"favorite":true}"#, cookie: cookie)
                let last = try APITests.decode(Schemas.LastSearch.self, try await client.get("/api/v1/search/last", cookie: cookie))
                #expect(last.query == "spider" && last.match.movie.title == "Spider")
                #expect(last.match.details?.actors == "Ralph Fiennes, Miranda Richardson, Gabriel Byrne")
                #expect(last.match.library?.favorite == true)
                let shows = try APITests.decode(Schemas.SearchResults.self, try await client.get("/api/v1/search?q=Pok%C3%A9mon"))
                #expect(shows.bestMatch == nil && shows.movies.isEmpty && !shows.remembered)
                #expect(shows.shows.map(\.name).contains("Pokémon"))
            }
        }
    }

    @Test(
        "bad input is a 400 problem; an unusable iTunes answer a 503; no caller a 401",
        arguments: [
            ("/api/v1/search?q=%20", 400), ("/api/v1/search", 400), ("/api/v1/search?q=\(String(repeating: "x", count: 201))", 400),
            ("/api/v1/search/last", 401),
        ])
    func errors(path: String, status: Int) async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let response = try await client.get(path)
                #expect(response.status.code == status)
                #expect(response.headers[.contentType]?.hasPrefix("application/problem+json") == true)
                #expect(!(try APITests.decode(Schemas.Problem.self, response).detail.isEmpty))
            }
        }
    }

    @Test("a malformed iTunes answer is a 503 problem and the last search stays")
    func upstreamFailure() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try await app.visitor()
                #expect(try APITests.decode(Schemas.SearchResults.self, try await client.get("/api/v1/search?q=spider", cookie: cookie)).remembered)
                app.upstream.fail(host: "itunes.test") { _ in UpstreamResponse(status: 200, body: Data("{\"results\":".utf8)) }
                let failed = try await client.get("/api/v1/search?q=midsommar", cookie: cookie)
                #expect(failed.status == .serviceUnavailable)
                #expect(try APITests.decode(Schemas.Problem.self, failed).detail.contains("Your last search is kept as it was."))
                #expect(try APITests.decode(Schemas.LastSearch.self, try await client.get("/api/v1/search/last", cookie: cookie)).query == "spider")
            }
        }
    }

    @Test("GET /api/v1/search/history lists the caller's recent searches newest first; DELETE removes one of its own")
    func recentSearches() async throws {
        try await TestApp.with { app in
            let cookie = try await app.visitor()
            let other = try await app.visitor()
            try await app.test { client in
                #expect(try await client.get("/api/v1/search/history").status == .unauthorized)
                _ = try await client.get("/api/v1/search?q=spider", cookie: cookie)
                app.clock.advance(60)
                _ = try await client.get("/api/v1/search?q=Midsommar", cookie: cookie)
                let listed = try APITests.decode(Schemas.RecentSearches.self, try await client.get("/api/v1/search/history", cookie: cookie))
                #expect(listed.searches.map(\.query) == ["Midsommar", "spider"])
                let id = try #require(listed.searches.first?.id)
                func delete(_ cookie: String) async throws -> Int {
                    try await client.execute(uri: "/api/v1/search/history/\(id)", method: .delete, headers: [.cookie: cookie]).status.code
                }
                #expect(try await delete(other) == 404)
                #expect(try await delete(cookie) == 204)
                #expect(try await delete(cookie) == 404)
                let after = try APITests.decode(Schemas.RecentSearches.self, try await client.get("/api/v1/search/history", cookie: cookie))
                #expect(after.searches.map(\.query) == ["spider"])
            }
        }
    }
}
