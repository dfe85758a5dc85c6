import Foundation
import HummingbirdTesting
import Testing

@testable import App

/// The PopcornSwirl README's lists: un-marking Watched asks before a note is lost, and All saved
/// shows each film's state with both toggles.
@Suite("Un-marking Watched asks first; All saved shows both toggles")
struct WatchedAndAllSavedTests {
    /// A visitor whose film 1001 is watched (not a favorite) with a note.
    static func watchedWithNote(_ client: some TestClientProtocol) async throws -> String {
        let saved = try await client.postForm("/library/movies/1001", [("watched", "1"), ("note", "Watch the ending twice.")])
        return try #require(saved.sessionCookie)
    }

    @Test("without JavaScript, un-marking Watched on a non-favorite with a note asks first and keeps everything until confirmed")
    func asksWithoutJavaScript() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try await Self.watchedWithNote(client)
                let asked = try await client.postForm("/library/movies/1001", [("watched", "0"), ("return_to", "/library")], cookie: cookie)
                #expect(asked.status == .ok)
                #expect(
                    asked.text.contains("Remove it and its note?")
                        && asked.text.contains("un-marking Watched removes it from My Lists, with your note"))
                #expect(asked.text.contains(#"action="/library/movies/1001/remove""#))
                let profile = try #require(try await app.services.sessions.profile(forToken: TestApp.token(cookie)))
                let kept = try await app.services.library.item(profile: profile, movieID: 1001)
                #expect(kept?.watched == true && kept?.note == "Watch the ending twice.", "nothing changed before the answer")
                // Confirmed: the same change with confirm=1 removes it.
                let confirmed = try await client.postForm(
                    "/library/movies/1001", [("watched", "0"), ("confirm", "1"), ("return_to", "/library")], cookie: cookie)
                #expect(confirmed.status == .seeOther)
                #expect(try await app.services.library.item(profile: profile, movieID: 1001) == nil)
            }
        }
    }

    @Test("app.js gets a 409 asking to confirm; nothing is asked when no note would be lost or the film stays a favorite")
    func asksOnlyWhenANoteWouldBeLost() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try await Self.watchedWithNote(client)
                let asked = try await client.postForm("/library/movies/1001", [("watched", "0")], cookie: cookie, json: true)
                #expect(asked.status == .conflict && asked.text.contains(#""confirm":"unwatch""#))
                // A favorite keeps its place (and note) when un-watched: no question.
                _ = try await client.postForm("/library/movies/1001", [("favorite", "1")], cookie: cookie, json: true)
                let favorite = try await client.postForm("/library/movies/1001", [("watched", "0")], cookie: cookie, json: true)
                #expect(favorite.status == .ok && favorite.text.contains(#""inLibrary":true"#))
                // No note: un-marking removes it at once, as before.
                _ = try await client.postForm("/library/movies/1002", [("watched", "1")], cookie: cookie, json: true)
                let plain = try await client.postForm("/library/movies/1002", [("watched", "0")], cookie: cookie, json: true)
                #expect(plain.status == .ok && plain.text.contains(#""inLibrary":false"#))
            }
        }
    }

    @Test("All saved: every card shows whether it is a favorite, watched or both, with both toggles; Favorites and Watched keep their move buttons")
    func allSavedShowsBothToggles() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try #require(try await client.postForm("/library/movies/1001", [("favorite", "1")]).sessionCookie)
                _ = try await client.postForm("/library/movies/1002", [("watched", "1"), ("note", "")], cookie: cookie)
                _ = try await client.postForm("/library/movies/2001", [("favorite", "1"), ("watched", "1")], cookie: cookie)
                let all = try await client.get("/library?list=all", cookie: cookie).text
                func card(_ id: Int) throws -> String {
                    let start = try #require(all.range(of: #"data-movie-id="\#(id)""#))
                    return String(all[start.lowerBound...].prefix { $0 != "§" }.components(separatedBy: "</article>")[0])
                }
                let favoriteOnly = try card(1001)
                #expect(favoriteOnly.contains(#"aria-pressed="true">Favorite ✓"#) && favoriteOnly.contains(#"aria-pressed="false">Watched"#))
                let watchedOnly = try card(1002)
                #expect(watchedOnly.contains(#"aria-pressed="false">Favorite"#) && watchedOnly.contains(#"aria-pressed="true">Watched ✓"#))
                let both = try card(2001)
                #expect(both.contains("Favorite ✓") && both.contains("Watched ✓"))
                let favorites = try await client.get("/library?list=favorites", cookie: cookie).text
                #expect(favorites.contains("Move to Watched") && !favorites.contains(#"name="favorite" value="0" aria-pressed"#))
            }
        }
    }
}
