import Foundation
import HummingbirdTesting
import PopcornAPI
import Testing

@testable import App

@Suite("JSON API v1: TV shows")
struct ShowsAPITests {
    @Test("index pages, search, one show; bad input is a 400 problem; unknown ids 404")
    func reads() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let list = try APITests.decode(Schemas.ShowList.self, try await client.get("/api/v1/shows?page=1"))
                #expect(list.shows.count == 6 && !list.isEnd)
                #expect(try APITests.decode(Schemas.ShowList.self, try await client.get("/api/v1/shows?page=2")).isEnd)
                let hits = try APITests.decode(Schemas.ShowList.self, try await client.get("/api/v1/shows?q=girls"))
                #expect(hits.shows.map(\.id).contains(139))
                let detail = try APITests.decode(Schemas.ShowDetail.self, try await client.get("/api/v1/shows/139"))
                #expect(detail.show.imdbUrl == "https://www.imdb.com/title/tt1723816" && !detail.saved)
                #expect(detail.show.summaryHtml?.hasPrefix("<p><b>Girls</b>") == true)
                for path in ["/api/v1/shows?page=0", "/api/v1/shows?page=-2", "/api/v1/shows?page=abc", "/api/v1/shows/abc"] {
                    #expect(try await client.get(path).status == .badRequest, "\(path)")
                }
                #expect(try await client.get("/api/v1/shows/424242").status == .notFound)
            }
        }
    }

    @Test("PUT and DELETE a TV favorite; the library filters by kind")
    func writes() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let put = try await client.sendJSON("/api/v1/library/shows/139", method: .put, "")
                #expect(put.status == .ok)
                let cookie = try #require(put.sessionCookie)
                let entry = try APITests.decode(Schemas.LibraryEntry.self, put)
                #expect(entry.kind == .show && entry.title == "Girls" && entry.favorite)
                _ = try await client.sendJSON("/api/v1/library/movies/1001", method: .put, #"{"favorite": true}"#, cookie: cookie)
                let shows = try APITests.decode(Schemas.LibraryPage.self, try await client.get("/api/v1/library?kind=show", cookie: cookie))
                #expect(shows.total == 1 && shows.items.first?.id == 139)
                #expect(try APITests.decode(Schemas.LibraryPage.self, try await client.get("/api/v1/library", cookie: cookie)).total == 2)
                #expect(try APITests.decode(Schemas.ShowDetail.self, try await client.get("/api/v1/shows/139", cookie: cookie)).saved)
                #expect(try await client.execute(uri: "/api/v1/library/shows/139", method: .delete, headers: [.cookie: cookie]).status == .noContent)
                #expect(try await client.execute(uri: "/api/v1/library/shows/139", method: .delete, headers: [.cookie: cookie]).status == .notFound)
                // A show nobody has received is saved at once; the worker finds TVMaze lacks it, and says so.
                let unknown = try await client.sendJSON("/api/v1/library/shows/424242", method: .put, "", cookie: cookie)
                #expect(unknown.status == .ok)
                let pending = try APITests.decode(Schemas.LibraryEntry.self, unknown)
                #expect(pending.titleState == .pending)
                _ = try await app.services.catalogWorker.round()
                let after = try APITests.decode(Schemas.LibraryPage.self, try await client.get("/api/v1/library?kind=show", cookie: cookie))
                #expect(after.items.first { $0.id == 424242 }?.titleState == .unknown)
            }
        }
    }
}
