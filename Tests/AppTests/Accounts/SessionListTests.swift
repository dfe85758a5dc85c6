import FluentKit
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import App

/// The account page's list of sessions (ASVS 3.3.4): what each is, and signing them out.
@Suite("Accounts: active sessions")
struct SessionListTests {
    static let iPhone =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
    static let firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"

    @Test("devices are named from their User-Agent, briefly")
    func labels() {
        #expect(DeviceLabel.from(userAgent: Self.iPhone) == "Safari on iPhone")
        #expect(DeviceLabel.from(userAgent: Self.firefox) == "Firefox on Linux")
        #expect(
            DeviceLabel.from(
                userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0"
            ) == "Edge on Windows")
        #expect(DeviceLabel.from(userAgent: "curl/8.5.0") == "curl")
        #expect(DeviceLabel.from(userAgent: nil) == "Unknown browser")
        #expect(DeviceLabel.from(userAgent: String(repeating: "x", count: 5000)).count <= DeviceLabel.maximumLength)
    }

    @Test("a sign-in records its browser's label, shown on the account page")
    func signInRecordsDevice() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                _ = try await client.postForm(Route.signUp.path, [("username", "rae"), ("password", AccountTests.password)])
                let page = try await client.csrfToken(cookie: nil)
                let signIn = try await client.execute(
                    uri: Route.signIn.path, method: .post,
                    headers: [.contentType: "application/x-www-form-urlencoded", .userAgent: Self.firefox, .cookie: page.cookie ?? ""],
                    body: ByteBuffer(string: "username=rae&password=\(Route.query(AccountTests.password))&csrf=\(page.token)")
                )
                let cookie = try #require(signIn.sessionCookie)
                let account = try await client.get(Route.account.path, cookie: cookie).text
                #expect(account.contains("Firefox on Linux") && account.contains("This device"))
            }
        }
    }

    @Test("the account page lists every session; one can be signed out, or every other at once; never another account's")
    func listAndEnd() async throws {
        try await TestApp.with { app in
            let ana = try await app.signedIn("ana")
            let bob = try await app.signedIn("bob")
            let sessions = app.services.sessions
            let phone = try await sessions.start(profile: ana.profile, remember: true, device: DeviceLabel.from(userAgent: Self.iPhone))
            app.clock.advance(60)
            let laptop = try await sessions.start(profile: ana.profile, device: DeviceLabel.from(userAgent: Self.firefox))
            try await app.test { client in
                let page = try await client.get(Route.account.path, cookie: ana.cookie).text
                #expect(page.contains("Safari on iPhone") && page.contains("Firefox on Linux") && page.contains("This device"))
                #expect(page.contains("(remembered)") && page.contains("Sign out everywhere else"))
                #expect(!page.contains(String(SessionService.hash(phone).prefix(40))), "no session's hash is shown whole")
                let phoneRow = try #require(page.firstMatch(of: #/Safari on iPhone.*?action="([^"]+)"/#.dotMatchesNewlines())?.output.1)
                let laptopRow = try #require(page.firstMatch(of: #/Firefox on Linux.*?action="([^"]+)"/#.dotMatchesNewlines())?.output.1)

                // Bob cannot end Ana's session, even knowing its address.
                let foreign = try await client.postForm(String(laptopRow), [], cookie: bob.cookie)
                #expect(foreign.status == .notFound)
                #expect(try await sessions.profile(forToken: laptop) == ana.profile)

                let ended = try await client.postForm(String(phoneRow), [], cookie: ana.cookie)
                #expect(ended.status == .seeOther && ended.headers[.location] == "/account?done=session#sessions")
                #expect(try await sessions.profile(forToken: phone) == nil)
                #expect(try await sessions.profile(forToken: laptop) == ana.profile)

                let others = try await client.postForm(Route.endOtherSessions.path, [], cookie: ana.cookie)
                #expect(others.status == .seeOther && others.headers[.location] == "/account?done=others#sessions")
                #expect(try await sessions.profile(forToken: laptop) == nil)
                let after = try await client.get(Route.account.path + "?done=others", cookie: ana.cookie)
                #expect(after.status == .ok && after.text.contains("Every other device was signed out."))
                #expect(!after.text.contains("Sign out everywhere else"))
                #expect(try await sessions.profile(forToken: TestApp.token(bob.cookie)) == bob.profile)
            }
        }
    }
}
