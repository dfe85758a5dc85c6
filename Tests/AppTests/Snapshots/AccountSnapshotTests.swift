import Foundation
import HummingbirdTesting
import Testing

@testable import App

/// The account pages, signed out and signed in.
@Suite("Snapshots: Account")
struct AccountSnapshotTests {
    @Test("signed out: the sign-in and sign-up forms, and the account page's refusal")
    func signedOut() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let signIn = try await client.get("/account/signin")
                #expect(signIn.text.contains(#"name="password""#))
                assertPage(signIn, named: "sign-in")
                assertPage(try await client.get("/account/signup"), named: "sign-up")
                let account = try await client.get("/account")
                #expect(account.text.contains(#"name="password""#))
                assertPage(account, named: "account-signed-out", status: .unauthorized)
            }
        }
    }

    @Test("a sign-up with a password that is too short keeps the username and says why")
    func signUpErrors() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let page = try await client.postForm("/account/signup", [("username", "ana"), ("password", "short pass")])
                #expect(page.text.contains("Use at least 12 characters") && page.text.contains(#"value="ana""#))
                assertPage(page, named: "sign-up-errors", status: .unprocessableContent)
            }
        }
    }

    @Test("signed in: the account page with its API tokens")
    func signedIn() async throws {
        try await TestApp.with { app in
            let account = try await app.signedIn("ana")
            try await app.give(testToken("snapshot-one"), to: account.profile)
            app.clock.advance(3600)
            try await app.give(testToken("snapshot-two"), to: account.profile)
            try await app.test { client in
                let page = try await client.get("/account", cookie: account.cookie)
                #expect(page.text.contains(#"<strong class="account-name">ana</strong>"#) && page.text.contains("Revoke"))
                assertPage(page, named: "account")
            }
        }
    }

    @Test("Notifications: none yet, then a target that fails with its error and its deliveries")
    func notifications() async throws {
        try await TestApp.with { app in
            let account = try await app.signedIn("ana")
            try await app.test { client in
                let empty = try await client.get("/account/notifications", cookie: account.cookie)
                #expect(empty.text.contains("Add a target") && !empty.text.contains("Your targets"))
                assertPage(empty, named: "notifications-empty")
                // A target on the internet that this machine cannot reach: the test says why.
                let made = try await app.services.notificationTargets.add(
                    profile: account.profile, kind: .ntfy, url: "https://ntfy.invalid/my-shows", token: nil,
                    settings: NotificationSettings(onAir: true, delayHours: 2, digest: true, digestHour: 8))
                let report = try await client.postForm(
                    Route.testNotificationTarget.link(made.target.id.uuidString.lowercased()), [], cookie: account.cookie)
                #expect(report.text.contains("Test to ntfy · ntfy.invalid: ntfy.invalid does not resolve"))
                let page = try await client.get("/account/notifications", cookie: account.cookie)
                #expect(page.text.contains("Last error: ntfy.invalid does not resolve") && page.text.contains("Failed for a day") == false)
                assertPage(page, named: "notifications-failing")
            }
        }
    }
}
