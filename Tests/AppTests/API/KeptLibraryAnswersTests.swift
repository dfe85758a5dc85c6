import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PopcornAPI
import SQLKit
import Testing

@testable import App

/// `GET /api/v1/library` answered from what it sent before (`KeptLibraryAnswersMiddleware`): each
/// reader sees their own lists, every change of theirs on the next read, and a write made on
/// another server within the bound.
@Suite("Kept JSON library answers")
struct KeptLibraryAnswersTests {
    private func page(_ client: some TestClientProtocol, _ uri: String = "/api/v1/library", cookie: String) async throws -> Schemas.LibraryPage {
        let response = try await client.get(uri, cookie: cookie, accept: "application/json")
        #expect(response.status == .ok)
        return try APITests.decode(Schemas.LibraryPage.self, response)
    }

    @Test("each change a person makes shows on their next read: a new title, a rating, a removal")
    func changesShow() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let first = try await client.sendJSON("/api/v1/library/movies/1001", method: .put, #"{"favorite": true}"#)
                let cookie = try #require(first.sessionCookie)
                #expect(try await page(client, cookie: cookie).items.map(\.id) == [1001])
                #expect(try await page(client, cookie: cookie).items.map(\.id) == [1001], "read again, unchanged")

                _ = try await client.sendJSON("/api/v1/library/movies/1002", method: .put, #"{"favorite": true}"#, cookie: cookie)
                #expect(Set(try await page(client, cookie: cookie).items.map(\.id)) == [1001, 1002])

                _ = try await client.sendJSON("/api/v1/library/movies/1001", method: .put, #"{"rating": 7}"#, cookie: cookie)
                #expect(try await page(client, cookie: cookie).items.first { $0.id == 1001 }?.rating == 7)

                #expect(
                    try await client.execute(uri: "/api/v1/library/movies/1002", method: .delete, headers: [.cookie: cookie]).status == .noContent)
                #expect(try await page(client, cookie: cookie).items.map(\.id) == [1001])
            }
        }
    }

    @Test("another person, another query and a signed-out session each get their own answer")
    func keptPerPersonAndQuery() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let mine = try #require(try await client.sendJSON("/api/v1/library/movies/1001", method: .put, #"{"favorite": true}"#).sessionCookie)
                _ = try await client.sendJSON("/api/v1/library/movies/1002", method: .put, #"{"watched": true}"#, cookie: mine)
                let theirs = try #require(try await client.sendJSON("/api/v1/library/movies/1005", method: .put, #"{"watched": true}"#).sessionCookie)
                _ = try await client.sendJSON("/api/v1/library/movies/1006", method: .put, #"{"watched": true}"#, cookie: theirs)
                // The same number of writes each: their counters alone do not tell their lists apart.
                #expect(Set(try await page(client, cookie: mine).items.map(\.id)) == [1001, 1002])
                #expect(Set(try await page(client, cookie: theirs).items.map(\.id)) == [1005, 1006])
                #expect(try await page(client, "/api/v1/library?list=favorites", cookie: mine).items.map(\.id) == [1001])
                #expect(try await page(client, "/api/v1/library?list=watched", cookie: mine).items.map(\.id) == [1002])

                let token = String(mine.drop { $0 != "=" }.dropFirst())
                try await app.services.sessions.end(token: token)
                let after = try await client.get("/api/v1/library", cookie: mine, accept: "application/json")
                #expect(after.status == .unauthorized, "a kept answer is never handed to a session that has ended")
            }
        }
    }

    @Test("gzip when the client accepts it, the same JSON as without")
    func compressed() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try #require(
                    try await client.sendJSON("/api/v1/library/movies/1001", method: .put, #"{"favorite": true}"#).sessionCookie)
                for id in [1002, 1005, 1006, 2001] {
                    _ = try await client.sendJSON("/api/v1/library/movies/\(id)", method: .put, #"{"favorite": true}"#, cookie: cookie)
                }
                let plain = try await client.get("/api/v1/library", cookie: cookie, accept: "application/json")
                #expect(plain.body.readableBytes >= CompressionMiddleware.minimumBytes)
                for _ in 0..<2 {
                    let gzipped = try await client.execute(
                        uri: "/api/v1/library", method: .get, headers: [.cookie: cookie, .accept: "application/json", .acceptEncoding: "gzip"])
                    #expect(gzipped.headers[.contentEncoding] == "gzip")
                    #expect(try CompressionTests.gunzip(gzipped.body) == plain.text)
                }
                #expect(plain.headers[.contentEncoding] == nil)
                #expect(try APITests.decode(Schemas.LibraryPage.self, plain).total == 5)
            }
        }
    }

    @Test("a write made on another server (no counter moved here) shows once the bound has passed")
    func otherServersWrite() async throws {
        let clock = ManualClock()
        try await TestApp.with(clock: clock) { app in
            try await app.test { client in
                let cookie = try #require(
                    try await client.sendJSON("/api/v1/library/movies/1001", method: .put, #"{"favorite": true}"#).sessionCookie)
                #expect(try await page(client, cookie: cookie).items.first?.note == nil)
                try await app.services.database.sql.raw("UPDATE library_entries SET note = 'written elsewhere'").run()
                clock.advance(2.5)
                #expect(try await page(client, cookie: cookie).items.first?.note == "written elsewhere")
            }
        }
    }
}
