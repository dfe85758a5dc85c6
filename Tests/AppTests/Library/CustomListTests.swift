import Foundation
import HummingbirdTesting
import Testing

@testable import App

/// Custom lists on the pages: made, named and described, filled from title pages, ordered by
/// hand, taken out of, deleted; 404 for anyone else's list; errors said next to the field.
@Suite("Library: custom lists")
struct CustomListTests {
    /// The titles of a list's page, in the order shown.
    static func order(_ page: String) -> [String] {
        page.components(separatedBy: #"<span class="list-item-title">"#).dropFirst().map { String($0.prefix { $0 != "<" }) }
    }

    /// Makes a list over the pages and returns its address.
    static func make(_ client: some TestClientProtocol, _ name: String, cookie: String?) async throws -> (path: String, cookie: String) {
        let made = try await client.postForm("/lists", [("name", name), ("description", "For Friday\nwith popcorn")], cookie: cookie)
        #expect(made.status == .seeOther)
        let path = try #require(made.headers[.location])
        if let cookie { return (path, cookie) }
        return (path, try #require(made.sessionCookie))
    }

    @Test("a list is made, filled from title pages in order, reordered, taken out of, renamed and deleted")
    func lifecycle() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let (list, cookie) = try await Self.make(client, "Heist nights", cookie: nil)
                let id = String(list.dropFirst("/lists/".count))
                #expect(try await client.get("/lists", cookie: cookie).text.contains("Heist nights"))
                for (path, back) in [
                    ("/library/movies/1001/lists", "/movies/1001"), ("/library/movies/1002/lists", "/movies/1002"),
                    ("/library/shows/139/lists", "/shows/139"),
                ] {
                    let added = try await client.postForm(path, [("list", id), ("return_to", back)], cookie: cookie)
                    #expect(added.status == .seeOther && added.headers[.location] == back + "#lists")
                }
                let film = try await client.get("/movies/1001", cookie: cookie).text
                #expect(film.contains(#"In <a href="\#(list)">Heist nights</a>."#), "the title's page says which lists hold it")
                var page = try await client.get(list, cookie: cookie).text
                #expect(page.contains("3 titles") && page.contains("For Friday\nwith popcorn"))
                let first = Self.order(page)
                #expect(first.count == 3 && first[2] == "Girls")
                // Adding again keeps one copy where it is.
                _ = try await client.postForm("/library/movies/1001/lists", [("list", id)], cookie: cookie)
                #expect(Self.order(try await client.get(list, cookie: cookie).text) == first)

                let up = try await client.postForm(
                    list + "/items/move", [("kind", "show"), ("item", "139"), ("to", "1"), ("return_to", list)], cookie: cookie)
                #expect(up.status == .seeOther && up.headers[.location] == list + "#item-show-139")
                page = try await client.get(list, cookie: cookie).text
                #expect(Self.order(page) == ["Girls", first[0], first[1]])
                #expect(page.contains(#"aria-label="Move Girls down""#) && !page.contains(#"aria-label="Move Girls up""#), "the first has no Up")

                _ = try await client.postForm(list + "/items/remove", [("kind", "movie"), ("item", "1001"), ("return_to", list)], cookie: cookie)
                #expect(Self.order(try await client.get(list, cookie: cookie).text) == ["Girls", first[1]])
                let stored = try await app.services.customLists.page(profile: try await app.profile(cookie), id: UUID(uuidString: id)!, page: 1)
                #expect(stored?.items.map(\.position) == [1, 2], "no gap is left")

                let empty = try await client.postForm(list, [("name", "  "), ("description", "x")], cookie: cookie)
                #expect(
                    empty.status == .unprocessableContent && empty.text.contains("Give the list a name.")
                        && empty.text.contains(#"aria-invalid="true""#))
                let renamed = try await client.postForm(list, [("name", "Capers"), ("description", "")], cookie: cookie)
                #expect(renamed.status == .seeOther)
                page = try await client.get(list, cookie: cookie).text
                #expect(page.contains("<h1>Capers</h1>") && !page.contains("For Friday"))

                #expect(try await client.get(list + "/delete", cookie: cookie).text.contains("Delete “Capers”?"))
                let deleted = try await client.postForm(list + "/delete", [], cookie: cookie)
                #expect(deleted.status == .seeOther && deleted.headers[.location] == "/lists")
                #expect(try await client.get(list, cookie: cookie).status == .notFound)
                #expect(
                    try await app.services.library.list(profile: try await app.profile(cookie), list: .all, page: 1).total == 0,
                    "lists hold titles without saving them to My Lists")
            }
        }
    }

    @Test("another person's list is a 404 for every page and form, and stays as it was")
    func othersLists() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let (list, owner) = try await Self.make(client, "Mine", cookie: try await app.visitor())
                let id = String(list.dropFirst("/lists/".count))
                _ = try await client.postForm("/library/movies/1001/lists", [("list", id)], cookie: owner)
                let stranger = try await app.visitor()
                #expect(try await client.get(list, cookie: stranger).status == .notFound)
                #expect(try await client.get(list + "/delete", cookie: stranger).status == .notFound)
                for (path, fields) in [
                    (list, [("name", "Theirs")]), (list + "/delete", []), (list + "/share", []), (list + "/unshare", []),
                    (list + "/items/remove", [("kind", "movie"), ("item", "1001")]),
                    (list + "/items/move", [("kind", "movie"), ("item", "1001"), ("to", "1")]),
                    ("/library/movies/1002/lists", [("list", id)]),
                ] {
                    let refused = try await client.postForm(path, fields, cookie: stranger)
                    #expect(refused.status == .notFound, "\(path)")
                }
                let page = try await client.get(list, cookie: owner).text
                #expect(page.contains("<h1>Mine</h1>") && Self.order(page).count == 1 && page.contains("This list is private."))
                #expect(!(try await client.get("/lists", cookie: stranger).text.contains("Mine")))
            }
        }
    }

    @Test("a visitor's lists move into the account they sign up with")
    func mergedOnSignUp() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let (list, visitor) = try await Self.make(client, "Before I joined", cookie: nil)
                let signUp = try await client.postForm(
                    "/account/signup", [("username", "lister"), ("password", "correct horse battery")], cookie: visitor)
                let account = try #require(signUp.sessionCookie)
                #expect(try await client.get(list, cookie: account).text.contains("<h1>Before I joined</h1>"))
            }
        }
    }
}
