import Foundation
import HummingbirdTesting
import SQLKit
import Testing

@testable import App

/// TVMaze over its allowance never refuses an event: it waits, is asked again, and lands; after a
/// day of refusals it waits for the person instead.
@Suite("Media server integrations: an upstream's limits")
struct IntegrationRetryTests {
    @Test("a 429 from TVMaze makes the event wait, marked on the page; asked again later it lands; a day of refusals puts it in Needs review")
    func waitsForTheUpstream() async throws {
        try await IntegrationTests.with { app in
            let person = try await app.signedIn("skyler")
            let url = try await IntegrationTests.integration(app, person.profile, .plex)
            let normal = IntegrationTests.upstream()
            app.upstream.respond { url throws(UpstreamError) in
                if url.host == "tvmaze.test" { return UpstreamResponse(status: 429, body: Data()) }
                return try await normal.get(url, headers: [])
            }
            try await app.test { client in
                #expect(try await IntegrationTests.post(client, url.path, fixture: "plex-episode-scrobble", kind: .plex).status == .accepted)
                var events = try await IntegrationTests.events(app, person.profile)
                #expect(events.first?.state == .retry && events.first?.detail?.contains("allowance") == true, "\(events)")
                let page = try await client.get(Route.integrations.path, cookie: person.cookie)
                #expect(page.text.contains("Waiting: Waiting for TVMaze"))
                // TVMaze answers again: the next sweep after the wait lands it.
                app.upstream.respond { url throws(UpstreamError) in try await normal.get(url, headers: []) }
                app.clock.advance(3600)
                try await app.services.integrationWorker.round()
                events = try await app.services.integrations.events(profile: person.profile)
                #expect(events.first?.result == .watched)
                #expect(try await IntegrationTests.episodeWatches(app, person.profile, IntegrationTests.catInTheBag) == 1)

                // Refused for a whole day: the person is asked instead.
                app.upstream.respond { url throws(UpstreamError) in
                    if url.host == "tvmaze.test" { return UpstreamResponse(status: 429, body: Data()) }
                    return try await normal.get(url, headers: [])
                }
                let other = try await IntegrationTests.integration(app, person.profile, .emby)
                #expect(try await IntegrationTests.post(client, other.path, fixture: "emby-unknown-show", kind: .emby).status == .accepted)
                for _ in 0..<30 {
                    app.clock.advance(3600)
                    try await app.services.integrationWorker.round()
                }
                events = try await app.services.integrations.events(profile: person.profile)
                #expect(events.first?.state == .waiting && events.first?.detail?.contains("Asked for a day") == true, "\(events.first as Any)")
            }
        }
    }
}
