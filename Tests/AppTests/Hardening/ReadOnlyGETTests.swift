import FluentKit
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SQLKit
import Testing

@testable import App

/// Nothing a crawler can do with GETs writes a row; a link from another site cannot overwrite a
/// person's last search; behind a trusted proxy the client's own address is used.
@Suite("Read-only GETs")
struct ReadOnlyGETTests {
    static func rows(_ app: TestApp) async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for table in ["profiles", "sessions", "last_searches", "library_entries", "offer_impressions", "offer_clicks"] {
            counts[table] = try await app.services.database.sql.raw("SELECT COUNT(*) AS n FROM \(ident: table)").first()?
                .decode(column: "n", as: Int.self)
        }
        return counts
    }

    @Test("100 cookieless GETs of every page, searches (pages and API) included, create no row at all")
    func crawlerWritesNothing() async throws {
        try await TestApp.withOffers(.demo) { app, _ in
            let before = try await Self.rows(app)
            let statuses = try await app.test { client in
                var statuses: [Int] = []
                for index in 0..<100 {
                    let path = [
                        "/search?q=Spider", "/", "/movies?year=2026", "/movies/1001", "/shows", "/library", "/search", "/api/v1/search?q=Spider",
                    ][
                        index % 8]
                    statuses.append(try await client.get(path, browser: false).status.code)
                }
                return statuses
            }
            #expect(statuses.allSatisfy { $0 < 500 })
            #expect(try await Self.rows(app) == before)
        }
    }

    @Test("a browser without a profile keeps its last search in a cookie, not in the database")
    func visitorLastSearchInCookie() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let search = try await client.get("/search?q=Spider")
                #expect(search.sessionCookie == nil)
                let cookie = try #require(
                    search.headers[values: .setCookie].first { $0.hasPrefix(CookieJar.lastSearch + "=") }.map { String($0.prefix { $0 != ";" }) })
                let again = try await client.get("/search", cookie: cookie)
                // The same page as a profile's last search from the database: its heading and when it was.
                #expect(again.text.contains("Your last search, “Spider”, on "))
                #expect(again.text.contains(">Your last search<"))
            }
            let counts = try await Self.rows(app)
            #expect(counts["profiles"] == 0 && counts["sessions"] == 0 && counts["last_searches"] == 0)
        }
    }

    @Test("a cross-site link to a search shows it but keeps the person's last search")
    func crossSiteSearchKeepsLastSearch() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try await app.visitor()
                _ = try await client.get("/search?q=Spider", cookie: cookie)
                var headers = HTTPFields()
                headers[.cookie] = cookie
                headers[FetchMetadata.siteHeader] = "cross-site"
                let linked = try await client.execute(uri: "/search?q=Parasite", method: .get, headers: headers)
                #expect(linked.status == .ok)
                let page = try await client.get("/search", cookie: cookie)
                #expect(page.text.contains("Your last search, “Spider”"))
            }
        }
    }

    @Test("behind a trusted proxy the client is the nearest untrusted X-Forwarded-For hop; anyone else's header is ignored")
    func forwardedFor() {
        var config = AppConfig()
        config.trustedProxies = ["10.0.0.1", "10.0.0.2"]
        let transport = Transport(config: config)
        func request(_ forwarded: String?) -> Request {
            var head = HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/")
            if let forwarded { head.headerFields[HTTPField.Name("X-Forwarded-For")!] = forwarded }
            return Request(head: head, body: .init(buffer: ByteBuffer()))
        }
        #expect(transport.clientAddress(request("203.0.113.9"), peer: "10.0.0.1") == "203.0.113.9")
        // The left part is the client's own claim: only the hop our proxies added counts.
        #expect(transport.clientAddress(request("1.1.1.1, 203.0.113.9, 10.0.0.2"), peer: "10.0.0.1") == "203.0.113.9")
        #expect(transport.clientAddress(request("203.0.113.9"), peer: "198.51.100.7") == "198.51.100.7")
        #expect(transport.clientAddress(request(nil), peer: "10.0.0.1") == "10.0.0.1")
    }
}
