import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SQLKit
import Testing

@testable import App

/// A client that keeps no cookie starts a new visitor with every write; past a number of new
/// visitors per address and hour it is told to wait, so a flood of anonymous writes cannot fill
/// the database with profiles.
@Suite("New visitors per address")
struct VisitorThrottleTests {
    static func profiles(_ app: TestApp) async throws -> Int {
        try await app.services.database.sql.raw("SELECT COUNT(*) AS n FROM profiles").first()?.decode(column: "n", as: Int.self) ?? -1
    }

    @Test(
        "past the limit a cookieless write is 429 with Retry-After and saves nothing; a visitor with its cookie still saves; an hour on, new ones start again"
    )
    func cookielessWrites() async throws {
        try await TestApp.with(configure: { $0.newVisitorsPerHour = 3 }) { app in
            try await app.test { client in
                var cookies: [String] = []
                for _ in 1...3 {
                    let saved = try await client.sendJSON("/api/v1/library/movies/1001", method: .put, #"{"favorite": true}"#)
                    #expect(saved.status == .ok)
                    cookies.append(try #require(saved.sessionCookie))
                }
                let refused = try await client.sendJSON("/api/v1/library/movies/1001", method: .put, #"{"favorite": true}"#)
                #expect(refused.status == .tooManyRequests)
                #expect(refused.headers[.contentType]?.hasPrefix("application/problem+json") == true)
                let wait = try #require(refused.headers[.retryAfter].flatMap(Int.init))
                #expect((3000...3600).contains(wait))
                #expect(refused.sessionCookie == nil)
                #expect(try await Self.profiles(app) == 3)

                // A show over the API, and a page's form, are refused the same way.
                let show = try await client.execute(uri: "/api/v1/library/shows/139", method: .put, headers: [.accept: "application/json"])
                #expect(show.status == .tooManyRequests)
                let form = try await client.postForm("/library/movies/1001", [("favorite", "1")])
                #expect(form.status == .tooManyRequests)
                #expect(form.headers[.retryAfter] != nil)
                #expect(form.text.contains("Too many new visitors from your network"))
                #expect(try await Self.profiles(app) == 3)

                // Someone who already has a session is not a new visitor.
                let existing = try await client.sendJSON("/api/v1/library/movies/1002", method: .put, #"{"favorite": true}"#, cookie: cookies[0])
                #expect(existing.status == .ok)

                app.clock.advance(3601)
                #expect(try await client.sendJSON("/api/v1/library/movies/1001", method: .put, #"{"favorite": true}"#).status == .ok)
            }
            app.clock.advance(3601)
            _ = try await SessionCleanup(sessions: app.services.sessions, logger: TestDatabase.logger).sweep()
            let left = try await app.services.database.sql.raw("SELECT COUNT(*) AS n FROM visitor_starts").first()?.decode(column: "n", as: Int.self)
            #expect(left == 0)
        }
    }

    @Test("NEW_VISITORS_PER_HOUR sets the limit; 0 turns it off")
    func configuration() throws {
        #expect(try AppConfig.fromEnvironment(["NEW_VISITORS_PER_HOUR": "0"]).newVisitorsPerHour == 0)
        #expect(try AppConfig.fromEnvironment([:]).newVisitorsPerHour == 30)
        #expect(throws: AppConfig.ConfigError.self) { try AppConfig.fromEnvironment(["NEW_VISITORS_PER_HOUR": "-1"]) }
    }
}
