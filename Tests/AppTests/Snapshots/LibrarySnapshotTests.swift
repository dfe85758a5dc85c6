import Foundation
import HummingbirdTesting
import Testing

@testable import App

/// My Lists and the pages that stand in for the note and confirm dialogs without JavaScript.
@Suite("Snapshots: My Lists")
struct LibrarySnapshotTests {
    @Test("the note form after marking a film watched")
    func notePage() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let watched = try await client.postForm("/library/movies/1002", [("watched", "1"), ("return_to", "/")])
                #expect(watched.headers[.location] == "/movies/1002/note?return_to=/")
                let cookie = try #require(watched.sessionCookie)
                let page = try await client.get("/movies/1002/note?return_to=/", cookie: cookie)
                #expect(page.text.contains("Note for January Film"))
                assertPage(page, named: "note")
            }
        }
    }

    @Test("the confirmation before removing a film")
    func confirmRemove() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try #require(try await client.postForm("/library/movies/1001", [("watched", "1")]).sessionCookie)
                let page = try await client.get("/library/movies/1001/remove?return_to=/library?list=watched", cookie: cookie)
                #expect(page.text.contains("Remove from My Lists?") && page.text.contains("Middle Of The Year"))
                assertPage(page, named: "confirm-remove")
            }
        }
    }

    @Test("My Lists of a new visitor")
    func empty() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let page = try await client.get("/library")
                #expect(page.text.contains("Your lists are empty"))
                assertPage(page, named: "lists-empty")
            }
        }
    }

    @Test("My Lists of an account with films (one with a note) and a show")
    func withTitles() async throws {
        try await TestApp.with { app in
            let account = try await app.signedIn("ana")
            try await app.test { client in
                for (path, fields) in [
                    ("/library/movies/1001", [("favorite", "1")]), ("/library/movies/1002", [("watched", "1"), ("note", "Saw it twice <3")]),
                    ("/library/shows/139", [("favorite", "1")]),
                ] {
                    app.clock.advance(60)
                    #expect(try await client.postForm(path, fields, cookie: account.cookie).status == .seeOther, "\(path)")
                }
                let page = try await client.get("/library?list=all", cookie: account.cookie)
                for title in ["Middle Of The Year", "January Film", "Girls", "Saw it twice &lt;3"] {
                    #expect(page.text.contains(title), "\(title)")
                }
                assertPage(page, named: "lists-account")
                assertPage(try await client.get("/library?list=favorites&kind=show", cookie: account.cookie), named: "lists-account-favorite-shows")
            }
        }
    }
}
