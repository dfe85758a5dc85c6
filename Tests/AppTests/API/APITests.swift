import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PopcornAPI
import Testing

@testable import App

/// The API's answers as generated from openapi.yaml: the tests decode into these, so an answer that
/// does not fit the contract fails them.
typealias Schemas = Components.Schemas

@Suite("JSON API v1")
struct APITests {
    /// An answer as its generated type, dates as the API writes them (ISO 8601).
    static func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(T.self, from: Data(buffer: response.body))
    }

    @Test("GET /api/v1/movies lists a year newest first with its source; the current year by default")
    func listMovies() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let response = try await client.get("/api/v1/movies?year=2026")
                #expect(response.status == .ok)
                let list = try Self.decode(Schemas.MovieList.self, response)
                #expect(list.year == 2026 && list.source.kind == .live)
                #expect(list.movies.map(\.id) == [1003, 1001, 1006, 1002, 1005])
                #expect(list.movies[1].posterUrl?.hasPrefix("/posters?") == true)
                let byDefault = try Self.decode(Schemas.MovieList.self, try await client.get("/api/v1/movies"))
                #expect(byDefault.year == 2026)
            }
        }
    }

    @Test(
        "bad query input is a 400 problem",
        arguments: [
            "/api/v1/movies?year=abc", "/api/v1/movies?year=1800", "/api/v1/library?list=nope", "/api/v1/library?page=0", "/api/v1/library?page=x",
        ])
    func badQueries(path: String) async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let response = try await client.get(path)
                #expect(response.status == .badRequest)
                #expect(response.headers[.contentType]?.hasPrefix("application/problem+json") == true)
                let problem = try Self.decode(Schemas.Problem.self, response)
                #expect(problem.status == 400 && !problem.detail.isEmpty)
            }
        }
    }

    @Test("GET /api/v1/movies/{id}: the film, 404 for unknown, 503 when nothing can be known")
    func getMovie() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let detail = try Self.decode(Schemas.MovieDetail.self, try await client.get("/api/v1/movies/1001"))
                #expect(detail.movie.title == "Middle Of The Year" && detail.library == nil)
                #expect(detail.movie.storeUrl?.contains("id1001") == true)
                #expect(try await client.get("/api/v1/movies/999999").status == .notFound)
                #expect(try await client.get("/api/v1/movies/abc").status == .badRequest)
                app.upstream.respond { _ throws(UpstreamError) in throw .unreachable("down") }
                let down = try await client.get("/api/v1/movies/777777")
                #expect(down.status == .serviceUnavailable)
                #expect(try Self.decode(Schemas.Problem.self, down).detail == "An error occurred while fetching data. Do you want to try again?")
            }
        }
    }

    @Test("PUT creates a visitor and an entry, updates it, 204 when in no list; DELETE removes; the list pages it")
    func writeFlow() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let created = try await client.sendJSON("/api/v1/library/movies/1001", method: .put, #"{"favorite": true}"#)
                #expect(created.status == .ok)
                let cookie = try #require(created.sessionCookie)
                #expect(try Self.decode(Schemas.LibraryEntry.self, created).favorite)
                let updated = try await client.sendJSON(
                    "/api/v1/library/movies/1001", method: .put, #"{"watched": true, "note": "Great"}"#, cookie: cookie)
                let entry = try Self.decode(Schemas.LibraryEntry.self, updated)
                #expect(entry.favorite && entry.watched && entry.note == "Great")
                #expect(updated.sessionCookie == nil, "an existing visitor keeps its session")
                let detail = try Self.decode(Schemas.MovieDetail.self, try await client.get("/api/v1/movies/1001", cookie: cookie))
                #expect(detail.library?.note == "Great")
                let page = try Self.decode(Schemas.LibraryPage.self, try await client.get("/api/v1/library?list=watched", cookie: cookie))
                #expect(page.total == 1 && page.pageSize == 60 && page.items.first?.title == "Middle Of The Year")
                let emptied = try await client.sendJSON(
                    "/api/v1/library/movies/1001", method: .put, #"{"favorite": false, "watched": false}"#, cookie: cookie)
                #expect(emptied.status == .noContent)
                _ = try await client.sendJSON("/api/v1/library/movies/1002", method: .put, #"{"favorite": true}"#, cookie: cookie)
                #expect(
                    try await client.execute(uri: "/api/v1/library/movies/1002", method: .delete, headers: [.cookie: cookie]).status == .noContent)
                #expect(try await client.execute(uri: "/api/v1/library/movies/1002", method: .delete, headers: [.cookie: cookie]).status == .notFound)
                #expect(try Self.decode(Schemas.LibraryPage.self, try await client.get("/api/v1/library", cookie: cookie)).total == 0)
            }
        }
    }

    @Test("PUT rejects bad bodies with readable problems and writes nothing")
    func badWrites() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let long = try await client.sendJSON(
                    "/api/v1/library/movies/1001", method: .put, "{\"note\": \"\(String(repeating: "a", count: 2001))\"}")
                #expect(long.status == .unprocessableContent)
                #expect(try Self.decode(Schemas.Problem.self, long).detail.contains("at most 2000 characters"))
                #expect(long.sessionCookie == nil)
                let garbage = try await client.sendJSON("/api/v1/library/movies/1001", method: .put, "{not json")
                #expect(garbage.status == .badRequest)
                let wrongType = try await client.sendJSON("/api/v1/library/movies/1001", method: .put, #"{"favorite": "yes"}"#)
                #expect(wrongType.status == .badRequest)
                // An id nobody has received is saved at once, its details to come (the worker finds iTunes lacks it).
                let unknown = try await client.sendJSON("/api/v1/library/movies/999999", method: .put, #"{"favorite": true}"#)
                #expect(unknown.status == .ok)
                let pending = try Self.decode(Schemas.LibraryEntry.self, unknown)
                #expect(pending.titleState == .pending)
                #expect(try await client.sendJSON("/api/v1/library/movies/0", method: .put, #"{"favorite": true}"#).status == .badRequest)
                #expect(try await client.execute(uri: "/api/v1/library/movies/1001", method: .delete).status == .notFound)
            }
        }
    }

    @Test("another visitor's entries are never visible or removable")
    func isolation() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let mine = try #require(
                    try await client.sendJSON("/api/v1/library/movies/1001", method: .put, #"{"favorite": true, "note": "mine"}"#).sessionCookie)
                let theirs = try #require(
                    try await client.sendJSON("/api/v1/library/movies/1002", method: .put, #"{"favorite": true}"#).sessionCookie)
                let theirPage = try Self.decode(Schemas.LibraryPage.self, try await client.get("/api/v1/library", cookie: theirs))
                #expect(theirPage.items.map(\.id) == [1002])
                #expect(try await client.execute(uri: "/api/v1/library/movies/1001", method: .delete, headers: [.cookie: theirs]).status == .notFound)
                #expect(try Self.decode(Schemas.LibraryPage.self, try await client.get("/api/v1/library", cookie: mine)).total == 1)
            }
        }
    }

    @Test("the OpenAPI document is served")
    func document() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let response = try await client.get("/api/openapi.yaml")
                #expect(response.status == .ok)
                #expect(response.text.contains("openapi: \"3.1.0\"") && response.text.contains("/api/v1/library/movies/{id}"))
            }
        }
    }
}

