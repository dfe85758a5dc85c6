import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SQLKit
import Testing

@testable import App

/// One client searching for new titles non-stop cannot use up iTunes' allowance for everyone:
/// past its limit (30 iTunes calls a minute by default; 5 here) its calls are not made, and it is
/// answered from what PopcornSwirl holds, marked, never refused. Others still get live answers.
@Suite("Abuse limit per client")
struct FairShareTests {
    static func itunesSearches(_ app: TestApp) -> Int {
        app.upstream.requested(host: "itunes.test").filter { $0.path.hasSuffix("/search") }.count
    }

    static func fivePerMinute(_ config: inout AppConfig) { config.shares.itunesPerMinute = 5 }

    @Test(
        "past its limit a client's new search answers 200 from the title index with a note; no call is made; others and, a minute on, itself get live answers"
    )
    func greedyClientAnsweredLocally() async throws {
        try await TestApp.with(configure: Self.fivePerMinute) { app in
            let greedy = try await app.signedIn("greedy").cookie
            let other = try await app.signedIn("other").cookie
            try await app.test { client in
                for index in 1...5 {
                    #expect(try await client.get("/search?q=film\(index)", cookie: greedy).status == .ok)
                }
                #expect(Self.itunesSearches(app) == 5)
                let local = try await client.get("/search?q=Spider", cookie: greedy)
                #expect(local.status == .ok)
                #expect(local.headers[.retryAfter] == nil)
                #expect(local.text.contains("will be asked again in a moment"))
                #expect(!local.text.contains("Slow down"))
                // The limit cost the shared allowance nothing.
                #expect(Self.itunesSearches(app) == 5)
                // A year list nobody has asked for: the built-in films of that year, marked.
                let year = try await client.get("/movies?year=2018", cookie: greedy)
                #expect(year.status == .ok && year.text.contains("2018’s films are on their way from iTunes"))
                // What is cached still opens.
                #expect(try await client.get("/search?q=film1", cookie: greedy).status == .ok)

                let live = try await client.get("/search?q=Spider", cookie: other)
                #expect(live.status == .ok)
                #expect(live.text.contains("Spider-Man"))
                #expect(!live.text.contains("will be asked again"))

                app.clock.advance(61)
                let again = try await client.get("/search?q=Joker", cookie: greedy)
                #expect(again.status == .ok && !again.text.contains("will be asked again"))
            }
        }
    }

    @Test("the API answers 200 with the source `local` past the limit, per token and its browser alike")
    func apiAnsweredLocally() async throws {
        try await TestApp.with(configure: Self.fivePerMinute) { app in
            let account = try await app.signedIn("scripted")
            let token = testToken("fairshare")
            try await app.give(token, to: account.profile)
            try await app.test { client in
                var headers = HTTPFields()
                headers[.authorization] = "Bearer \(token)"
                headers[.accept] = "application/json"
                var kinds: [String] = []
                for index in 1...6 {
                    let answer = try await client.execute(uri: "/api/v1/search?q=title\(index)", method: .get, headers: headers)
                    #expect(answer.status == .ok)
                    let object = try JSONSerialization.jsonObject(with: Data(buffer: answer.body)) as? [String: Any]
                    kinds.append(((object?["source"] as? [String: Any])?["kind"] as? String) ?? "?")
                }
                #expect(kinds == Array(repeating: "live", count: 5) + ["local"])
                // The same account in a browser has the same limit.
                let page = try await client.get("/search?q=title7", cookie: account.cookie)
                #expect(page.status == .ok && page.text.contains("will be asked again in a moment"))
            }
        }
    }

    @Test("visitors are counted by address, not by cookie: a new visitor is not a new limit")
    func visitorsShareTheirAddress() async throws {
        try await TestApp.with(configure: Self.fivePerMinute) { app in
            let first = try await app.visitor()
            let second = try await app.visitor()
            try await app.test { client in
                for index in 1...5 {
                    let answer = try await client.get("/api/v1/search?q=visit\(index)", cookie: first, accept: "application/json")
                    #expect(answer.status == .ok)
                }
                let api = try await client.get("/api/v1/search?q=visit6", cookie: second, accept: "application/json")
                let page = try await client.get("/search?q=visit7", cookie: second)
                #expect(api.status == .ok && page.status == .ok)
                #expect(page.text.contains("will be asked again in a moment"))
                #expect(Self.itunesSearches(app) == 5)
            }
        }
    }

    @Test("a client over its share is shown a stale answer rather than refused, when one is cached")
    func staleBeforeRefusal() async throws {
        try await TestApp.with { app in
            let cookie = try await app.signedIn("reader").cookie
            try await app.test { client in
                #expect(try await client.get("/search?q=Spider", cookie: cookie).status == .ok)
                app.clock.advance(SearchService.freshness + 60)
                for index in 1...5 {
                    #expect(try await client.get("/search?q=other\(index)", cookie: cookie).status == .ok)
                }
                let stale = try await client.get("/search?q=Spider", cookie: cookie)
                #expect(stale.status == .ok)
                #expect(stale.text.contains("Spider-Man"))
            }
        }
    }

    @Test("the shares are counted in the database, so every server counts the same calls; the clean-up clears old rows")
    func countedInDatabase() async throws {
        try await TestApp.with { app in
            let cookie = try await app.signedIn("counted").cookie
            try await app.test { client in
                for index in 1...3 { _ = try await client.get("/search?q=count\(index)", cookie: cookie) }
            }
            let rows = try await app.services.database.sql.raw(
                "SELECT COUNT(*) AS n FROM upstream_shares WHERE api = \(bind: "itunes")"
            ).first()?.decode(column: "n", as: Int.self)
            #expect(rows == 3)
            app.clock.advance(2 * 86_400)
            _ = try await SessionCleanup(sessions: app.services.sessions, logger: TestDatabase.logger).sweep()
            let left = try await app.services.database.sql.raw("SELECT COUNT(*) AS n FROM upstream_shares").first()?
                .decode(column: "n", as: Int.self)
            #expect(left == 0)
        }
    }

    @Test("SHARE_ITUNES_PER_MINUTE and the others set the shares; 0 turns one off; nonsense is refused")
    func configuration() throws {
        let config = try AppConfig.fromEnvironment(["SHARE_ITUNES_PER_MINUTE": "12", "SHARE_OMDB_PER_DAY": "0"])
        #expect(config.shares.itunesPerMinute == 12)
        #expect(config.shares.omdbPerDay == 0)
        #expect(config.shares.tvmazePerMinute == ClientShare.Limits().tvmazePerMinute)
        #expect(throws: AppConfig.ConfigError.self) { try AppConfig.fromEnvironment(["SHARE_TVMAZE_PER_MINUTE": "lots"]) }
    }
}
