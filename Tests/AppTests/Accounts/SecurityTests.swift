import FluentKit
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import App

/// CSRF tokens on the pages' forms, and cookies and HSTS over HTTPS.
@Suite("Request protection")
struct RequestProtectionTests {
    static let password = "correct horse battery staple"

    /// A form post with exactly these cookies and fields (no token added).
    static func rawPost(_ client: some TestClientProtocol, _ uri: String, _ fields: [(String, String)], cookie: String?, header: String? = nil)
        async throws -> TestResponse
    {
        var headers = HTTPFields()
        headers[.contentType] = "application/x-www-form-urlencoded"
        if let cookie { headers[.cookie] = cookie }
        if let header { headers[CSRFMiddleware.header] = header }
        let body = fields.map { "\($0.0)=\(Route.query($0.1))" }.joined(separator: "&")
        return try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    @Test("a form without the page's token, or with another browser's, changes nothing (403 with a reload hint)")
    func formsNeedTheToken() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let page = try await client.csrfToken(cookie: nil)
                let browser = try #require(page.cookie)
                let other = try await client.csrfToken(cookie: nil)
                let attempts: [(String, [(String, String)], String?)] = [
                    ("no token", [("favorite", "1")], nil),
                    ("empty token", [("favorite", "1"), ("csrf", "")], nil),
                    ("another browser's token", [("favorite", "1"), ("csrf", other.token)], nil),
                    (
                        "a token one character off",
                        [("favorite", "1"), ("csrf", String(page.token.dropLast()) + (page.token.hasSuffix("A") ? "B" : "A"))], nil
                    ),
                    ("a wrong header", [("favorite", "1")], "x"),
                ]
                for (label, fields, header) in attempts {
                    let response = try await Self.rawPost(client, "/library/movies/1001", fields, cookie: browser, header: header)
                    #expect(response.status == .forbidden, "\(label)")
                    #expect(response.text.contains("This page has expired"), "\(label)")
                    #expect(response.sessionCookie == nil, "\(label): no visitor was started")
                }
                // Without the CSRF cookie, even the right-looking token is refused.
                let cookieless = try await Self.rawPost(client, "/library/movies/1001", [("favorite", "1"), ("csrf", page.token)], cookie: nil)
                #expect(cookieless.status == .forbidden)
                // The sign-in form is protected too (login CSRF), and says so in JSON to scripts.
                let signIn = try await client.execute(
                    uri: Route.signIn.path, method: .post,
                    headers: [.contentType: "application/x-www-form-urlencoded", .accept: "application/json", .cookie: browser],
                    body: ByteBuffer(string: "username=ana&password=x")
                )
                #expect(signIn.status == .forbidden && signIn.text.contains("This page has expired"))
                #expect(try await app.services.library.list(profile: nil, list: .all, page: 1).total == 0)

                // The same browser's token works, as a field or as app.js's header.
                let saved = try await Self.rawPost(client, "/library/movies/1001", [("favorite", "1"), ("csrf", page.token)], cookie: browser)
                #expect(saved.status == .seeOther)
                let visitor = try #require(saved.sessionCookie)
                let viaHeader = try await Self.rawPost(
                    client, "/library/movies/1002", [("favorite", "1")], cookie: "\(browser); \(visitor)", header: page.token)
                #expect(viaHeader.status == .seeOther)
                let lists = try await client.get("/library?list=favorites", cookie: visitor).text
                #expect(lists.contains("Middle Of The Year") && lists.contains("January Film"))
            }
        }
    }

    @Test("a visitor's first save keeps their other pages' tokens; signing in or out makes old pages' tokens stale")
    func tokensFollowTheSession() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let before = try await client.csrfToken(cookie: nil)
                let browser = try #require(before.cookie)
                // First save: a visitor session starts, the page's token stays good.
                let first = try await Self.rawPost(client, "/library/movies/1001", [("favorite", "1"), ("csrf", before.token)], cookie: browser)
                let visitor = try #require(first.sessionCookie)
                let second = try await Self.rawPost(
                    client, "/library/movies/1002", [("favorite", "1"), ("csrf", before.token)], cookie: "\(browser); \(visitor)")
                #expect(second.status == .seeOther, "a second tab's form still works")

                let signUp = try await Self.rawPost(
                    client, Route.signUp.path, [("username", "ana"), ("password", Self.password), ("csrf", before.token)],
                    cookie: "\(browser); \(visitor)"
                )
                #expect(signUp.status == .seeOther)
                let account = "\(browser); \(try #require(signUp.sessionCookie))"
                // A page opened before signing in cannot post as the account.
                let stale = try await Self.rawPost(client, "/library/movies/1002", [("watched", "1"), ("csrf", before.token)], cookie: account)
                #expect(stale.status == .forbidden)
                let fresh = try await client.csrfToken(cookie: account)
                #expect(fresh.token != before.token)
                let ok = try await Self.rawPost(client, "/library/movies/1002", [("watched", "1"), ("csrf", fresh.token)], cookie: account)
                #expect(ok.status == .seeOther)
                // After signing out, the signed-in pages' token is dead, even with the old session cookie replayed.
                let out = try await Self.rawPost(client, Route.signOut.path, [("csrf", fresh.token)], cookie: account)
                #expect(out.status == .seeOther)
                let replay = try await Self.rawPost(client, "/library/movies/1001", [("favorite", "0"), ("csrf", fresh.token)], cookie: account)
                #expect(replay.status == .forbidden)
            }
        }
    }

    @Test("PUBLIC_URL=https://…: __Host- cookies with Secure, HSTS, and plain-named cookies ignored")
    func httpsCookies() async throws {
        try await TestApp.with(configure: { $0.publicURL = "https://popcorn.example" }) { app in
            try await app.test { client in
                let page = try await client.get("/movies?year=2026")
                #expect(page.headers[.strictTransportSecurity] == "max-age=63072000")
                let cookies = page.headers[values: .setCookie]
                #expect(cookies.contains { $0.hasPrefix("__Host-ps_csrf=") })
                #expect(cookies.contains { $0.hasPrefix("__Host-ps_visitor=") })
                for cookie in cookies {
                    #expect(
                        cookie.hasPrefix("__Host-") && cookie.contains("Secure") && cookie.contains("HttpOnly") && cookie.contains("Path=/"),
                        "\(cookie)")
                    #expect(!cookie.lowercased().contains("domain="), "\(cookie)")
                }
                let tokenPage = try await client.csrfToken(cookie: nil)
                let save = try await client.postForm("/library/movies/1001", [("favorite", "1")], cookie: tokenPage.cookie)
                let session = try #require(save.headers[values: .setCookie].first { $0.hasPrefix("__Host-ps_session=") })
                #expect(session.contains("Secure") && session.contains("SameSite=Lax") && session.contains("HttpOnly"))
                let value = String(session.prefix { $0 != ";" })
                #expect(try await client.get("/library?list=favorites", cookie: value).text.contains("Middle Of The Year"))
                // A cookie without the prefix could have been planted over plain HTTP: not a session here.
                let planted = value.replacingOccurrences(of: "__Host-ps_session=", with: "ps_session=")
                #expect(!(try await client.get("/library?list=favorites", cookie: planted).text.contains("Middle Of The Year")))
            }
        }
        try await TestApp.with { app in
            try await app.test { client in
                let page = try await client.get("/movies?year=2026")
                #expect(page.headers[.strictTransportSecurity] == nil)
                #expect(page.headers[values: .setCookie].allSatisfy { !$0.contains("Secure") && !$0.hasPrefix("__Host-") })
            }
        }
    }

    @Test("X-Forwarded-Proto counts only from a trusted proxy's address")
    func forwardedProto() throws {
        var config = AppConfig()
        config.trustedProxies = ["10.0.0.2"]
        let transport = Transport(config: config)
        var head = HTTPRequest(method: .get, scheme: "http", authority: "popcorn.example", path: "/")
        head.headerFields[HTTPField.Name("X-Forwarded-Proto")!] = "https"
        let request = Request(head: head, body: .init(buffer: ByteBuffer()))
        #expect(transport.isSecure(request, address: "10.0.0.2"))
        #expect(!transport.isSecure(request, address: "203.0.113.9"))
        #expect(!transport.isSecure(request, address: nil))
        head.headerFields[HTTPField.Name("X-Forwarded-Proto")!] = "http, https"
        #expect(!transport.isSecure(Request(head: head, body: .init(buffer: ByteBuffer())), address: "10.0.0.2"))
        let env = try AppConfig.fromEnvironment(["PUBLIC_URL": "https://popcorn.example/", "TRUSTED_PROXIES": "10.0.0.2, 10.0.0.3"])
        #expect(env.publicURL == "https://popcorn.example" && env.trustedProxies == ["10.0.0.2", "10.0.0.3"])
        #expect(throws: AppConfig.ConfigError.self) { try AppConfig.fromEnvironment(["PUBLIC_URL": "popcorn.example"]) }
    }

    @Test("every page carries CSP without unsafe-inline, nosniff, a referrer policy and frame-ancestors 'none'")
    func securityHeaders() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                for path in ["/", "/account/signin", "/api/v1/movies?year=2026", "/static/app.js", "/no-such-page"] {
                    let response = try await client.get(path)
                    let csp = try #require(response.headers[.contentSecurityPolicy], "\(path)")
                    #expect(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline") && csp.contains("frame-ancestors 'none'"), "\(path)")
                    #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(path)")
                    #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "strict-origin-when-cross-origin", "\(path)")
                }
            }
        }
    }

    @Test("cookies are read from every Cookie header, spaces or not, values with '=' whole, the first of a name winning")
    func receivedCookies() {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .cookie, value: "ps_csrf=a=b;ps_session=first; theme"))
        fields.append(HTTPField(name: .cookie, value: "  ps_session=second;  ps_visitor=v-1"))
        let request = Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/", headerFields: fields),
            body: RequestBody(buffer: ByteBuffer()))
        let cookies = ReceivedCookies(request)
        #expect(cookies["ps_csrf"] == "a=b")
        #expect(cookies["ps_session"] == "first")
        #expect(cookies["ps_visitor"] == "v-1")
        #expect(cookies["theme"] == nil && cookies["ps_last_search"] == nil)
        #expect(CookieJar(secure: true).value("ps_session", in: request) == nil, "over HTTPS only the __Host- name counts")
    }
}