@Suite("JSON API: cookie writes only from our own pages")
struct APICrossSiteTests {
    @Test("a cookie-authenticated write from another site, or without a JSON body, is 403 and changes nothing")
    func crossSiteWritesRefused() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let first = try await client.sendJSON("/api/v1/library/movies/1001", method: .put, #"{"favorite": true}"#)
                #expect(first.status == .ok)
                let cookie = try #require(first.sessionCookie)
                let attempts: [(String, String, String)] = [
                    ("Sec-Fetch-Site", "cross-site", "application/json"),
                    ("Sec-Fetch-Site", "same-site", "application/json"),
                    ("Origin", "https://evil.example", "application/json"),
                    ("X-Nothing", "", "text/plain"),
                    ("X-Nothing", "", "application/x-www-form-urlencoded"),
                ]
                for (header, value, contentType) in attempts {
                    var headers = HTTPFields()
                    headers[.cookie] = cookie
                    headers[.contentType] = contentType
                    headers[.accept] = "application/json"
                    headers[HTTPField.Name(header)!] = value
                    let response = try await client.execute(
                        uri: "/api/v1/library/movies/1001", method: .put, headers: headers, body: ByteBuffer(string: #"{"watched": true}"#)
                    )
                    #expect(response.status == .forbidden, "\(header): \(value) / \(contentType)")
                    var delete = HTTPFields()
                    delete[.cookie] = cookie
                    delete[HTTPField.Name(header)!] = value
                    if header != "X-Nothing" {
                        let deleted = try await client.execute(uri: "/api/v1/library/movies/1001", method: .delete, headers: delete)
                        #expect(deleted.status == .forbidden, "DELETE with \(header): \(value)")
                    }
                }
                let item = try #require(
                    try await app.services.library.item(
                        profile: app.services.sessions.profile(
                            forToken: String(cookie.dropFirst(SessionService.cookieName.count + 1))
                        ), movieID: 1001))
                #expect(item.favorite && !item.watched, "nothing changed")
                var same = HTTPFields()
                same[.cookie] = cookie
                same[.contentType] = "application/json"
                same[HTTPField.Name("Sec-Fetch-Site")!] = "same-origin"
                let ok = try await client.execute(
                    uri: "/api/v1/library/movies/1001", method: .put, headers: same, body: ByteBuffer(string: #"{"watched": true}"#))
                #expect(ok.status == .ok)
            }
        }
    }
}
