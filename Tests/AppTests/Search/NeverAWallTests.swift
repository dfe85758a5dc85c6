import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SQLKit
import Testing

@testable import App

/// The upstreams' limits never reach a person: release years, searches and saves answer from what
/// PopcornSwirl holds (kept answers, the title index, the bundled catalogue), marked, while the
/// upstreams are asked in the background.
@Suite("Never a wall")
struct NeverAWallTests {
    /// iTunes answering every year with one film of that year, every title search with one film
    /// named after the query, and lookups of ids below 900,000 (others it does not know).
    static func generousITunes() -> FakeUpstream {
        FakeUpstream { url throws(UpstreamError) in
            guard url.host == "itunes.test" else { return try Fixtures.itunesAnswer(for: url) }
            let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            func value(_ name: String) -> String? { query.first { $0.name == name }?.value }
            func film(_ id: Int, _ title: String, year: Int) -> [String: Any] {
                [
                    "wrapperType": "track", "kind": "feature-movie", "trackId": id, "trackName": title, "artistName": "A. Director",
                    "primaryGenreName": "Drama", "releaseDate": "\(year)-05-01T07:00:00Z",
                ]
            }
            var results: [[String: Any]] = []
            if url.path.hasSuffix("/search"), let term = value("term") {
                if value("attribute") != nil, let year = Int(term) {
                    results = [film(year * 10, "Film of \(year)", year: year)]
                } else {
                    results = [film(500_000 + abs(term.hashValue % 100_000), "\(term) Story", year: 2020)]
                }
            } else if url.path.hasSuffix("/lookup"), let ids = value("id") {
                results = ids.split(separator: ",").compactMap { Int($0) }.filter { $0 < 900_000 }.map { film($0, "Film number \($0)", year: 2019) }
            }
            let body = try! JSONSerialization.data(withJSONObject: ["resultCount": results.count, "results": results])
            return UpstreamResponse(status: 200, contentType: "text/javascript", body: body)
        }
    }

    static func itunesCalls(_ app: TestApp) -> Int { app.upstream.requested(host: "itunes.test").count }

    @Test("one person opens 12 release years in a minute and makes 20 searches in two: every answer 200 with films")
    func yearsAndSearchesWithoutAWall() async throws {
        try await TestApp.with(upstream: Self.generousITunes()) { app in
            let cookie = try await app.signedIn("flipper").cookie
            try await app.test { client in
                for year in 1990..<2002 {
                    let page = try await client.get("/movies?year=\(year)", cookie: cookie)
                    #expect(page.status == .ok)
                    #expect(page.text.contains("Film of \(year)"))
                    #expect(!page.text.contains("Slow down"))
                    app.clock.advance(5)
                }
                for index in 1...20 {
                    let page = try await client.get("/search?q=Title\(index)", cookie: cookie)
                    #expect(page.status == .ok)
                    #expect(page.text.contains("Title\(index) Story"))
                    #expect(!page.text.contains("Slow down"))
                    app.clock.advance(6)
                }
            }
        }
    }

    @Test(
        "past every limit, a person's new search answers 200 from the title index with a quiet note; one it cannot answer says so without blaming iTunes"
    )
    func limitsAnswerLocally() async throws {
        try await TestApp.with(upstream: Self.generousITunes()) { app in
            let cookie = try await app.signedIn("reader").cookie
            try await app.test { client in
                #expect(try await client.get("/movies?year=1994", cookie: cookie).status == .ok)
                app.upstream.fail(host: "itunes.test") { _ in UpstreamResponse(status: 429, body: Data()) }
                let before = Self.itunesCalls(app)
                let page = try await client.get("/search?q=film%20of%201994", cookie: cookie)
                #expect(page.status == .ok)
                #expect(page.text.contains("Film of 1994"))
                #expect(page.text.contains("will be asked again in a moment"))
                #expect(Self.itunesCalls(app) == before + 1, "one call, refused; nothing waits on it")
                let nothing = try await client.get("/search?q=zzyzx", cookie: cookie)
                #expect(nothing.status == .ok)
                #expect(nothing.text.contains("No film in PopcornSwirl’s own catalogue matches “zzyzx” yet."))
                #expect(!nothing.text.contains("on iTunes."), "iTunes gave no answer, so it cannot have found nothing")
            }
        }
    }

    @Test("with every upstream stopped, a film only ever seen in a year list is found: any case, accents, word prefixes, the year")
    func indexFindsYearListFilms() async throws {
        try await TestApp.with(indexed: false) { app in
            try await app.test { client in
                #expect(try await client.get("/movies?year=2026").text.contains("Spring Story"))
                app.upstream.respond { _ throws(UpstreamError) in throw .unreachable("stopped") }
                for query in ["spring story", "SPRÍNG", "spr sto", "spring 2026"] {
                    let page = try await client.get("/search?q=\(Route.query(query))")
                    #expect(page.status == .ok, "\(query)")
                    #expect(page.text.contains("Spring Story"), "\(query)")
                }
                let otherYear = try await client.get("/search?q=spring%202019")
                #expect(!otherYear.text.contains("Spring Story"))
            }
        }
    }

