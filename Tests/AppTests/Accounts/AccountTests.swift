import FluentKit
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import App

/// Accounts over HTTP: sign-up keeps a visitor's lists, sign-in merges them, sessions rotate and end.
@Suite("Accounts")
struct AccountTests {
    static let password = "correct horse battery staple"

    @Test("signing up keeps what the visitor saved, and the session id changes (the visitor's old cookie stops working)")
    func signUpKeepsLists() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let save = try await client.postForm("/library/movies/1001", [("favorite", "1"), ("return_to", "/")])
                let visitor = try #require(save.sessionCookie)
                let signUp = try await client.postForm(
                    "/account/signup", [("username", "Ana"), ("password", Self.password), ("next", "/library?list=all")], cookie: visitor)
                #expect(signUp.status == .seeOther)
                #expect(signUp.headers[.location] == "/library?list=all")
                let account = try #require(signUp.sessionCookie)
                #expect(account != visitor)
                #expect(try await client.get("/library?list=favorites", cookie: account).text.contains("Middle Of The Year"))
                #expect(try await client.get("/library?list=favorites", cookie: visitor).text.contains("No favorites yet"))
                let page = try await client.get("/account", cookie: account)
                #expect(page.status == .ok && page.text.contains(#"<strong class="account-name">ana</strong>"#))
            }
        }
    }

    @Test("sign-up refuses short, common and username-containing passwords and taken names, saying why")
    func signUpRules() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cases: [(String, String, String)] = [
                    ("ana", "short pass", "Use at least 12 characters"),
                    ("ana", "password1234", "one of the most common ones"),
                    ("ana", "aaaaaaaaaaaaaaaa", "one of the most common ones"),
                    ("ana", "my-ana-password!", "must not contain your username"),
                    ("a", Self.password, "Usernames have 3 to 32"),
                    ("ana", String(repeating: "x1", count: 65), "at most 128"),
                ]
                for (username, password, message) in cases {
                    let response = try await client.postForm("/account/signup", [("username", username), ("password", password)])
                    #expect(response.status == .unprocessableContent, "\(password)")
                    #expect(response.text.contains(message), "\(password): \(message)")
                    #expect(response.sessionCookie == nil)
                }
                _ = try await client.postForm("/account/signup", [("username", "ana"), ("password", Self.password)])
                let taken = try await client.postForm("/account/signup", [("username", "ANA"), ("password", Self.password + "!")])
                #expect(taken.status == .unprocessableContent && taken.text.contains("That username is taken."))
            }
        }
    }

    @Test("signing in merges the visitor's lists: one entry per title, flags combined, the newer note kept")
    func signInMerges() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let created = try await client.postForm("/account/signup", [("username", "ben"), ("password", Self.password)])
                let ben = try #require(created.sessionCookie)
                _ = try await client.postForm(
                    "/library/movies/1001", [("favorite", "1"), ("watched", "1"), ("note", "Older note"), ("return_to", "/")], cookie: ben)
                _ = try await client.postForm(Route.signOut.path, [], cookie: ben)

                app.clock.advance(60)
                let save = try await client.postForm("/library/movies/1001", [("watched", "1"), ("note", "Newer note"), ("return_to", "/")])
                let visitor = try #require(save.sessionCookie)
                _ = try await client.postForm("/library/movies/1002", [("favorite", "1"), ("return_to", "/")], cookie: visitor)
                let visitorID = try #require(
                    try await app.services.sessions.profile(forToken: String(visitor.dropFirst(SessionService.cookieName.count + 1))))

                let signIn = try await client.postForm("/account/signin", [("username", "Ben"), ("password", Self.password)], cookie: visitor)
                #expect(signIn.status == .seeOther)
                let again = try #require(signIn.sessionCookie)
                let account = try #require(
                    try await app.services.accounts.account(
                        try await app.services.sessions.profile(forToken: String(again.dropFirst(SessionService.cookieName.count + 1)))
                    ))
                let merged = try #require(try await app.services.library.item(profile: account.id, movieID: 1001))
                #expect(merged.favorite && merged.watched && merged.note == "Newer note")
                #expect(try await app.services.library.item(profile: account.id, movieID: 1002)?.favorite == true)
                let all = try await app.services.library.list(profile: account.id, list: .all, page: 1)
                #expect(all.total == 2)
                #expect(try await ProfileModel.find(visitorID, on: app.services.database.db) == nil, "the visitor profile is gone")
            }
        }
    }

    @Test("a wrong password and an unknown username get the same answer")
    func noAccountEnumeration() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                _ = try await client.postForm("/account/signup", [("username", "cleo"), ("password", Self.password)])
                let wrong = try await client.postForm("/account/signin", [("username", "cleo"), ("password", "not the password")])
                let unknown = try await client.postForm("/account/signin", [("username", "nobody-here"), ("password", "not the password")])
                #expect(wrong.status == .unauthorized && unknown.status == .unauthorized)
                #expect(wrong.text.contains("Wrong username or password.") && unknown.text.contains("Wrong username or password."))
                #expect(wrong.sessionCookie == nil && unknown.sessionCookie == nil)
            }
        }
    }

    @Test("signing out ends the session on the server: the old cookie is a stranger")
    func signOutEndsSession() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let created = try await client.postForm("/account/signup", [("username", "dev"), ("password", Self.password)])
                let cookie = try #require(created.sessionCookie)
                #expect(try await client.get("/account", cookie: cookie).status == .ok)
                let out = try await client.postForm(Route.signOut.path, [], cookie: cookie)
                #expect(out.status == .seeOther)
                #expect(out.headers[values: .setCookie].contains { $0.hasPrefix("\(SessionService.cookieName)=;") && $0.contains("Max-Age=0") })
                #expect(try await client.get("/account", cookie: cookie).status == .unauthorized)
            }
        }
    }

    @Test("changing the password ends the other sessions; the old password stops working")
    func changePassword() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let first = try #require(
                    try await client.postForm("/account/signup", [("username", "eve"), ("password", Self.password)]).sessionCookie)
                let second = try #require(
                    try await client.postForm("/account/signin", [("username", "eve"), ("password", Self.password)]).sessionCookie)
                let wrong = try await client.postForm(
                    "/account/password", [("current", "nope nope nope"), ("password", "a new long passphrase")], cookie: first)
                #expect(wrong.status == .unprocessableContent && wrong.text.contains("Your current password is not right."))
                let changed = try await client.postForm(
                    "/account/password", [("current", Self.password), ("password", "a new long passphrase")], cookie: first)
                #expect(changed.status == .seeOther && changed.headers[.location] == "/account?done=password-tokens")
                let renewed = try #require(changed.sessionCookie)
                let page = try await client.get("/account?done=password-tokens", cookie: renewed)
                #expect(page.status == .ok && page.text.contains("Password changed."))
                #expect(try await client.get("/account", cookie: first).status == .unauthorized)
                #expect(try await client.get("/account", cookie: second).status == .unauthorized)
                #expect(try await client.postForm("/account/signin", [("username", "eve"), ("password", Self.password)]).status == .unauthorized)
                #expect(
                    try await client.postForm("/account/signin", [("username", "eve"), ("password", "a new long passphrase")]).status == .seeOther)
            }
        }
    }

    @Test("deleting an account needs the password, then removes it with its lists")
    func deleteAccount() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try #require(
                    try await client.postForm("/account/signup", [("username", "finn"), ("password", Self.password)]).sessionCookie)
                _ = try await client.postForm("/library/movies/1001", [("favorite", "1"), ("return_to", "/")], cookie: cookie)
                let refused = try await client.postForm("/account/delete", [("password", "wrong password!!")], cookie: cookie)
                #expect(refused.status == .unprocessableContent && refused.text.contains("nothing was deleted"))
                #expect(try await client.get("/library?list=favorites", cookie: cookie).text.contains("Middle Of The Year"))
                let deleted = try await client.postForm("/account/delete", [("password", Self.password)], cookie: cookie)
                #expect(deleted.status == .seeOther)
                let rows = try await LibraryEntryModel.query(on: app.services.database.db).count()
                #expect(rows == 0)
                #expect(try await client.postForm("/account/signin", [("username", "finn"), ("password", Self.password)]).status == .unauthorized)
            }
        }
    }

    @Test("a remembered session unused for 30 days has ended")
    func idleExpiry() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try #require(
                    try await client.postForm("/account/signup", [("username", "gus"), ("password", Self.password), ("remember", "1")]).sessionCookie)
                app.clock.advance(29 * 86_400)
                #expect(try await client.get("/account", cookie: cookie).status == .ok)
                app.clock.advance(31 * 86_400)
                #expect(try await client.get("/account", cookie: cookie).status == .unauthorized)
            }
        }
    }

    @Test("passwords are stored as marked bcrypt hashes (cost 12) of their HMAC, never as text")
    func bcryptStored() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                _ = try await client.postForm("/account/signup", [("username", "hal"), ("password", Self.password)])
                let rows = try await ProfileModel.query(on: app.services.database.db).all()
                let row = try #require(rows.first { $0.username == "hal" })
                let hash = try #require(row.passwordHash)
                #expect(hash.hasPrefix("$ps1$$2b$12$") || hash.hasPrefix("$ps1$$2a$12$") || hash.hasPrefix("$ps1$$2y$12$"))
                #expect(!hash.contains(Self.password))
            }
        }
    }
}

