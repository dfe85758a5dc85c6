import Foundation
import HummingbirdTesting
import PopcornAPI
import Testing

@testable import App

/// Custom lists through JSON API v1: the same rules as the pages.
@Suite("API: custom lists")
struct ListsAPITests {
    @Test("lists are made, filled, ordered, shared and emptied through the API; another caller gets 404")
    func roundTrip() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let made = try await client.sendJSON("/api/v1/lists", method: .post, #"{"name": " Top 3 ", "description": "Best of the year"}"#)
                #expect(made.status == .created)
                let cookie = try #require(made.sessionCookie)
                let list = try APITests.decode(Schemas.CustomList.self, made)
                #expect(list.name == "Top 3" && list.itemCount == 0 && !list.shared)
                let base = "/api/v1/lists/\(list.id)"

                let film = try await client.sendJSON(base + "/items/movie/1001", method: .put, "", cookie: cookie)
                let filmItem = try APITests.decode(Schemas.CustomListItem.self, film)
                #expect(film.status == .created && filmItem.position == 1)
                _ = try await client.sendJSON(base + "/items/movie/1002", method: .put, "", cookie: cookie)
                let first = try await client.sendJSON(
                    base + "/items/show/139", method: .put, #"{"position": 1, "note": "Start here"}"#, cookie: cookie)
                let show = try APITests.decode(Schemas.CustomListItem.self, first)
                #expect(first.status == .created && show.position == 1 && show.note == "Start here" && show.title == "Girls")
                let moved = try await client.sendJSON(base + "/items/movie/1001", method: .put, #"{"position": 99}"#, cookie: cookie)
                let movedItem = try APITests.decode(Schemas.CustomListItem.self, moved)
                #expect(moved.status == .ok && movedItem.position == 3, "past the end is the end")

                var page = try APITests.decode(Schemas.CustomListPage.self, try await client.get(base, cookie: cookie))
                #expect(page.items.map(\.titleId) == [139, 1002, 1001] && page.items.map(\.position) == [1, 2, 3] && page.list.itemCount == 3)

                let long = try await client.sendJSON(
                    base + "/items/movie/1002", method: .put, #"{"note": "\#(String(repeating: "x", count: 2001))"}"#, cookie: cookie)
                #expect(long.status == .unprocessableContent)
                let blank = try await client.sendJSON(base, method: .put, #"{"name": "   "}"#, cookie: cookie)
                #expect(blank.status == .unprocessableContent)

                let shared = try APITests.decode(
                    Schemas.CustomList.self, try await client.sendJSON(base + "/share", method: .put, "", cookie: cookie))
                let token = try #require(shared.shareToken)
                #expect(shared.shared && shared.shareUrl == "/shared/lists/\(token)")
                let outside = try await client.get("/api/v1/shared-lists/\(token)")
                let public_ = try APITests.decode(Schemas.SharedListPage.self, outside)
                #expect(public_.name == "Top 3" && public_.items.count == 3)

                let stranger = try await app.visitor()
                for (method, path) in [
                    ("GET", base), ("DELETE", base), ("PUT", base + "/share"), ("DELETE", base + "/items/show/139"),
                    ("PUT", base + "/items/movie/2001"),
                ] {
                    let refused = try await client.execute(
                        uri: path, method: .init(method)!, headers: [.cookie: stranger, .contentType: "application/json"])
                    #expect(refused.status == .notFound, "\(method) \(path)")
                }

                #expect(try await client.execute(uri: base + "/items/show/139", method: .delete, headers: [.cookie: cookie]).status == .noContent)
                page = try APITests.decode(Schemas.CustomListPage.self, try await client.get(base, cookie: cookie))
                #expect(page.items.map(\.position) == [1, 2])
                #expect(try await client.execute(uri: base + "/share", method: .delete, headers: [.cookie: cookie]).status == .noContent)
                #expect(try await client.get("/api/v1/shared-lists/\(token)").status == .notFound)
                let all = try APITests.decode(
                    Operations.ListCustomLists.Output.Ok.Body.JsonPayload.self, try await client.get("/api/v1/lists", cookie: cookie))
                #expect(all.items.map(\.name) == ["Top 3"])
                #expect(try await client.execute(uri: base, method: .delete, headers: [.cookie: cookie]).status == .noContent)
                #expect(try await client.get(base, cookie: cookie).status == .notFound)
            }
        }
    }
}