    @Test("40 saves of 20 never-opened films by 4 visitors, 20 at a time: all succeed at once; one round fills them in; an unknown id says so")
    func savesNeverWait() async throws {
        try await TestApp.with(upstream: Self.generousITunes()) { app in
            var made: [String] = []
            for _ in 0..<4 { made.append(try await app.visitor()) }
            let visitors = made
            let ids = Array(100_001...100_019) + [999_999]
            let saves = visitors.enumerated().flatMap { index, cookie in ids.indices.filter { $0 % 2 == index % 2 }.map { (cookie, ids[$0]) } }
            #expect(saves.count == 40)
            try await app.test { client in
                for batch in [saves[0..<20], saves[20..<40]] {
                    let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                        for (cookie, id) in batch {
                            group.addTask {
                                try await client.sendJSON("/api/v1/library/movies/\(id)", method: .put, #"{"favorite": true}"#, cookie: cookie).status
                            }
                        }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                    #expect(statuses.allSatisfy { $0 == .ok }, "\(statuses)")
                }
                #expect(Self.itunesCalls(app) == 0, "no save asked iTunes")
                let pending = try await client.get("/library?list=favorites", cookie: visitors[1])
                #expect(pending.text.contains("Details on their way from iTunes"))

                let round = try await app.services.catalogWorker.round()
                #expect(round.filledFilms == 19 && round.unknownFilms == 1)
                #expect(Self.itunesCalls(app) == 1, "the 20 ids in one lookup")
                let filled = try await client.get("/library?list=favorites", cookie: visitors[0])
                #expect(filled.text.contains("Film number 100001"))
                #expect(!filled.text.contains("Details on their way"))
                let unknown = try await client.get("/library?list=favorites", cookie: visitors[1])
                #expect(unknown.text.contains("No longer in the film catalogue"))
                #expect(unknown.text.contains("Remove"))
            }
        }
    }

    @Test("a visitor's third search is their last search, and the three are listed as recent, whatever OMDb answers")
    func visitorsLastSearch() async throws {
        try await TestApp.with(configure: { $0.omdbAPIKey = Fixtures.omdbKey }) { app in
            try await app.test { client in
                var jar: [String: String] = [:]
                func cookie() -> String? { jar.isEmpty ? nil : jar.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ") }
                for query in ["Spider", "Midsommar", "Amélie"] {
                    let page = try await client.get("/search?q=\(Route.query(query))", cookie: cookie())
                    #expect(page.status == .ok)
                    for set in page.headers[values: .setCookie] {
                        let pair = set.prefix { $0 != ";" }
                        guard let equals = pair.firstIndex(of: "=") else { continue }
                        jar[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
                    }
                }
                let page = try await client.get("/search", cookie: cookie())
                #expect(page.text.contains("Your last search, “Amélie”"))
                for query in ["Spider", "Midsommar", "Amélie"] {
                    #expect(page.text.contains(Route.searchFor(query).replacingOccurrences(of: "&", with: "&amp;")), "\(query) is recent")
                }
            }
        }
    }

    @Test(
        "a cookieless client making 200 searches a minute causes at most iTunes' budget of calls; a person's searches are still answered with films")
    func crawlerCannotPushPastTheBudget() async throws {
        try await TestApp.with(upstream: Self.generousITunes()) { app in
            let person = try await app.signedIn("person").cookie
            try await app.test { client in
                #expect(try await client.get("/movies?year=2003", cookie: person).status == .ok)
                let queries = ["film of 2003", "film 2003", "2003 film", "of 2003", "film of", "fil 2003", "film of 200", "2003", "Film", "film o"]
                for index in 1...200 {
                    let crawled = try await client.get("/search?q=crawl\(index)", browser: false)
                    #expect(crawled.status == .ok)
                    if index % 20 == 0 {
                        let query = queries[index / 20 - 1]
                        let page = try await client.get("/search?q=\(Route.query(query))", cookie: person)
                        #expect(page.status == .ok)
                        #expect(!page.text.contains("Slow down"))
                        #expect(page.text.contains("Film of 2003") || page.text.contains("\(query) Story"), "\(query) finds a film")
                    }
                    app.clock.advance(0.3)
                }
                #expect(Self.itunesCalls(app) <= HostThrottle.Spec.itunes.limit + 1, "the year list and at most a minute's budget")
            }
        }
    }
}
