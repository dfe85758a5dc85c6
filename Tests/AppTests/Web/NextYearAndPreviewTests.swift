import Foundation
import HummingbirdTesting
import Testing

@testable import App

/// The year picker reaches next year (films iTunes already announces), and a film's page plays its
/// iTunes preview on request.
@Suite("Next year's films and previews")
struct NextYearAndPreviewTests {
    static let announced = Data(
        #"""
        {"resultCount":1,"results":[{"wrapperType":"track","kind":"feature-movie","trackId":7001,"trackName":"Announced Sequel",
        "releaseDate":"2027-05-14T07:00:00Z","primaryGenreName":"Action & Adventure"}]}
        """#.utf8)

    @Test("the picker offers next year, whose films come from iTunes (page and API); the year after is refused")
    func nextYear() async throws {
        let upstream = FakeUpstream.itunesFixtures()
        upstream.respond { url throws(UpstreamError) in
            if url.query?.contains("term=2027") == true { return UpstreamResponse(status: 200, body: Self.announced) }
            return try Fixtures.itunesAnswer(for: url)
        }
        try await TestApp.with(upstream: upstream) { app in
            try await app.test { client in
                let home = try await client.get("/").text
                #expect(home.contains(#"<option value="2027">"#) && home.contains(#"<option value="2026" selected>"#))
                #expect(!home.contains(#"<option value="2028""#))
                let next = try await client.get("/movies?year=2027")
                #expect(next.status == .ok)
                #expect(next.text.contains("Announced Sequel"))
                #expect(next.text.contains(#"<option value="2027" selected>"#))
                let api = try await client.get("/api/v1/movies?year=2027", accept: "application/json")
                #expect(api.status == .ok && api.text.contains("Announced Sequel"))
                let searches = app.upstream.calls("/search")
                let later = try await client.get("/api/v1/movies?year=2028", accept: "application/json")
                let body = try JSONSerialization.jsonObject(with: Data(later.text.utf8)) as? [String: Any]
                #expect(later.status == .ok && (body?["movies"] as? [Any])?.isEmpty == true)
                #expect(app.upstream.calls("/search") == searches, "a year with nothing announced yet is not asked for")
                #expect(try await client.get("/movies?year=2028").status == .badRequest)
            }
        }
    }

    @Test("a film with a preview gets a player that waits to be started, with the poster as its frame; without one, nothing")
    func preview() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let page = try await client.get("/movies/1001")
                let html = page.text
                #expect(html.contains(#"<video class="preview-video" controls preload="none" playsinline poster="/posters?"#))
                #expect(html.contains(#"src="https://video-ssl.itunes.apple.com/preview/1001.m4v""#))
                #expect(!html.contains("autoplay"))
                #expect(page.headers[.contentSecurityPolicy]?.contains("media-src https://video-ssl.itunes.apple.com") == true)
                let none = try await client.get("/movies/1002").text
                #expect(!none.contains("<video") && !none.contains("Preview"))
            }
        }
    }

    @Test(
        "only https previews on Apple's preview host are played",
        arguments: [
            ("https://video-ssl.itunes.apple.com/a/b.m4v", true), ("http://video-ssl.itunes.apple.com/a/b.m4v", false),
            ("https://evil.example/b.m4v", false), ("https://video-ssl.itunes.apple.com:8443/b.m4v", false),
            ("https://user@video-ssl.itunes.apple.com/b.m4v", false), ("javascript:alert(1)", false),
        ])
    func previewHosts(url: String, playable: Bool) {
        #expect((ITunesPreview.playable(url) != nil) == playable)
    }
}
