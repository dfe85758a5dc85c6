import FluentKit
import Foundation
import HummingbirdBcrypt
import HummingbirdTesting
import Testing

@testable import App

/// Every byte of a password counts (bcrypt alone reads 72 and stops at NUL), and older hashes move
/// to the new form on sign-in.
@Suite("Accounts: password hashing")
struct PasswordHashingTests {
    @Test("two 100-character passwords sharing their first 72 bytes are two passwords")
    func wholePasswordCounts() async throws {
        let prefix = String(repeating: "popcorn swirl ", count: 6).prefix(72)
        let mine = prefix + String(repeating: "a", count: 28)
        let other = prefix + String(repeating: "b", count: 28)
        #expect(mine.utf8.count == 100 && other.utf8.count == 100)
        try await TestApp.with { app in
            try await app.test { client in
                let made = try await client.postForm(Route.signUp.path, [("username", "sam"), ("password", String(mine))])
                #expect(made.status == .seeOther)
                #expect(try await client.postForm(Route.signIn.path, [("username", "sam"), ("password", String(other))]).status == .unauthorized)
                #expect(try await client.postForm(Route.signIn.path, [("username", "sam"), ("password", String(mine))]).status == .seeOther)
            }
        }
    }

    @Test("new passwords with control characters (NUL, tab, line break, escape) are refused, saying why")
    func controlCharacters() async throws {
        try await TestApp.with { app in
            let ana = try await app.signedIn("ana", password: AccountTests.password)
            try await app.test { client in
                // Tab and line break are text any form may hold: the password's own rules refuse them.
                for bad in ["correct\thorse battery", "correct horse\nbattery"] {
                    let response = try await client.postForm(Route.signUp.path, [("username", "tom"), ("password", bad)])
                    #expect(response.status == .unprocessableContent, "\(bad.debugDescription)")
                    #expect(response.text.contains("Passwords cannot contain control characters"), "\(bad.debugDescription)")
                }
                // NUL and escape no text may hold: refused before any form is read (`TextInputMiddleware`).
                for bad in ["correct horse\u{0}battery", "correct horse \u{1B}[0m battery"] {
                    let response = try await client.postForm(Route.signUp.path, [("username", "tom"), ("password", bad)])
                    #expect(response.status == .badRequest, "\(bad.debugDescription)")
                    #expect(response.text.contains("can’t hold control characters"), "\(bad.debugDescription)")
                }
                let change = try await client.postForm(
                    Route.changePassword.path, [("current", AccountTests.password), ("password", "a new\u{0}long passphrase")], cookie: ana.cookie)
                #expect(change.status == .badRequest && change.text.contains("control characters"))
                #expect(PasswordPolicy.problem("spaces and ünïcödé are fine ✓", username: "x") == nil)
            }
        }
    }

    @Test("an account hashed the old way (plain bcrypt) still signs in, and is stored the new way after")
    func oldHashesUpgrade() async throws {
        try await TestApp.with { app in
            let uma = try await app.signedIn("uma")
            let database = app.services.database
            let legacy = Bcrypt.hash(AccountTests.password, cost: 12)
            try await ProfileModel.query(on: database.db).filter(\.$id == uma.profile).set(\.$passwordHash, to: legacy).update()
            try await app.test { client in
                #expect(try await client.postForm(Route.signIn.path, [("username", "uma"), ("password", "wrong password!")]).status == .unauthorized)
                #expect(try await ProfileModel.find(uma.profile, on: database.db)?.passwordHash == legacy)
                #expect(try await client.postForm(Route.signIn.path, [("username", "uma"), ("password", AccountTests.password)]).status == .seeOther)
                let stored = try #require(try await ProfileModel.find(uma.profile, on: database.db)?.passwordHash)
                #expect(stored.hasPrefix(PasswordHasher.marker) && stored != legacy)
                #expect(PasswordHasher.verifyNow(AccountTests.password, stored: stored) == .right)
                #expect(try await client.postForm(Route.signIn.path, [("username", "uma"), ("password", AccountTests.password)]).status == .seeOther)
            }
        }
    }
}
