import FluentKit
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import App

/// Personal API tokens, and who may see what: every route that touches personal data, tried by a
/// second person with the first person's ids.
@Suite("API tokens and authorisation")
struct TokenAndAuthorizationTests {
    static func api(
        _ client: some TestClientProtocol, _ uri: String, _ method: HTTPRequest.Method = .get, json: String? = nil,
        token: String? = nil, cookie: String? = nil
    ) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.accept] = "application/json"
        if let token { headers[.authorization] = "Bearer \(token)" }
        if let cookie { headers[.cookie] = cookie }
        if json != nil { headers[.contentType] = "application/json" }
        return try await client.execute(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }

    @Test("the account page makes a token shown once and stored hashed, lists it by name, and revoking ends it")
    func tokenLifecycle() async throws {
        try await TestApp.with { app in
            let ana = try await app.signedIn("ana", password: AccountTests.password)
            try await app.test { client in
                let made = try await client.postForm(
                    Route.createToken.path, [("name", "backup <script>"), ("password", AccountTests.password)], cookie: ana.cookie)
                #expect(made.status == .ok)
                #expect(made.headers[.cacheControl] == "no-store")
                let token = try #require(made.text.firstMatch(of: #/class="token-value"[^>]*value="(ps_[A-Za-z0-9_-]{43})"/#)?.output.1).description
                #expect(made.text.contains("backup &lt;script&gt;") && !made.text.contains("backup <script>"))
                // Stored as a hash: no column holds the token.
                let rows = try await APITokenModel.query(on: app.services.database.db).all()
                #expect(rows.count == 1 && rows[0].tokenHash == SessionService.hash(token) && rows[0].hint == String(token.prefix(9)))
                // Shown once: the next visit lists the name and hint only.
                let later = try await client.get(Route.account.path, cookie: ana.cookie).text
                #expect(later.contains("backup &lt;script&gt;") && later.contains(String(token.prefix(9)) + "…") && !later.contains(token))

                // The token acts as Ana: what it saves is on her lists.
                let put = try await Self.api(client, "/api/v1/library/movies/1001", .put, json: #"{"favorite":true}"#, token: token)
                #expect(put.status == .ok)
                #expect(put.sessionCookie == nil, "a token call starts no visitor session")
                #expect(try await client.get("/library?list=favorites", cookie: ana.cookie).text.contains("Middle Of The Year"))
                let listed = try await Self.api(client, "/api/v1/library", token: token)
                #expect(listed.status == .ok && listed.text.contains("Middle Of The Year"))
                #expect(try await APITokenModel.query(on: app.services.database.db).first()?.lastUsedAt != nil)

                let id = try #require(rows.first?.id)
                let revoke = try await client.postForm(Route.revokeTokenLink(id), [], cookie: ana.cookie)
                #expect(revoke.status == .seeOther && revoke.headers[.location] == "/account?done=revoked#tokens")
                let refused = try await Self.api(client, "/api/v1/library", token: token)
                #expect(refused.status == .unauthorized && !refused.text.contains("Middle Of The Year"))
                #expect(refused.headers[.wwwAuthenticate] == #"Bearer realm="PopcornSwirl""#)
                #expect(!(try await client.get(Route.account.path, cookie: ana.cookie).text.contains("backup &lt;script&gt;")))
            }
        }
    }

    @Test("token names are required and limited; an account has at most 25 tokens; visitors have none")
    func tokenRules() async throws {
        try await TestApp.with { app in
            let ana = try await app.signedIn("ana", password: AccountTests.password)
            try await app.test { client in
                for name in ["", "   ", String(repeating: "n", count: 61)] {
                    let response = try await client.postForm(Route.createToken.path, [("name", name)], cookie: ana.cookie)
                    #expect(response.status == .unprocessableContent, "\(name.count)")
                    #expect(response.text.contains("Name the token"), "\(name.count)")
                }
                for index in 0..<APITokenService.maxPerAccount { _ = try await app.services.tokens.create(profile: ana.profile, name: "t\(index)") }
                let full = try await client.postForm(
                    Route.createToken.path, [("name", "one more"), ("password", AccountTests.password)], cookie: ana.cookie)
                #expect(full.status == .unprocessableContent && full.text.contains("at most 25 tokens"))
                // A visitor (a saved film, no account) is asked to sign in.
                let save = try await client.postForm("/library/movies/1001", [("favorite", "1")])
                let visitor = try #require(save.sessionCookie)
                let refused = try await client.postForm(Route.createToken.path, [("name", "mine")], cookie: visitor)
                #expect(refused.status == .unauthorized && refused.text.contains(#"name="password""#))
                #expect(try await APITokenModel.query(on: app.services.database.db).count() == APITokenService.maxPerAccount)
            }
        }
    }

    @Test("API reads of personal data need a token or a session (401); a write without either starts a visitor")
    func personalReadsNeedACaller() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                for path in ["/api/v1/library", "/api/v1/library?list=favorites", "/api/v1/search/last"] {
                    let response = try await Self.api(client, path)
                    #expect(response.status == .unauthorized, "\(path)")
                    #expect(response.headers[.wwwAuthenticate] == #"Bearer realm="PopcornSwirl""#, "\(path)")
                }
                let write = try await Self.api(client, "/api/v1/library/movies/1001", .put, json: #"{"watched":true}"#)
                #expect(write.status == .ok)
                let visitor = try #require(write.sessionCookie)
                let mine = try await Self.api(client, "/api/v1/library", cookie: visitor)
                #expect(mine.status == .ok && mine.text.contains("Middle Of The Year"))
                let noSearch = try await Self.api(client, "/api/v1/search/last", cookie: visitor)
                #expect(noSearch.status == .notFound, "a caller without a search yet: 404")
                // Public reads stay public.
                #expect(try await Self.api(client, "/api/v1/movies?year=2026").status == .ok)
            }
        }
    }

    @Test("methods a path does not have are 405 with Allow, read from openapi.yaml")
    func methodNotAllowed() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cases: [(String, HTTPRequest.Method, String)] = [
                    ("/api/v1/movies", .delete, "GET, HEAD"), ("/api/v1/library/movies/1", .get, "PUT, DELETE"),
                    ("/api/v1/admin/offers/1", .post, "GET, PUT, DELETE, HEAD"), ("/api/v1/search/last", .init("TRACE")!, "GET, HEAD"),
                    ("/api/v1/shows", .init("QUERY")!, "GET, HEAD"),
                ]
                for (path, method, allow) in cases {
                    let response = try await client.execute(uri: path, method: method, headers: [.accept: "application/json"])
                    #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                    #expect(response.headers[.allow] == allow, "\(method) \(path)")
                }
                #expect(try await client.get("/api/v1/nothing-here").status == .notFound)
            }
        }
    }

    @Test("a second person with the first person's ids gets 404 or their own empty data, never the first person's")
    func crossUserAccess() async throws {
        try await TestApp.with { app in
            let ana = try await app.signedIn("ana")
            let bob = try await app.signedIn("bob")
            let anaToken = testToken("ana")
            let bobToken = testToken("bob")
            try await app.give(anaToken, to: ana.profile)
            try await app.give(bobToken, to: bob.profile)
            try await app.test { client in
                // Ana's data: a watched film with a private note, a favorite show, a token, a last search.
                _ = try await client.postForm("/library/movies/1001", [("watched", "1"), ("note", "ana's private note")], cookie: ana.cookie)
                _ = try await client.postForm("/library/shows/139", [("favorite", "1")], cookie: ana.cookie)
                _ = try await Self.api(client, "/api/v1/search?q=spider", token: anaToken)
                let anaTokenID = try #require(try await app.services.tokens.list(profile: ana.profile).first?.id)
                let secrets = ["ana's private note", "Middle Of The Year", "Girls", "spider"]

                func expectNothingOfAna(_ response: TestResponse, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
                    for secret in secrets {
                        #expect(!response.text.contains(secret), "\(label) shows \(secret)", sourceLocation: sourceLocation)
                    }
                }

                // Pages, as Bob's browser.
                for path in ["/library", "/library?list=watched", "/library?list=favorites", "/shows/favorites"] {
                    let page = try await client.get(path, cookie: bob.cookie)
                    #expect(page.status == .ok, "\(path)")
                    expectNothingOfAna(page, path)
                }
                for path in ["/movies/1001/note", "/library/movies/1001/remove", "/library/shows/139/remove"] {
                    let page = try await client.get(path, cookie: bob.cookie)
                    #expect(page.status == .notFound, "GET \(path)")
                    expectNothingOfAna(page, path)
                }
                for path in ["/library/movies/1001/remove", "/library/shows/139/remove"] {
                    let response = try await client.postForm(path, [("return_to", "/library")], cookie: bob.cookie)
                    #expect(response.status == .notFound, "POST \(path)")
                }
                let detail = try await client.get("/movies/1001", cookie: bob.cookie)
                #expect(!detail.text.contains("ana's private note") && !detail.text.contains(#"btn-watched is-on"#))
                let revoke = try await client.postForm(Route.revokeTokenLink(anaTokenID), [], cookie: bob.cookie)
                #expect(revoke.status == .notFound)
                let search = try await client.get("/search", cookie: bob.cookie)
                expectNothingOfAna(search, "/search")

                // The API, with Bob's token and with Bob's session.
                for credential in [(token: bobToken as String?, cookie: nil as String?), (token: nil, cookie: bob.cookie)] {
                    let label = credential.token == nil ? "session" : "token"
                    for path in ["/api/v1/library", "/api/v1/library?kind=show", "/api/v1/movies/1001", "/api/v1/shows/139"] {
                        let response = try await Self.api(client, path, token: credential.token, cookie: credential.cookie)
                        #expect(response.status == .ok, "\(label) \(path)")
                        #expect(!response.text.contains("ana's private note") && !response.text.contains(#""watched":true"#), "\(label) \(path)")
                        if path.hasPrefix("/api/v1/library") { expectNothingOfAna(response, "\(label) \(path)") }
                    }
                    let last = try await Self.api(client, "/api/v1/search/last", token: credential.token, cookie: credential.cookie)
                    #expect(last.status == .notFound, "\(label) last search")
                    expectNothingOfAna(last, "\(label) last search")
                    for path in ["/api/v1/library/movies/1001", "/api/v1/library/shows/139"] {
                        let response = try await Self.api(client, path, .delete, token: credential.token, cookie: credential.cookie)
                        #expect(response.status == .notFound, "\(label) DELETE \(path)")
                    }
                }

                // Ana's data is all still there.
                let anaLists = try await Self.api(client, "/api/v1/library", token: anaToken).text
                #expect(anaLists.contains("ana's private note") && anaLists.contains("Girls"))
                #expect(try await Self.api(client, "/api/v1/search/last", token: anaToken).status == .ok)
                #expect(try await app.services.tokens.list(profile: ana.profile).count == 1)
            }
        }
    }
}
