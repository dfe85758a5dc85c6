import FluentKit
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import App

/// API tokens are credentials that outlive a session: making one asks for the password, and a new
/// password revokes them unless kept (ASVS 3.5).
@Suite("Accounts: tokens and the password")
struct TokenPasswordTests {
    static let password = AccountTests.password

    @Test("making a token asks for the password again; wrong ones make none and count towards the sign-in limit")
    func tokenNeedsPassword() async throws {
        try await TestApp.with { app in
            let ana = try await app.signedIn("ana", password: Self.password)
            try await app.test { client in
                let missing = try await client.postForm(Route.createToken.path, [("name", "script")], cookie: ana.cookie)
                #expect(missing.status == .unprocessableContent && missing.text.contains("That password is not right; no token was made."))
                for _ in 1..<LoginThrottle.limit {
                    let wrong = try await client.postForm(
                        Route.createToken.path, [("name", "script"), ("password", "not my password")], cookie: ana.cookie)
                    #expect(wrong.status == .unprocessableContent)
                }
                let blocked = try await client.postForm(
                    Route.createToken.path, [("name", "script"), ("password", Self.password)], cookie: ana.cookie)
                #expect(blocked.status == .tooManyRequests && blocked.headers[.retryAfter] != nil)
                #expect(blocked.text.contains("Too many wrong passwords."))
                #expect(try await APITokenModel.query(on: app.services.database.db).count() == 0)
                #expect(blocked.text.contains(#"id="token-password""#))
            }
        }
    }

    @Test("changing the password revokes every API token unless 'Keep my API tokens' is ticked")
    func passwordChangeRevokesTokens() async throws {
        try await TestApp.with { app in
            let ana = try await app.signedIn("ana", password: Self.password)
            let first = testToken("first-token")
            let second = testToken("second-token")
            try await app.give(first, to: ana.profile)
            try await app.test { client in
                #expect(try await TokenAndAuthorizationTests.api(client, "/api/v1/library", token: first).status == .ok)
                let changed = try await client.postForm(
                    Route.changePassword.path, [("current", Self.password), ("password", "a new long passphrase")], cookie: ana.cookie)
                #expect(changed.status == .seeOther && changed.headers[.location] == "/account?done=password-tokens")
                #expect(try await TokenAndAuthorizationTests.api(client, "/api/v1/library", token: first).status == .unauthorized)
                #expect(try await APITokenModel.query(on: app.services.database.db).count() == 0)
                let cookie = "\(try #require(changed.sessionCookie)); \(TestApp.csrfCookie)"
                let notice = try await client.get(try #require(changed.headers[.location]), cookie: cookie)
                #expect(notice.text.contains("your API tokens were revoked"))

                try await app.give(second, to: ana.profile)
                let kept = try await client.postForm(
                    Route.changePassword.path,
                    [("current", "a new long passphrase"), ("password", "another long passphrase"), ("keep_tokens", "1")], cookie: cookie)
                #expect(kept.status == .seeOther && kept.headers[.location] == "/account?done=password")
                #expect(try await TokenAndAuthorizationTests.api(client, "/api/v1/library", token: second).status == .ok)
            }
        }
    }
}
