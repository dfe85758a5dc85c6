import FluentKit
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import SQLKit
import Synchronization
import Testing

@testable import App

/// A clock the test moves by hand.
final class ManualClock: AppClock {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_795_000_000)) {  // 2026-11-18
        current = Mutex(start)
    }

    func now() -> Date { current.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// A whole app over a test database, a fake upstream and a manual clock.
struct TestApp {
    let services: AppServices
    let upstream: FakeUpstream
    let clock: ManualClock

    static func with<T>(
        upstream: FakeUpstream = .itunesFixtures(), clock: ManualClock = ManualClock(), configure: (inout AppConfig) -> Void = { _ in },
        extraMigrations: [any Migration] = [], logger: Logger = TestDatabase.logger, indexed: Bool = true, _ body: (TestApp) async throws -> T
    ) async throws -> T {
        try await TestDatabase.with(extraMigrations: extraMigrations) { database in
            var config = AppConfig()
            config.itunesBaseURL = "https://itunes.test"
            config.tvmazeBaseURL = "https://tvmaze.test"
            config.omdbBaseURL = "https://omdb.test"
            config.posterCacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("posters-\(UUID())").path
            // Tests drive imports (`drain`, `runNext`) and the catalogue worker (`round`) themselves.
            config.importWorker = false
            config.catalogWorker = false
            // A page's wait on the (fake, instant) upstream is bounded only where a test says so:
            // on a loaded machine (the PostgreSQL pass runs 48 test databases at once on 2 cores) a
            // miss's few writes — lease, throttle, cache, release — took over 30 s.
            config.operations.upstreamWaitMilliseconds = 300_000
            // The suite's apps share one PostgreSQL database; ChangeFeedTests runs a listener itself.
            config.operations.listensForChanges = false
            config.operations.readinessProbeMilliseconds = 120_000
            // The offer, API and console tests start from a fresh install's demo offers, shown;
            // DemoOffersTests checks the default (hidden) by setting `AppConfig().demoOffers` back.
            config.demoOffers = true
            configure(&config)
            let services = try AppServices(config: config, database: database, http: upstream, clock: clock, logger: logger, sleep: { _ in })
            defer { try? FileManager.default.removeItem(atPath: config.posterCacheDirectory) }
            if indexed { await Fixtures.received(by: services.titleIndex) }
            do {
                let result = try await body(TestApp(services: services, upstream: upstream, clock: clock))
                await services.offers.tracker.close()
                return result
            } catch {
                await services.offers.tracker.close()
                throw error
            }
        }
    }

    /// Runs requests against the router in-process, or (`.live`) against the server listening
    /// on 127.0.0.1 (`client.port`; the app's config must name port 0).
    func test<T: Sendable>(_ setup: TestingSetup = .router, _ body: @Sendable (any TestClientProtocol) async throws -> T) async throws -> T {
        let app = try await buildApplication(services: services)
        return try await app.test(setup, body)
    }
}

extension TestApp {
    /// The CSRF cookie of the accounts below, so a page fetched with their cookie carries a
    /// token that fits it.
    static let csrfCookie = "\(CookieJar.csrf)=" + String(repeating: "c", count: 43)

    /// An account made straight in the database (no bcrypt: tests of passwords sign up over HTTP),
    /// signed in: its session cookie and a CSRF cookie, as one `Cookie` header.
    /// A visitor's session cookie (a profile with nothing saved yet).
    func visitor() async throws -> String {
        "\(CookieJar.session)=\(try await services.sessions.startVisitor().token)"
    }

    func signedIn(_ username: String, admin: Bool = false) async throws -> (profile: UUID, cookie: String) {
        let row = ProfileModel(kind: "account", now: clock.now())
        row.username = username
        row.passwordHash = "not-a-bcrypt-hash"
        row.role = admin ? "admin" : nil
        try await row.create(on: services.database.db)
        let token = try await services.sessions.start(profile: try row.requireID())
        return (try row.requireID(), "\(SessionService.cookieName)=\(token); \(Self.csrfCookie)")
    }

    /// Gives the account this exact personal API token (tests keep tokens as constants).
    func give(_ token: String, to profile: UUID) async throws {
        try await APITokenModel(
            profileID: profile, name: "test", tokenHash: SessionService.hash(token), hint: String(token.prefix(9)), now: clock.now()
        ).create(on: services.database.db)
    }

    /// The administrator "admin", signed in and holding `token` for the API if given; returns the
    /// console cookie.
    @discardableResult
    func seedAdmin(token: String? = nil) async throws -> String {
        let admin = try await signedIn("admin", admin: true)
        if let token { try await give(token, to: admin.profile) }
        return admin.cookie
    }
}

/// A personal API token of the right shape: `ps_` and 43 URL-safe characters.
func testToken(_ seed: String) -> String {
    "ps_" + seed.padding(toLength: 43, withPad: "0", startingAt: 0)
}

extension TestResponse {
    var text: String { String(buffer: body) }

    /// The session cookie the response sets, as a `Cookie` request header value.
    var sessionCookie: String? {
        headers[values: .setCookie].first { $0.hasPrefix(SessionService.cookieName + "=") }
            .map { String($0.prefix { $0 != ";" }) }
    }
}

extension TestClientProtocol {
    /// A GET as a browser sends it from our own pages (`Sec-Fetch-Site: same-origin`); `browser:
    /// false` is a script or crawler, which sends no `Sec-Fetch-*` headers.
    func get(_ uri: String, cookie: String? = nil, accept: String? = nil, browser: Bool = true) async throws -> TestResponse {
        var headers = HTTPFields()
        if browser { headers[FetchMetadata.siteHeader] = "same-origin" }
        if let cookie { headers[.cookie] = cookie }
        if let accept { headers[.accept] = accept }
        return try await execute(uri: uri, method: .get, headers: headers)
    }

    /// Posts a form as a browser would: the CSRF token comes from a page fetched first with the
    /// same cookies (`csrf: false` leaves it out, to test the refusal).
    func postForm(
        _ uri: String, _ fields: [(String, String)], cookie: String? = nil, json: Bool = false, csrf: Bool = true, headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = extra
        headers[.contentType] = "application/x-www-form-urlencoded"
        var fields = fields
        var cookie = cookie
        if csrf {
            let page = try await csrfToken(cookie: cookie)
            cookie = page.cookie
            fields.append((CSRFMiddleware.field, page.token))
        }
        if let cookie { headers[.cookie] = cookie }
        if json { headers[.accept] = "application/json" }
        let body = fields.map { "\($0.0)=\(Route.query($0.1).replacingOccurrences(of: "&", with: "%26"))" }.joined(separator: "&")
        return try await execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    /// The CSRF token a page gives these cookies, and the cookies with the CSRF cookie it set (if any).
    func csrfToken(cookie: String?) async throws -> (token: String, cookie: String?) {
        let page = try await get(Route.signIn.path, cookie: cookie)
        let marker = #"name="csrf" value=""#
        let text = page.text
        guard let start = text.range(of: marker)?.upperBound, let end = text[start...].firstIndex(of: "\"") else {
            Issue.record("no CSRF token on \(Route.signIn.path)")
            return ("", cookie)
        }
        let set = page.headers[values: .setCookie].first { $0.hasPrefix(CookieJar.csrf + "=") || $0.hasPrefix("__Host-\(CookieJar.csrf)=") }
            .map { String($0.prefix { $0 != ";" }) }
        let cookies = [cookie, set].compactMap { $0 }.joined(separator: "; ")
        return (String(text[start..<end]), cookies.isEmpty ? nil : cookies)
    }

    func sendJSON(
        _ uri: String, method: HTTPRequest.Method, _ json: String, cookie: String? = nil, headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = extra
        headers[.contentType] = "application/json"
        headers[.accept] = "application/json"
        if let cookie { headers[.cookie] = cookie }
        return try await execute(uri: uri, method: method, headers: headers, body: ByteBuffer(string: json))
    }
}

extension Caches {
    /// A server's caches, for a service or renderer a test builds on its own (`changes`: the feed they hear).
    static func forTests(_ changes: ChangeFeed = ChangeFeed(send: nil, logger: TestDatabase.logger)) -> Caches {
        Caches(metrics: nil, changes: changes)
    }
}

extension PageRenderer {
    /// The renderer with a cards cache of its own.
    static func load() async throws -> PageRenderer { try await load(cards: Caches.forTests().cards) }
}

extension SessionService {
    /// Sessions over `database`, with their own cache hearing its change feed.
    convenience init(database: AppDatabase, clock: any AppClock) {
        self.init(database: database, clock: clock, known: Caches.forTests(database.changes).sessions)
    }
}
