import FluentKit
import Foundation
import HummingbirdTesting
import SQLKit
import Testing

@testable import App

/// The periodic clean-up: ended sessions, abandoned visitors and old throttle rows go; nothing live does.
@Suite("Accounts: clean-up")
struct SessionCleanupTests {
    static func count(_ table: String, _ database: AppDatabase) async throws -> Int {
        try await database.sql.raw("SELECT COUNT(*) AS n FROM \(ident: table)").first()?.decode(column: "n", as: Int.self) ?? -1
    }

    @Test("ended and idle sessions go, then visitor profiles nobody can reach (with their lists); live ones stay")
    func sweep() async throws {
        try await TestApp.with { app in
            let database = app.services.database
            let cleanup = SessionCleanup(sessions: app.services.sessions, logger: TestDatabase.logger)
            let ana = try await app.signedIn("ana")
            let remembered = try await app.services.sessions.start(profile: ana.profile, remember: true)
            try await app.test { client in
                let gone = try #require(try await client.postForm("/library/movies/1001", [("favorite", "1")]).sessionCookie)
                let kept = try #require(try await client.postForm("/library/movies/1002", [("favorite", "1")]).sessionCookie)
                _ = try await client.postForm(Route.signIn.path, [("username", "ana"), ("password", "wrong password!")])
                let goneProfile = try #require(try await app.services.sessions.profile(forToken: TestApp.token(gone)))
                #expect(try await cleanup.sweep() == (0, 0))

                app.clock.advance(13 * 3600)
                #expect(try await cleanup.sweep() == (1, 0), "ana's 12-hour session")
                #expect(try await Self.count("login_failures", database) == 0, "older than the sign-in window")
                #expect(try await Self.count("signup_attempts", database) == 0)
                #expect(try await app.services.sessions.profile(forToken: remembered) == ana.profile)

                app.clock.advance(20 * 86_400)
                #expect(try await client.get("/library?list=favorites", cookie: kept).text.contains("January Film"))
                app.clock.advance(11 * 86_400)
                let swept = try await cleanup.sweep()
                #expect(swept == (2, 1), "the idle visitor's and the remembered one past its 30 days; the visitor's profile")
                #expect(try await ProfileModel.find(goneProfile, on: database.db) == nil)
                #expect(try await LibraryEntryModel.query(on: database.db).filter(\.$profileID == goneProfile).count() == 0)
                #expect(try await ProfileModel.find(ana.profile, on: database.db) != nil, "accounts are never swept")
                #expect(try await client.get("/library?list=favorites", cookie: kept).text.contains("January Film"))
                #expect(try await cleanup.sweep() == (0, 0))
            }
        }
    }

    @Test("a visitor profile is kept while it has a session, and a new one however empty")
    func keepsReachableVisitors() async throws {
        try await TestApp.with { app in
            let cleanup = SessionCleanup(sessions: app.services.sessions, logger: TestDatabase.logger)
            let (_, profile) = try await app.services.sessions.startVisitor()
            let orphan = ProfileModel(now: app.clock.now())
            try await orphan.create(on: app.services.database.db)
            #expect(try await cleanup.sweep() == (0, 0), "younger than the idle timeout")
            app.clock.advance(29 * 86_400)
            #expect(try await cleanup.sweep() == (0, 0))
            app.clock.advance(2 * 86_400)
            #expect(try await cleanup.sweep() == (1, 2))
            #expect(try await ProfileModel.find(profile, on: app.services.database.db) == nil)
        }
    }

    @Test("the service sweeps on its interval until it is cancelled")
    func runs() async throws {
        try await TestApp.with { app in
            let cleanup = SessionCleanup(sessions: app.services.sessions, logger: TestDatabase.logger, interval: 0.02)
            let ana = try await app.signedIn("ana")
            app.clock.advance(13 * 3600)
            let task = Task { try await cleanup.run() }
            for _ in 0..<500 {
                if try await Self.count("sessions", app.services.database) == 0 { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            task.cancel()
            try await task.value
            #expect(try await Self.count("sessions", app.services.database) == 0)
            #expect(try await ProfileModel.find(ana.profile, on: app.services.database.db) != nil)
        }
    }
}
