import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SQLKit
import Testing

@testable import App

/// One client searching for new titles non-stop cannot use up iTunes' allowance for everyone:
/// past its share (5 iTunes calls a minute by default) it is told to wait, and others still get
/// live answers.
@Suite("Fair share of the upstream allowance")
struct FairShareTests {
    static func itunesSearches(_ app: TestApp) -> Int {
        app.upstream.requested(host: "itunes.test").filter { $0.path.hasSuffix("/search") }.count
    }

    @Test("past its share a client's new search is 429 with Retry-After; its cached ones, other people and, a minute on, itself still search")
    func greedyClientWaits() async throws {
        try await TestApp.with { app in
            let greedy = try await app.signedIn("greedy").cookie
            let other = try await app.signedIn("other").cookie
            try await app.test { client in
                for index in 1...5 {
                    #expect(try await client.get("/search?q=film\(index)", cookie: greedy).status == .ok)
                }
                #expect(Self.itunesSearches(app) == 5)
                let refused = try await client.get("/search?q=film6", cookie: greedy)
                #expect(refused.status == .tooManyRequests)
                let wait = try #require(refused.headers[.retryAfter].flatMap(Int.init))
                #expect((1...60).contains(wait))
                #expect(refused.text.contains("Slow down a little"))
                #expect(refused.text.contains("Try again in \(wait) second"))
                // The refusal cost the shared allowance nothing.
                #expect(Self.itunesSearches(app) == 5)
                // A year list nobody has asked for needs iTunes too.
                #expect(try await client.get("/movies?year=2018", cookie: greedy).status == .tooManyRequests)
                // What is cached still opens.
                #expect(try await client.get("/search?q=film1", cookie: greedy).status == .ok)

                let live = try await client.get("/search?q=Spider", cookie: other)
                #expect(live.status == .ok)
                #expect(live.text.contains("Spider-Man"))
                let visitor = try await client.get("/api/v1/search?q=Joker", accept: "application/json")
                #expect(visitor.status == .ok)

                app.clock.advance(61)
                #expect(try await client.get("/search?q=film6", cookie: greedy).status == .ok)
            }
        }
    }

    @Test("the API answers problem+json 429 with Retry-After, per token")
    func apiRefusal() async throws {
        try await TestApp.with { app in
            let account = try await app.signedIn("scripted")
            let token = testToken("fairshare")
            try await app.give(token, to: account.profile)
            try await app.test { client in
                var headers = HTTPFields()
                headers[.authorization] = "Bearer \(token)"
                headers[.accept] = "application/json"
                var statuses: [HTTPResponse.Status] = []
                var last: TestResponse?
                for index in 1...6 {
                    let answer = try await client.execute(uri: "/api/v1/search?q=title\(index)", method: .get, headers: headers)
                    statuses.append(answer.status)
                    last = answer
                }
                #expect(statuses == Array(repeating: .ok, count: 5) + [.tooManyRequests])
                let refused = try #require(last)
                #expect(refused.headers[.contentType] == "application/problem+json")
                #expect(refused.headers[.retryAfter].flatMap(Int.init) != nil)
                let problem = try JSONSerialization.jsonObject(with: Data(buffer: refused.body)) as? [String: Any]
                #expect(problem?["status"] as? Int == 429)
                // The same account in a browser has the same share.
                #expect(try await client.get("/search?q=title7", cookie: account.cookie).status == .tooManyRequests)
            }
        }
    }

    @Test("visitors are counted by address, not by cookie: a new visitor is not a new share")
    func visitorsShareTheirAddress() async throws {
        try await TestApp.with { app in
            let first = try await app.visitor()
            let second = try await app.visitor()
            try await app.test { client in
                for index in 1...5 {
                    let answer = try await client.get("/api/v1/search?q=visit\(index)", cookie: first, accept: "application/json")
                    #expect(answer.status == .ok)
                }
                let api = try await client.get("/api/v1/search?q=visit6", cookie: second, accept: "application/json")
                let page = try await client.get("/search?q=visit7", cookie: second)
                #expect(api.status == .tooManyRequests && page.status == .tooManyRequests)
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
