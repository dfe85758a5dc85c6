import Foundation
import Testing

@testable import App

/// The episode lists PopcornSwirl holds: a list held without its specials (TVMaze refused that one
/// call) is asked for again within minutes, not kept as it is for a day.
@Suite("Episode lists")
struct EpisodeCatalogTests {
    @Test("a list whose specials TVMaze refused is held without them, and asked for again five minutes later")
    func specialsRefused() async throws {
        try await TestApp.with { app in
            app.upstream.respond { url throws(UpstreamError) in
                if url.host == "tvmaze.test", url.query?.contains("specials") == true { return UpstreamResponse(status: 429, body: Data()) }
                return try Fixtures.itunesAnswer(for: url)
            }
            let first = try #require(await app.services.episodeCatalog.prepare(showID: 139))
            #expect(first.source == .tvmaze && !first.isStale)
            #expect(try await app.services.episodes.episodes(showID: 139).filter(\.isSpecial).isEmpty, "held without its special")

            app.upstream.respond { url throws(UpstreamError) in try Fixtures.itunesAnswer(for: url) }
            app.clock.advance(60)
            _ = await app.services.episodeCatalog.prepare(showID: 139)
            #expect(try await app.services.episodes.episodes(showID: 139).filter(\.isSpecial).isEmpty, "not asked again at once")
            app.clock.advance(EpisodeCatalog.specialsRetry)
            _ = await app.services.episodeCatalog.prepare(showID: 139)
            #expect(try await app.services.episodes.episodes(showID: 139).filter(\.isSpecial).map(\.id) == [1_512_344])
        }
    }
}
