import Foundation
import HummingbirdTesting
import Testing

@testable import App

@Suite("Posters")
struct PosterTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0])

    @Test("an allow-listed poster is fetched once, cached on disk and served with long-lived cache headers")
    func cached() async throws {
        let upstream = FakeUpstream { _ in UpstreamResponse(status: 200, contentType: "image/png", body: PosterTests.png) }
        try await TestApp.with(upstream: upstream) { app in
            try await app.test { client in
                let uri = "/posters?seed=1&title=X&src=\(Route.query("https://is1-ssl.mzstatic.com/image/thumb/a/600x600bb.jpg"))"
                for _ in 0..<3 {
                    let response = try await client.get(uri)
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "image/png")
                    #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
                }
                #expect(upstream.calls() == 1)
            }
        }
    }

    @Test("a poster that cannot be fetched is drawn as an SVG with the title, escaped")
    func generated() async throws {
        try await TestApp.with(upstream: FakeUpstream { _ throws(UpstreamError) in throw .unreachable("down") }) { app in
            try await app.test { client in
                let src = Route.query("https://is1-ssl.mzstatic.com/image/x.jpg")
                let response = try await client.get("/posters?seed=7&title=\(Route.query("<b>Tom & Jerry</b>"))&src=\(src)")
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/svg+xml")
                #expect(response.text.contains("&lt;b&gt;Tom &amp;"))
                #expect(!response.text.contains("<b>"))
                #expect(response.headers[.cacheControl] == "public, max-age=600")
            }
        }
    }

    @Test(
        "it is not an open proxy: other hosts are refused",
        arguments: [
            "https://evil.example/a.jpg", "http://127.0.0.1:8080/admin", "https://mzstatic.com.evil.example/a.jpg",
            "https://user@is1-ssl.mzstatic.com/a.jpg", "file:///etc/passwd", "https://is1-ssl.mzstatic.com:8443/a.jpg",
        ])
    func refused(source: String) async throws {
        let upstream = FakeUpstream { _ in UpstreamResponse(status: 200, body: PosterTests.png) }
        try await TestApp.with(upstream: upstream) { app in
            try await app.test { client in
                let response = try await client.get("/posters?seed=1&title=x&src=\(Route.query(source))")
                #expect(response.status == .badRequest)
                #expect(upstream.calls() == 0)
            }
        }
    }

    @Test("something that is not an image is never served as one")
    func notAnImage() async throws {
        let upstream = FakeUpstream { _ in UpstreamResponse(status: 200, contentType: "image/jpeg", body: Data("<html><script>".utf8)) }
        try await TestApp.with(upstream: upstream) { app in
            try await app.test { client in
                let response = try await client.get("/posters?seed=1&title=x&src=\(Route.query("https://static.tvmaze.com/a.jpg"))")
                #expect(response.headers[.contentType] == "image/svg+xml")
            }
        }
    }
}
