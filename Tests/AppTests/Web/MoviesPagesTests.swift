import Foundation
import HummingbirdTesting
import Testing

@testable import App

@Suite("Movies pages")
struct MoviesPagesTests {
    @Test("/ shows the current year's films as cards, newest release first, with Favorite and Watched buttons")
    func home() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let response = try await client.get("/")
                #expect(response.status == .ok)
                let html = response.text
                #expect(html.contains("<title>Movies of 2026 · PopcornSwirl</title>"))
                let order = ["Latest Release", "Middle Of The Year", "Spring Story", "January Film"].compactMap { html.range(of: $0)?.lowerBound }
                #expect(order.count == 4 && order == order.sorted())
                #expect(html.contains(#"name="favorite" value="1""#))
                #expect(html.contains(#"name="watched" value="1""#))
                #expect(html.contains("Thriller"))
                #expect(!html.contains("Not A Movie Episode"))
                #expect(html.contains(#"<option value="1950">"#) && html.contains(#"<option value="2026" selected>"#))
            }
        }
    }

    @Test("titles and synopses from upstream are escaped")
    func escaping() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let html = try await client.get("/").text
                #expect(html.contains("Undated &lt;Mystery&gt; &amp; Co"))
                #expect(!html.contains("<Mystery>"))
                let detail = try await client.get("/movies/1005").text
                #expect(detail.contains("&lt;script&gt;alert(1)&lt;/script&gt; stays text"))
                #expect(!detail.contains("<script>alert"))
            }
        }
    }

    @Test("a person's Movies page is kept between their visits but shows each change of theirs at once, and only theirs")
    func personalPageFollowsWrites() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                // The browser keeps its CSRF cookie too, so its pages' form tokens stay the same.
                let cookie =
                    try #require(try await client.postForm("/library/movies/1001", [("favorite", "1")]).sessionCookie) + "; " + TestApp.csrfCookie
                let favorite = #"aria-pressed="true">Favorite ✓"#
                var page = try await client.get("/movies?year=2026", cookie: cookie).text
                #expect(page.components(separatedBy: favorite).count - 1 == 1)
                #expect(try await client.get("/movies?year=2026", cookie: cookie).text == page, "the same bytes a second time")
                _ = try await client.postForm("/library/movies/1002", [("favorite", "1")], cookie: cookie)
                page = try await client.get("/movies?year=2026", cookie: cookie).text
                #expect(page.components(separatedBy: favorite).count - 1 == 2, "the second favorite shows on the next view")
                let other = try #require(try await client.postForm("/library/movies/1003", [("watched", "1")]).sessionCookie)
                #expect(!(try await client.get("/movies?year=2026", cookie: other).text.contains(favorite)), "another person's page is their own")
            }
        }
    }

    @Test("anonymous pages are rendered once per catalogue answer and served again from memory")
    func sharedRendering() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                // The same browser (same CSRF cookie) gets the same bytes; the shared part is cached.
                let first = try await client.get("/movies?year=2026", cookie: TestApp.csrfCookie).text
                let second = try await client.get("/movies?year=2026", cookie: TestApp.csrfCookie).text
                #expect(first == second)
                // Another browser gets the same page with its own form token in every form.
                let other = try await client.get("/movies?year=2026").text
                let token = #/name="csrf" value="([A-Za-z0-9_-]{43})"/#
                let mine = Set(first.matches(of: token).map { String($0.output.1) })
                let theirs = Set(other.matches(of: token).map { String($0.output.1) })
                #expect(mine.count == 1 && theirs.count == 1 && mine != theirs)
                #expect(first.matches(of: token).count > 2, "one per card and the note dialog's")
                #expect(first.replacingOccurrences(of: mine.first!, with: "") == other.replacingOccurrences(of: theirs.first!, with: ""))
                #expect(app.upstream.calls("/search") == 1)
            }
        }
    }

    @Test(
        "a year that is not a number or out of range gets a 400 page with a message and the picker",
        arguments: [
            ("abc", "is not a year"), ("1949", "Pick a year between 1950 and 2027"), ("2028", "Pick a year between 1950 and 2027"),
            ("%3Cscript%3E", "is not a year"),
        ])
    func badYear(input: String, message: String) async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let response = try await client.get("/movies?year=\(input)")
                #expect(response.status == .badRequest)
                #expect(response.text.contains(message))
                #expect(response.text.contains(#"<select id="year" name="year""#))
                #expect(!response.text.contains("<script>\u{201D}"))
            }
        }
    }

    @Test("a year with no films says so")
    func emptyYear() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let response = try await client.get("/movies?year=1961")
                #expect(response.status == .ok)
                #expect(response.text.contains("No films from 1961 were found on iTunes"))
            }
        }
    }

    @Test("when iTunes is down and nothing is cached, the bundled catalogue is shown and marked offline")
    func offlineBanner() async throws {
        try await TestApp.with(upstream: FakeUpstream { _ throws(UpstreamError) in throw .unreachable("down") }) { app in
            try await app.test { client in
                let html = try await client.get("/movies?year=2024").text
                #expect(html.contains("Offline — iTunes can’t be reached"))
                #expect(html.contains(#"class="card""#))
            }
        }
    }

    @Test("when iTunes fails after the cache went stale, the page says when the results were saved")
    func staleBanner() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                _ = try await client.get("/movies?year=2026")
                app.clock.advance(7 * 3600)
                app.upstream.respond { _ throws(UpstreamError) in throw .rateLimited(status: 403) }
                let html = try await client.get("/movies?year=2026").text
                #expect(
                    html.contains(#"Offline — showing results saved on <time datetime="2026-11-18T"#) && html.contains("data-local>18 November 2026"))
                #expect(html.contains("Latest Release"))
            }
        }
    }

    @Test("the detail page shows poster, facts, synopsis and the More on iTunes link")
    func detail() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let html = try await client.get("/movies/1001").text
                #expect(html.contains("<h1>Middle Of The Year"))
                for fact in ["Thriller", "12 June 2026", "Jane Director", "1 h 48 min", "$14.99", "A long synopsis about the middle of the year."] {
                    #expect(html.contains(fact), "\(fact)")
                }
                #expect(html.contains("R</dd>"))
                #expect(
                    html.contains(
                        #"href="https://itunes.apple.com/us/movie/middle-of-the-year/id1001?uo=4" target="_blank" rel="noopener noreferrer">More on iTunes</a>"#
                    ))
                #expect(html.contains("/posters?seed=1001"))
                #expect(html.contains("Favorite") && html.contains("Watched"))
            }
        }
    }

    @Test("unknown and malformed ids get a 404 page", arguments: ["/movies/999999", "/movies/abc", "/movies/-5", "/movies/0"])
    func notFound(path: String) async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let response = try await client.get(path)
                #expect(response.status == .notFound)
                #expect(response.text.contains("Not found"))
            }
        }
    }

    @Test("a film nobody knows while iTunes is unreachable gets the retry page, not a 500")
    func unavailableDetail() async throws {
        try await TestApp.with(upstream: FakeUpstream { _ throws(UpstreamError) in throw .unreachable("down") }) { app in
            try await app.test { client in
                let response = try await client.get("/movies/424242")
                #expect(response.status == .serviceUnavailable)
                #expect(response.text.contains("Oops, something went wrong"))
                #expect(response.text.contains("An error occurred while fetching data. Do you want to try again?"))
                #expect(response.text.contains(#"href="/movies/424242">Retry</a>"#))
            }
        }
    }

    @Test("every page carries the security headers; nothing is loaded from another site")
    func securityHeaders() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let response = try await client.get("/")
                let csp = try #require(response.headers[.contentSecurityPolicy])
                #expect(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline") && csp.contains("frame-ancestors 'none'"))
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                #expect(!response.text.contains("src=\"http"))
                #expect(!response.text.contains("<script>"))
                let css = try await client.get("/static/app.css")
                #expect(css.status == .ok && css.headers[.contentType]?.hasPrefix("text/css") == true)
            }
        }
    }
}
