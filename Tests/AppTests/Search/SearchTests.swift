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

    @Test("a printable-ASCII query is cleaned as any other: the same words, one space between them")
    func asciiQueriesCleanedTheSame() throws {
        var random = SplitMix(seed: 23)
        let pieces = [" ", "  ", "a", "Z", "9", "-", "'", "&", "~", "spider", "Man", ":"]
        for _ in 0..<5_000 {
            let raw = (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            #expect(SearchQuery.isPrintableASCII(raw))
            #expect(SearchQuery.cleanedASCII(raw) == SearchQuery.cleaned(raw), "\(raw.debugDescription)")
        }
        #expect(try SearchQuery("  Mid   sommar ").text == "Mid sommar")
        #expect(!SearchQuery.isPrintableASCII("Midsommar\t") && !SearchQuery.isPrintableASCII("Amélie"))
        #expect(throws: SearchQuery.Invalid.empty) { try SearchQuery("    ") }
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
                let cookie = try await app.visitor()
                _ = try await client.get("/search?q=Spider", cookie: cookie)
                app.upstream.respond { _ throws(UpstreamError) in throw .unreachable("refused") }
                let saved = try await client.postForm("/library/movies/284910350", [("favorite", "1")], cookie: cookie, json: true)
                #expect(saved.status == .ok && saved.text.contains(#""favorite":true"#))
            }
        }
    }
}