@Suite("Accounts: sign-in throttling")
struct LoginThrottleTests {
    @Test("after 10 failures for one username in 15 minutes, even the right password waits (429 + Retry-After); the wait ends")
    func perUsername() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                _ = try await client.postForm("/account/signup", [("username", "ivy"), ("password", AccountTests.password)])
                for _ in 0..<LoginThrottle.limit {
                    #expect(
                        try await client.postForm("/account/signin", [("username", "ivy"), ("password", "wrong password!")]).status == .unauthorized)
                }
                let blocked = try await client.postForm("/account/signin", [("username", "IVY"), ("password", AccountTests.password)])
                #expect(blocked.status == .tooManyRequests)
                #expect(blocked.text.contains("Too many wrong passwords. Try again in 15 minutes."))
                let retryAfter = try #require(blocked.headers[.retryAfter].flatMap { Int($0) })
                #expect((880...900).contains(retryAfter))
                #expect(blocked.sessionCookie == nil)
                app.clock.advance(Double(retryAfter) + 1)
                #expect(try await client.postForm("/account/signin", [("username", "ivy"), ("password", AccountTests.password)]).status == .seeOther)
            }
        }
    }

    @Test("an unknown username is throttled exactly like a real one, so the answer reveals nothing")
    func unknownUsername() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                for _ in 0..<LoginThrottle.limit {
                    _ = try await client.postForm("/account/signin", [("username", "ghost"), ("password", "wrong password!")])
                }
                let blocked = try await client.postForm("/account/signin", [("username", "ghost"), ("password", "wrong password!")])
                #expect(blocked.status == .tooManyRequests && blocked.headers[.retryAfter] != nil)
            }
        }
    }

    @Test("10 failures from one address across many usernames block that address")
    func perAddress() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                _ = try await client.postForm("/account/signup", [("username", "jay"), ("password", AccountTests.password)])
                for index in 0..<LoginThrottle.limit {
                    _ = try await client.postForm("/account/signin", [("username", "guess\(index)"), ("password", "wrong password!")])
                }
                #expect(
                    try await client.postForm("/account/signin", [("username", "jay"), ("password", AccountTests.password)]).status
                        == .tooManyRequests)
            }
        }
    }
}
