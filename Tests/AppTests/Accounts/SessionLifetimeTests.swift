import FluentKit
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import App

/// "Remember me", absolute and idle lifetimes, and the cookies that go with them (ASVS 3.3).
@Suite("Accounts: session lifetimes")
struct SessionLifetimeTests {
    static let password = AccountTests.password

    @Test("without 'remember me': a cookie without Max-Age or Expires, and a session that ends 12 hours after sign-in however used")
    func browserSession() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let signUp = try await client.postForm(Route.signUp.path, [("username", "nia"), ("password", Self.password)])
                let line = try #require(signUp.sessionSetCookie)
                #expect(!line.contains("Max-Age") && !line.contains("Expires"), "\(line)")
                let cookie = try #require(signUp.sessionCookie)
                for _ in 0..<11 {
                    app.clock.advance(3600)
                    #expect(try await client.get(Route.account.path, cookie: cookie).status == .ok)
                }
                app.clock.advance(3601)
                #expect(try await client.get(Route.account.path, cookie: cookie).status == .unauthorized)
                let signIn = try await client.postForm(Route.signIn.path, [("username", "nia"), ("password", Self.password)])
                #expect(signIn.status == .seeOther && signIn.sessionSetCookie?.contains("Max-Age") == false)
            }
        }
    }

    @Test("with 'remember me': the cookie's Max-Age is the session's 30 days, which end however the session is used")
    func rememberedSession() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                _ = try await client.postForm(Route.signUp.path, [("username", "oto"), ("password", Self.password)])
                let signIn = try await client.postForm(
                    Route.signIn.path, [("username", "oto"), ("password", Self.password), ("remember", "1")])
                #expect(try #require(signIn.sessionSetCookie).contains("Max-Age=2592000"))
                let cookie = try #require(signIn.sessionCookie)
                for _ in 0..<29 {
                    app.clock.advance(86_400)
                    #expect(try await client.get(Route.account.path, cookie: cookie).status == .ok)
                }
                app.clock.advance(86_400)
                #expect(try await client.get(Route.account.path, cookie: cookie).status == .unauthorized)
            }
        }
    }

    @Test("a remembered session still ends when unused for SESSION_IDLE_DAYS")
    func rememberedIdle() async throws {
        try await TestApp.with(configure: { $0.sessionIdleDays = 7 }) { app in
            try await app.test { client in
                let signUp = try await client.postForm(
                    Route.signUp.path, [("username", "pia"), ("password", Self.password), ("remember", "1")])
                let cookie = try #require(signUp.sessionCookie)
                app.clock.advance(6 * 86_400)
                #expect(try await client.get(Route.account.path, cookie: cookie).status == .ok)
                app.clock.advance(7 * 86_400 + 1)
                #expect(try await client.get(Route.account.path, cookie: cookie).status == .unauthorized)
            }
        }
    }

    @Test("a visitor's session cookie lasts no longer than the idle timeout, from a page or the API")
    func visitorCookie() async throws {
        try await TestApp.with(configure: { $0.sessionIdleDays = 7 }) { app in
            try await app.test { client in
                let save = try await client.postForm("/library/movies/1001", [("favorite", "1")])
                #expect(try #require(save.sessionSetCookie).contains("Max-Age=604800"))
                let api = try await client.sendJSON("/api/v1/library/movies/1002", method: .put, #"{"favorite":true}"#)
                #expect(api.status == .ok)
                #expect(try #require(api.sessionSetCookie).contains("Max-Age=604800"))
            }
        }
    }

    @Test("a password change keeps the session's 'remember me' and its end")
    func passwordChangeKeepsLifetime() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let signUp = try await client.postForm(
                    Route.signUp.path, [("username", "quin"), ("password", Self.password), ("remember", "1")])
                let cookie = try #require(signUp.sessionCookie)
                app.clock.advance(86_400)
                let changed = try await client.postForm(
                    Route.changePassword.path, [("current", Self.password), ("password", "a new long passphrase")], cookie: cookie)
                #expect(changed.status == .seeOther)
                #expect(try #require(changed.sessionSetCookie).contains("Max-Age=\(29 * 86_400)"))
            }
        }
    }

    @Test("existing sessions get an end from migration 010: an account's 30 days after it began, a visitor's none")
    func migratedSessions() async throws {
        try await TestDatabase.with { database in
            let sql = try database.sql
            let began = Date(timeIntervalSince1970: 1_790_000_000)
            for (kind, hash) in [("account", "a"), ("visitor", "v")] {
                let profile = UUID()
                try await sql.raw(
                    "INSERT INTO profiles (id, kind, created_at, updated_at) VALUES (\(bind: profile), \(bind: kind), \(bind: began), \(bind: began))"
                ).run()
                try await sql.raw(
                    """
                    INSERT INTO sessions (token_hash, profile_id, created_at, last_seen_at, remember)
                    VALUES (\(bind: hash), \(bind: profile), \(bind: began), \(bind: began), \(bind: false))
                    """
                ).run()
            }
            // These rows have the columns' defaults, as rows from before 010 get: the migration's last step fills them.
            try await AddSessionDetails.backfill(sql)
            let account = try #require(try await SessionModel.find("a", on: database.db))
            #expect(account.remember && account.expiresAt == began.addingTimeInterval(30 * 86_400))
            let visitor = try #require(try await SessionModel.find("v", on: database.db))
            #expect(!visitor.remember && visitor.expiresAt == nil)
        }
    }
}
