import Foundation
import HummingbirdTesting
import Testing

@testable import App

@Suite("My Lists and the form actions")
struct LibraryPagesTests {
    @Test("the first save creates a visitor with an HttpOnly, SameSite=Lax cookie and redirects back")
    func firstSave() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let response = try await client.postForm("/library/movies/1001", [("favorite", "1"), ("return_to", "/movies?year=2026")])
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/movies?year=2026#movie-1001", "back to the card, not the top of the list")
                let setCookie = try #require(response.headers[values: .setCookie].first { $0.hasPrefix(SessionService.cookieName + "=") })
                #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Lax") && setCookie.contains("Path=/"))
                let cookie = try #require(response.sessionCookie)
                let page = try await client.get("/movies?year=2026", cookie: cookie).text
                #expect(page.contains(#"aria-pressed="true">Favorite ✓"#))
                let list = try await client.get("/library?list=favorites", cookie: cookie).text
                #expect(list.contains("Middle Of The Year"))
                #expect(try await client.get("/library?list=favorites").text.contains("No favorites yet"))
            }
        }
    }

    @Test("marking watched without JavaScript leads to the note form; the note shows on My Lists and the detail page")
    func watchedThenNote() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let watched = try await client.postForm("/library/movies/1002", [("watched", "1"), ("return_to", "/")])
                #expect(watched.headers[.location] == "/movies/1002/note?return_to=/")
                let cookie = try #require(watched.sessionCookie)
                let form = try await client.get("/movies/1002/note?return_to=/", cookie: cookie).text
                #expect(form.contains("Note for January Film"))
                let saved = try await client.postForm(
                    "/library/movies/1002", [("note", "Saw it twice <3"), ("return_to", "/library?list=watched")], cookie: cookie)
                #expect(saved.headers[.location] == "/library?list=watched#movie-1002")
                let list = try await client.get("/library?list=watched", cookie: cookie).text
                #expect(list.contains("Saw it twice &lt;3"))
                #expect(list.contains("Edit note"))
                let detail = try await client.get("/movies/1002", cookie: cookie).text
                #expect(detail.contains(">Saw it twice &lt;3</textarea>"))
            }
        }
    }

    @Test("a note over 2,000 characters gets a clear error and the typed text is kept")
    func longNote() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try #require(try await client.postForm("/library/movies/1001", [("watched", "1")]).sessionCookie)
                let text = String(repeating: "x", count: 2001)
                let response = try await client.postForm("/library/movies/1001", [("note", text), ("return_to", "/")], cookie: cookie)
                #expect(response.status == .unprocessableContent)
                #expect(response.text.contains("notes can be at most 2000 characters"))
                #expect(response.text.contains(text))
                let json = try await client.postForm("/library/movies/1001", [("note", text)], cookie: cookie, json: true)
                #expect(json.status == .unprocessableContent)
                #expect(json.headers[.contentType] == "application/problem+json")
            }
        }
    }

    @Test("with JavaScript the action answers JSON and offers the note dialog after marking watched")
    func jsonAnswers() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let response = try await client.postForm("/library/movies/1001", [("watched", "1")], json: true)
                #expect(response.status == .ok)
                struct State: Decodable {
                    let inLibrary: Bool
                    let favorite: Bool
                    let watched: Bool
                    let offerNote: Bool
                }
                let state = try JSONDecoder().decode(State.self, from: Data(buffer: response.body))
                #expect(state.inLibrary && state.watched && !state.favorite && state.offerNote)
            }
        }
    }

    @Test("move between lists, then remove through the confirmation page")
    func moveAndRemove() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try #require(try await client.postForm("/library/movies/1001", [("favorite", "1")]).sessionCookie)
                let favorites = try await client.get("/library?list=favorites", cookie: cookie).text
                #expect(favorites.contains("Move to Watched"))
                _ = try await client.postForm("/library/movies/1001", [("favorite", "0"), ("watched", "1"), ("note", "")], cookie: cookie)
                #expect(try await client.get("/library?list=favorites", cookie: cookie).text.contains("No favorites yet"))
                let watched = try await client.get("/library?list=watched", cookie: cookie).text
                #expect(watched.contains("Middle Of The Year") && watched.contains("Move to Favorites"))
                let confirm = try await client.get("/library/movies/1001/remove?return_to=/library?list=watched", cookie: cookie)
                #expect(confirm.text.contains("Remove from My Lists?") && confirm.text.contains("Middle Of The Year"))
                let removed = try await client.postForm("/library/movies/1001/remove", [("return_to", "/library?list=watched")], cookie: cookie)
                #expect(removed.status == .seeOther && removed.headers[.location] == "/library?list=watched")
                #expect(try await client.get("/library?list=all", cookie: cookie).text.contains("Your lists are empty"))
            }
        }
    }

    @Test(
        "return_to never sends anyone to another site",
        arguments: ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", "/ok\r\nSet-Cookie: x=y"])
    func noOpenRedirect(target: String) async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let response = try await client.postForm("/library/movies/1001", [("favorite", "1"), ("return_to", target)])
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/movies/1001", "the film's own page has no card to come back to")
            }
        }
    }

    @Test(
        "bad input on the library routes gets a readable 4xx",
        arguments: [
            ("/library?list=everything", 400, "There is no list called"), ("/library?page=abc", 400, "is not a page number"),
            ("/library?page=0", 400, "is not a page number"), ("/library/movies/1001/remove", 404, "isn’t in your lists"),
            ("/movies/1001/note", 404, "isn’t in your lists"),
        ])
    func badLibraryInput(path: String, status: Int, message: String) async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let response = try await client.get(path)
                #expect(response.status.code == status)
                #expect(response.text.contains(message))
            }
        }
    }

    @Test("invalid form values are refused and change nothing")
    func badForm() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let response = try await client.postForm("/library/movies/1001", [("favorite", "maybe")])
                #expect(response.status == .badRequest)
                #expect(response.sessionCookie == nil)
                #expect(try await client.postForm("/library/movies/abc", [("favorite", "1")]).status == .notFound)
                // An id nobody has received is saved at once, its details to come.
                #expect(try await client.postForm("/library/movies/999999", [("favorite", "1")]).status == .seeOther)
            }
        }
    }

    @Test("a saved film's detail page and My Lists work when iTunes cannot be reached")
    func savedFilmOffline() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                // 2001 is looked up (not in the current year list) and saved with its snapshot.
                let cookie = try #require(try await client.postForm("/library/movies/2001", [("favorite", "1")]).sessionCookie)
                app.clock.advance(48 * 3600)
                app.upstream.respond { _ throws(UpstreamError) in throw .unreachable("down") }
                let detail = try await client.get("/movies/2001", cookie: cookie)
                #expect(detail.status == .ok)
                #expect(detail.text.contains("Last Year&#39;s Hit") && detail.text.contains("Big and loud."))
                #expect(detail.text.contains("Your saved copy"))
                #expect(try await client.get("/library?list=all", cookie: cookie).text.contains("Last Year&#39;s Hit"))
            }
        }
    }

    @Test("a visitor's lists are theirs alone")
    func isolation() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let mine = try #require(try await client.postForm("/library/movies/1001", [("watched", "1"), ("note", "private")]).sessionCookie)
                let theirs = try #require(try await client.postForm("/library/movies/1002", [("favorite", "1")]).sessionCookie)
                #expect(!(try await client.get("/library?list=all", cookie: theirs).text.contains("private")))
                #expect(try await client.postForm("/library/movies/1001/remove", [], cookie: theirs).status == .notFound)
                #expect(try await client.get("/library?list=all", cookie: mine).text.contains("private"))
                #expect(try await client.get("/library?list=all", cookie: "ps_session=forged").text.contains("Your lists are empty"))
            }
        }
    }

    @Test("My Lists come in pages of 60")
    func paging() async throws {
        try await TestApp.with { app in
            let profile = try await app.services.sessions.startVisitor()
            for id in 1...61 {
                app.clock.advance(1)
                try await app.services.library.update(profile: profile.profile, movie: LibraryServiceTests.movie(id), change: .init(favorite: true))
            }
            try await app.test { client in
                let cookie = "\(SessionService.cookieName)=\(profile.token)"
                let first = try await client.get("/library?list=favorites", cookie: cookie).text
                #expect(first.contains("Page 1 of 2") && first.contains(#"href="/library?list=favorites&amp;page=2""#))
                #expect(first.components(separatedBy: #"<article class="card""#).count - 1 == 60)
                let second = try await client.get("/library?list=favorites&page=2", cookie: cookie).text
                #expect(second.components(separatedBy: #"<article class="card""#).count - 1 == 1)
            }
        }
    }
}
