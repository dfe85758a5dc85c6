import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import App

extension MovieCollectionSpecTests {
    @Test("list movies (success) — the collection screen displays the movies list")
    func listSuccess() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try await Self.collection(client, app, [284_910_350, 1_476_006_349])
                app.upstream.respond(Self.unreachable)
                let page = try await client.get("/library?list=favorites", cookie: cookie)
                #expect(page.status == .ok)
                #expect(page.text.contains(">Spider</h3>") && page.text.contains(">Midsommar</h3>"))
                #expect(page.text.contains("2 titles"))
            }
        }
    }

    @Test("list movies (failure) — an error message")
    func listFailure() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try await Self.collection(client, app, [284_910_350])
                try await app.services.database.sql.raw("DROP TABLE library_entries").run()
                let page = try await client.get("/library?list=favorites", cookie: cookie)
                #expect(page.status == .serviceUnavailable)
                #expect(page.text.contains("An error occurred while fetching data. Do you want to try again?"))
                #expect(page.text.contains(">Retry</a>"))
            }
        }
    }

    @Test("remove movie from collection (success) — the list is updated")
    func removeSuccess() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try await Self.collection(client, app, [284_910_350, 1_476_006_349])
                let removed = try await client.postForm(
                    "/library/movies/284910350/remove", [("return_to", "/library?list=favorites")], cookie: cookie)
                #expect(removed.headers[.location] == "/library?list=favorites")
                let page = try await client.get("/library?list=favorites", cookie: cookie)
                #expect(!page.text.contains(">Spider</h3>") && page.text.contains(">Midsommar</h3>"))
                #expect(page.text.contains("1 title"))
                // From the search screen: the collection button takes it out again, with a message.
                _ = try await client.postForm("/library/movies/1476006349", [("favorite", "0")], cookie: cookie)
                let search = try await client.get("/search?q=midsommar&done=removed", cookie: cookie)
                #expect(search.text.contains("“Midsommar”: Removed from your Favorites."))
                #expect(try await client.get("/library?list=favorites", cookie: cookie).text.contains("No favorites yet"))
            }
        }
    }

    @Test("remove movie from collection (failure) — an error message, and the movie stays")
    func removeFailure() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try await Self.collection(client, app, [284_910_350])
                // Removal fails while the table is locked away; it comes back afterwards.
                try await app.services.database.sql.raw("ALTER TABLE library_entries RENAME TO library_entries_away").run()
                let page = try await client.postForm("/library/movies/284910350/remove", [("return_to", "/library?list=favorites")], cookie: cookie)
                #expect(page.status == .serviceUnavailable)
                #expect(page.text.contains("There was a problem saving/deleting this movie. Do you want to try again?"))
                let json = try await client.postForm("/library/movies/284910350/remove", [], cookie: cookie, json: true)
                #expect(json.status == .serviceUnavailable)
                try await app.services.database.sql.raw("ALTER TABLE library_entries_away RENAME TO library_entries").run()
                let list = try await client.get("/library?list=favorites", cookie: cookie)
                #expect(list.text.contains(">Spider</h3>"))
            }
        }
    }
}
