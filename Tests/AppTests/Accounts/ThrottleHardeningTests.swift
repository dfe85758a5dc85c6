import FluentKit
import Foundation
import HTTPTypes
import HummingbirdTesting
import SQLKit
import Testing

@testable import App

/// Sign-in and sign-up limits that hold under parallel requests, and bcrypt's own bounded pool.
@Suite("Accounts: throttles under load")
struct ThrottleHardeningTests {
    static let password = AccountTests.password

    @Test("60 wrong passwords at once for one username: at most 10 are checked (401), the others wait (429)")
    func parallelWrongPasswords() async throws {
        try await TestApp.with { app in
            _ = try await app.signedIn("kim", password: Self.password)
            try await app.test { client in
                let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for _ in 0..<60 {
                        group.addTask {
                            try await client.postForm(Route.signIn.path, [("username", "kim"), ("password", "wrong password!")]).status
                        }
                    }
                    return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
                }
                let checked = statuses.filter { $0 == .unauthorized }.count
                #expect(statuses.count == 60)
                #expect(checked <= LoginThrottle.limit, "\(statuses)")
                // 429, or (PostgreSQL under the whole suite's load: one pooled connection per event loop)
                // the retry page of a request that waited too long for the database: never a sign-in.
                #expect(statuses.allSatisfy { [.unauthorized, .tooManyRequests, .serviceUnavailable].contains($0) }, "\(statuses)")
                #expect(statuses.filter { $0 == .tooManyRequests }.count >= 60 - LoginThrottle.limit, "\(statuses)")
                let kept =
                    try await app.services.database.sql.raw("SELECT COUNT(*) AS n FROM login_failures").first()?
                    .decode(column: "n", as: Int.self) ?? -1
                #expect(kept <= LoginThrottle.limit && kept >= checked, "the checked attempts stay as failures")
            }
        }
    }

    @Test("5 sign-ups per address an hour, a taken name included; the 6th is 429 with Retry-After and says why")
    func signUpsPerAddress() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                for index in 0..<4 {
                    let made = try await client.postForm(Route.signUp.path, [("username", "user\(index)"), ("password", Self.password)])
                    #expect(made.status == .seeOther)
                }
                let taken = try await client.postForm(Route.signUp.path, [("username", "user0"), ("password", Self.password)])
                #expect(taken.status == .unprocessableContent && taken.text.contains("That username is taken."))
                // A form refused for its rules costs nothing and is not counted.
                let short = try await client.postForm(Route.signUp.path, [("username", "user8"), ("password", "short")])
                #expect(short.status == .unprocessableContent)
                let sixth = try await client.postForm(Route.signUp.path, [("username", "user9"), ("password", Self.password)])
                #expect(sixth.status == .tooManyRequests)
                #expect(sixth.text.contains("Too many accounts were created from your network in the last hour. Try again in 60 minutes."))
                let wait = try #require(sixth.headers[.retryAfter].flatMap { Int($0) })
                #expect((3590...3600).contains(wait))
                #expect(sixth.sessionCookie == nil)
                #expect(try await app.services.accounts.profile(username: "user9") == nil)
                app.clock.advance(Double(wait) + 1)
                #expect(try await client.postForm(Route.signUp.path, [("username", "user9"), ("password", Self.password)]).status == .seeOther)
            }
        }
    }

    @Test("sign-ups are counted per address in the database: a full address is refused, another is not")
    func signUpsCountedInDatabase() async throws {
        try await TestApp.with { app in
            for _ in 0..<SignUpThrottle.limit {
                try await app.services.database.sql.raw(
                    "INSERT INTO signup_attempts (id, address, attempted_at) VALUES (\(bind: UUID()), \(bind: "198.51.100.7"), \(bind: app.clock.now()))"
                ).run()
            }
            let accounts = app.services.accounts
            await #expect(throws: AccountService.Failure.tooManySignUps(retryAfter: 3600)) {
                try await accounts.signUp(
                    username: "lee", password: Self.password, visitor: nil, visitorToken: nil, client: .init(address: "198.51.100.7"))
            }
            let other = try await accounts.signUp(
                username: "lee", password: Self.password, visitor: nil, visitorToken: nil, client: .init(address: "203.0.113.5"))
            #expect(other.account.username == "lee")
        }
    }

    @Test("a taken name is told only after the password was hashed, like a real sign-up")
    func takenNameCostsAHash() async throws {
        try await TestApp.with { app in
            _ = try await app.signedIn("taken")
            let services = app.services
            // A hasher that takes no work: if the name were checked first, the answer would be "taken".
            let accounts = AccountService(
                database: services.database, sessions: services.sessions, library: services.library, tokens: services.tokens,
                clock: app.clock, hasher: PasswordHasher(capacity: 0)
            )
            await #expect(throws: AccountService.Failure.busy(retryAfter: PasswordHasher.Busy.retryAfter)) {
                try await accounts.signUp(
                    username: "taken", password: Self.password, visitor: nil, visitorToken: nil, client: .init(address: "198.51.100.7"))
            }
        }
    }

    @Test("past 2 running and 64 waiting hashes a sign-up is told to come back (503 + Retry-After), not queued or counted")
    func busyHasher() async throws {
        try await TestApp.with { app in
            let hasher = app.services.accounts.hasher
            #expect(hasher.capacity == PasswordHasher.threads + PasswordHasher.maxWaiting)
            let gate = DispatchSemaphore(value: 0)
            let holders = (0..<hasher.capacity).map { _ in Task { try await hasher.run { gate.wait() } } }
            func release() async {
                for _ in holders { gate.signal() }
                for holder in holders { _ = try? await holder.value }
            }
            do {
                while hasher.load < hasher.capacity { try await Task.sleep(for: .milliseconds(5)) }
                try await app.test { client in
                    let busy = try await client.postForm(Route.signUp.path, [("username", "moe"), ("password", Self.password)])
                    #expect(busy.status == .serviceUnavailable)
                    #expect(busy.headers[.retryAfter] == String(PasswordHasher.Busy.retryAfter))
                    #expect(busy.text.contains("The server is busy checking other passwords. Try again in a moment"))
                }
                await release()
            } catch {
                await release()
                throw error
            }
            let counted = try await app.services.database.sql.raw("SELECT COUNT(*) AS n FROM signup_attempts").first()?
                .decode(column: "n", as: Int.self)
            #expect(counted == 0, "a sign-up that was not tried does not count")
            try await app.test { client in
                let after = try await client.postForm(Route.signUp.path, [("username", "moe"), ("password", Self.password)])
                #expect(after.status == .seeOther)
            }
        }
    }
}
