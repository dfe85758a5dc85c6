import Foundation
import HummingbirdTesting
import Testing

@testable import App

/// "Any failed user action shows a retry dialog": a page answered from a fallback (stale cache or the
/// built-in catalogue) says so and offers Retry — the same address again.
@Suite("Fallbacks say what happened and offer Retry")
struct FallbackNoticeTests {
    static let retry = #"<a class="notice-retry" href=""#

    /// The notice line of a page, or nil.
    static func notice(_ html: String) -> String? {
        html.firstMatch(of: /<p class="notice" role="status">(.*?)<\/p>/).map { String($0.1) }
    }

    @Test("TV index page 2 with TVMaze unreachable: says it, explains the empty page, and offers Retry of page 2")
    func tvIndexPageTwo() async throws {
        try await TestApp.with { app in
            app.upstream.fail(host: "tvmaze.test") { _ throws(UpstreamError) in throw .unreachable("down") }
            try await app.test { client in
                let html = try await client.get("/shows?page=2").text
                let notice = try #require(Self.notice(html))
                #expect(notice.contains("TVMaze can’t be reached") && notice.contains(Self.retry + #"/shows?page=2">Retry</a>"#), "\(notice)")
                #expect(html.contains("built-in catalogue has only its first page"))
            }
        }
    }

    @Test("a TV name search answered from the bundled shows says so and offers Retry of the same search")
    func tvNameSearch() async throws {
        try await TestApp.with { app in
            app.upstream.fail(host: "tvmaze.test") { _ throws(UpstreamError) in throw .unreachable("down") }
            try await app.test { client in
                let html = try await client.get("/shows?q=girls").text
                let notice = try #require(Self.notice(html))
                #expect(notice.contains("TVMaze can’t be reached") && notice.contains(Self.retry + #"/shows?q=girls">Retry</a>"#))
                // On Search, iTunes answered but TVMaze did not: the shows part is still announced.
                let search = try await client.get("/search?q=girls").text
                let searchNotice = try #require(Self.notice(search), "the Search page fell back for shows without a word")
                #expect(searchNotice.contains("TVMaze can’t be reached") && searchNotice.contains(Self.retry + #"/search?q=girls">Retry</a>"#))
            }
        }
    }

    @Test("a year outside the bundled catalogue with iTunes unreachable says what happened and offers Retry of that year")
    func yearOutsideCatalogue() async throws {
        try await TestApp.with { app in
            app.upstream.respond { _ throws(UpstreamError) in throw .unreachable("down") }
            try await app.test { client in
                let html = try await client.get("/movies?year=1999").text
                let notice = try #require(Self.notice(html))
                #expect(notice.contains("iTunes can’t be reached") && notice.contains(Self.retry + #"/movies?year=1999">Retry</a>"#))
                #expect(html.contains("No films from 1999 are in the offline catalogue"))
            }
        }
    }

    @Test("a live page has no notice and no Retry")
    func livePage() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let html = try await client.get("/movies?year=2026").text
                #expect(Self.notice(html) == nil && !html.contains("notice-retry"))
            }
        }
    }
}
