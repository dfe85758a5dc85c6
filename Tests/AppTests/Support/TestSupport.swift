import FluentKit
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

@testable import App

/// A clock the test moves by hand.
final class ManualClock: AppClock {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_795_000_000)) { // 2026-11-18
        current = Mutex(start)
    }

    func now() -> Date { current.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// An upstream that answers from a closure and counts calls per path, with an optional delay.
final class FakeUpstream: UpstreamHTTP {
    typealias Handler = @Sendable (URL) async throws(UpstreamError) -> UpstreamResponse
    private let handler: Mutex<Handler>
    private let counts = Mutex<[String: Int]>([:])
    private let delayNanos: Mutex<UInt64> = Mutex(0)
    private let urls = Mutex<[URL]>([])

    init(_ handler: @escaping Handler) {
        self.handler = Mutex(handler)
    }

    /// Serves the iTunes fixture files: `/search?term=YYYY…` → `itunes/year-YYYY.json`, `/lookup?id=N` from any of them.
    static func itunesFixtures() -> FakeUpstream {
        FakeUpstream { url throws(UpstreamError) in try Fixtures.itunesAnswer(for: url) }
    }

    func respond(_ handler: @escaping Handler) { self.handler.withLock { $0 = handler } }
    func setDelay(milliseconds: UInt64) { delayNanos.withLock { $0 = milliseconds * 1_000_000 } }
    func calls(_ path: String? = nil) -> Int {
        counts.withLock { table in path.map { table[$0] ?? 0 } ?? table.values.reduce(0, +) }
    }

    /// Every URL asked for, in order.
    func requested(host: String? = nil) -> [URL] {
        urls.withLock { all in host.map { host in all.filter { $0.host == host } } ?? all }
    }

    /// Answers one host from `handler` and everything else from the fixtures.
    func fail(host: String, _ handler: @escaping Handler) {
        respond { url throws(UpstreamError) in
            if url.host == host { return try await handler(url) }
            return try Fixtures.itunesAnswer(for: url)
        }
    }

    func get(_ url: URL, headers: [(String, String)]) async throws(UpstreamError) -> UpstreamResponse {
        counts.withLock { $0[url.path, default: 0] += 1 }
        urls.withLock { $0.append(url) }
        let delay = delayNanos.withLock { $0 }
        if delay > 0 { try? await Task.sleep(nanoseconds: delay) }
        let handler = self.handler.withLock { $0 }
        return try await handler(url)
    }
}

enum Fixtures {
    static func data(_ name: String) -> Data {
        let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures")!
        return try! Data(contentsOf: url)
    }

    static func json(_ name: String) -> UpstreamResponse {
        UpstreamResponse(status: 200, contentType: "text/javascript; charset=utf-8", body: data(name))
    }

    static func itunesAnswer(for url: URL) throws(UpstreamError) -> UpstreamResponse {
        if url.host == "tvmaze.test" { return tvmazeAnswer(for: url) }
        if url.host == "omdb.test" { return omdbAnswer(for: url) }
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        func value(_ name: String) -> String? { query.first { $0.name == name }?.value }
        if url.path.hasSuffix("/search"), let term = value("term"), value("attribute") == nil {
            // A title search: films of `itunes/search.json` whose name contains the term, in the file's order.
            let object = try! JSONSerialization.jsonObject(with: data("itunes/search.json")) as! [String: Any]
            let wanted = term.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            let results = (object["results"] as! [[String: Any]]).filter {
                ($0["trackName"] as! String).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).contains(wanted)
            }
            let answer = try! JSONSerialization.data(withJSONObject: ["resultCount": results.count, "results": results])
            return UpstreamResponse(status: 200, contentType: "text/javascript; charset=utf-8", body: answer)
        }
        if url.path.hasSuffix("/search"), let term = value("term") {
            guard Bundle.module.url(forResource: "itunes/year-\(term).json", withExtension: nil, subdirectory: "Fixtures") != nil else {
                return UpstreamResponse(status: 200, contentType: "text/javascript", body: Data(#"{"resultCount":0,"results":[]}"#.utf8))
            }
            return json("itunes/year-\(term).json")
        }
        if url.path.hasSuffix("/lookup"), let id = value("id").flatMap(Int.init) {
            for file in ["itunes/year-2026.json", "itunes/year-2025.json", "itunes/search.json"] {
                let body = data(file)
                let object = try! JSONSerialization.jsonObject(with: body) as! [String: Any]
                let results = (object["results"] as! [[String: Any]]).filter { ($0["trackId"] as? Int) == id }
                if !results.isEmpty {
                    let answer = try! JSONSerialization.data(withJSONObject: ["resultCount": results.count, "results": results])
                    return UpstreamResponse(status: 200, contentType: "text/javascript", body: answer)
                }
            }
            return UpstreamResponse(status: 200, contentType: "text/javascript", body: Data(#"{"resultCount":0,"results":[]}"#.utf8))
        }
        return UpstreamResponse(status: 404, body: Data())
    }
}

extension Fixtures {
    nonisolated(unsafe) static let tvmazeShows: [[String: Any]] = try! JSONSerialization.jsonObject(with: data("tvmaze/shows.json")) as! [[String: Any]]

    /// TVMaze as the fixtures know it: one index page (0), shows by id, name search; 404s like TVMaze.
    static func tvmazeAnswer(for url: URL) -> UpstreamResponse {
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        func value(_ name: String) -> String? { query.first { $0.name == name }?.value }
        func json(_ object: Any) -> UpstreamResponse {
            UpstreamResponse(status: 200, contentType: "application/json", body: try! JSONSerialization.data(withJSONObject: object))
        }
        let notFound = UpstreamResponse(status: 404, contentType: "application/json", body: Data(#"{"name":"Not Found","message":"","code":0,"status":404}"#.utf8))
        if url.path == "/shows" {
            return value("page") == "0" ? json(tvmazeShows) : notFound
        }
        if url.path.hasPrefix("/shows/"), let id = Int(url.path.dropFirst("/shows/".count)) {
            return tvmazeShows.first { $0["id"] as? Int == id }.map(json) ?? notFound
        }
        if url.path == "/search/shows" {
            let q = (value("q") ?? "").lowercased()
            return json(tvmazeShows.filter { ($0["name"] as! String).lowercased().contains(q) }.map { ["score": 0.9, "show": $0] })
        }
        return notFound
    }
}

extension Fixtures {
    nonisolated(unsafe) static let omdbMovies: [[String: Any]] = try! JSONSerialization.jsonObject(with: data("omdb/movies.json")) as! [[String: Any]]
    static let omdbKey = "test-key"

    /// OMDb as it behaves: 401 with a JSON error for a bad key, `Response: False` with a 200 for unknown titles.
    static func omdbAnswer(for url: URL) -> UpstreamResponse {
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        func value(_ name: String) -> String? { query.first { $0.name == name }?.value }
        func json(_ status: Int, _ object: Any) -> UpstreamResponse {
            UpstreamResponse(status: status, contentType: "application/json; charset=utf-8", body: try! JSONSerialization.data(withJSONObject: object))
        }
        guard value("apikey") == omdbKey else { return json(401, ["Response": "False", "Error": "Invalid API key!"]) }
        let match: [String: Any]?
        if let id = value("i") {
            match = omdbMovies.first { $0["imdbID"] as? String == id }
            return match.map { json(200, $0) } ?? json(200, ["Response": "False", "Error": "Error getting data."])
        }
        let title = value("t")?.lowercased()
        let year = value("y")
        match = omdbMovies.first { ($0["Title"] as! String).lowercased() == title && (year == nil || ($0["Year"] as! String).hasPrefix(year!)) }
        return match.map { json(200, $0) } ?? json(200, ["Response": "False", "Error": "Movie not found!"])
    }
}

/// One isolated database per test: a temporary SQLite file, or a fresh PostgreSQL schema when
/// `POPCORN_TEST_DATABASE_URL` is set (scripts/test runs the suite both ways).
enum TestDatabase {
    static let logger: Logger = {
        var logger = Logger(label: "test")
        logger.logLevel = .error
        return logger
    }()

    /// `extraMigrations` run after the app's own (tests of migrations yet to come).
    static func with<T>(extraMigrations: [any Migration] = [], _ body: (AppDatabase) async throws -> T) async throws -> T {
        if let url = ProcessInfo.processInfo.environment["POPCORN_TEST_DATABASE_URL"], !url.isEmpty {
            return try await postgres(url: url, extraMigrations: extraMigrations, body)
        }
        return try await sqlite(extraMigrations: extraMigrations, body)
    }

    /// A fresh schema of its own in the PostgreSQL database at `url`, dropped afterwards.
    static func postgres<T>(url: String, extraMigrations: [any Migration] = [], _ body: (AppDatabase) async throws -> T) async throws -> T {
        let schema = "t_\(uniqueID())"
        let database = try await AppDatabase.open(.postgres(url: url), schema: schema, logger: logger, extraMigrations: extraMigrations)
        return try await run(body, on: database) {
            try? await database.dropSchema(schema)
            await database.shutdown()
        }
    }

    /// A temporary SQLite file, removed afterwards.
    static func sqlite<T>(extraMigrations: [any Migration] = [], _ body: (AppDatabase) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("popcorn-test-\(uniqueID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("db.sqlite").path
        let database = try await AppDatabase.open(.sqlite(path: path), logger: logger, extraMigrations: extraMigrations)
        return try await run(body, on: database) {
            await database.shutdown()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    private static func uniqueID() -> Substring {
        UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
    }

    private static func run<T>(_ body: (AppDatabase) async throws -> T, on database: AppDatabase, cleanup: () async -> Void) async throws -> T {
        do {
            let result = try await body(database)
            await cleanup()
            return result
        } catch {
            await cleanup()
            throw error
        }
    }
}

/// A whole app over a test database, a fake upstream and a manual clock.
struct TestApp {
    let services: AppServices
    let upstream: FakeUpstream
    let clock: ManualClock

    static func with<T>(
        upstream: FakeUpstream = .itunesFixtures(), clock: ManualClock = ManualClock(), configure: (inout AppConfig) -> Void = { _ in },
        extraMigrations: [any Migration] = [], _ body: (TestApp) async throws -> T
    ) async throws -> T {
        try await TestDatabase.with(extraMigrations: extraMigrations) { database in
            var config = AppConfig()
            config.itunesBaseURL = "https://itunes.test"
            config.tvmazeBaseURL = "https://tvmaze.test"
            config.omdbBaseURL = "https://omdb.test"
            config.posterCacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("posters-\(UUID())").path
            configure(&config)
            let services = try AppServices(
                config: config, database: database, http: upstream, clock: clock, logger: TestDatabase.logger, sleep: { _ in }
            )
            defer { try? FileManager.default.removeItem(atPath: config.posterCacheDirectory) }
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

    /// Runs requests against the router in-process.
    func test<T: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> T) async throws -> T {
        let app = try await buildApplication(services: services)
        return try await app.test(.router, body)
    }
}

extension TestApp {
    /// The CSRF cookie of the accounts below, so a page fetched with their cookie carries a
    /// token that fits it.
    static let csrfCookie = "\(CookieJar.csrf)=" + String(repeating: "c", count: 43)

    /// An account made straight in the database (no bcrypt: tests of passwords sign up over HTTP),
    /// signed in: its session cookie and a CSRF cookie, as one `Cookie` header.
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

    /// An administrator ("admin") holding `token`; returns the admin's console cookie.
    @discardableResult
    func seedAdmin(token: String) async throws -> String {
        let admin = try await signedIn("admin", admin: true)
        try await give(token, to: admin.profile)
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
    func get(_ uri: String, cookie: String? = nil, accept: String? = nil) async throws -> TestResponse {
        var headers = HTTPFields()
        if let cookie { headers[.cookie] = cookie }
        if let accept { headers[.accept] = accept }
        return try await execute(uri: uri, method: .get, headers: headers)
    }

    /// Posts a form as a browser would: the CSRF token comes from a page fetched first with the
    /// same cookies (`csrf: false` leaves it out, to test the refusal).
    func postForm(_ uri: String, _ fields: [(String, String)], cookie: String? = nil, json: Bool = false, csrf: Bool = true) async throws -> TestResponse {
        var headers = HTTPFields()
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

    func sendJSON(_ uri: String, method: HTTPRequest.Method, _ json: String, cookie: String? = nil) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.accept] = "application/json"
        if let cookie { headers[.cookie] = cookie }
        return try await execute(uri: uri, method: method, headers: headers, body: ByteBuffer(string: json))
    }
}
