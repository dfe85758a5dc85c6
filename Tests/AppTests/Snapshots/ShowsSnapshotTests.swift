import Foundation
import HummingbirdTesting
import Testing

@testable import App

/// The TV Shows tab: index, name search, a show, and TV Favorites.
@Suite("Snapshots: TV Shows")
struct ShowsSnapshotTests {
    @Test("TV Shows: TVMaze's index")
    func index() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let page = try await client.get("/shows")
                #expect(page.text.contains("Girls") && page.text.contains(#"rel="next""#))
                assertPage(page, named: "shows-index")
            }
        }
    }

    @Test("TV Shows: a name search")
    func search() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let page = try await client.get("/shows?q=gospel")
                #expect(page.text.contains("The Midnight Gospel") && !page.text.contains(">Girls<"))
                assertPage(page, named: "shows-search")
                let none = try await client.get("/shows?q=zzzz")
                #expect(none.text.contains("No TV show matches that name"))
                assertPage(none, named: "shows-search-nothing")
            }
        }
    }

    @Test("a show's page")
    func detail() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let page = try await client.get("/shows/139")
                #expect(page.text.contains("<h1>Girls</h1>") && page.text.contains("IMDb</a>"))
                assertPage(page, named: "show-detail")
            }
        }
    }

    @Test("TV Favorites: empty, then with a show")
    func favorites() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let empty = try await client.get("/shows/favorites")
                #expect(empty.text.contains("No favorite shows yet"))
                assertPage(empty, named: "show-favorites-empty")
                let cookie = try #require(try await client.postForm("/library/shows/139", [("favorite", "1")]).sessionCookie)
                let saved = try await client.get("/shows/favorites", cookie: cookie)
                #expect(saved.text.contains("Girls") && saved.text.contains("1 show"))
                assertPage(saved, named: "show-favorites-one")
            }
        }
    }

    @Test("the Calendar: empty, and a show's week around today (a watched episode, today with nothing on)")
    func calendar() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let empty = try await client.get("/shows/calendar")
                #expect(empty.text.contains("Your calendar lists the episodes"))
                assertPage(empty, named: "calendar-empty")
                _ = try await client.get("/shows/590")
                let cookie = try #require(
                    try await client.postForm("/library/episodes/3391243", [("mark", "watch"), ("on", "now")]).sessionCookie)
                let week = try await client.get("/shows/calendar", cookie: cookie + "; ps_tz=Europe%2FParis")
                #expect(week.text.contains("Nothing airs today") && week.text.contains("S29E45"))
                assertPage(week, named: "calendar-shows")
            }
        }
    }

    @Test("Up Next with a show in progress, and an episode's page")
    func upNextAndEpisode() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let empty = try await client.get("/shows/up-next")
                #expect(empty.text.contains("Nothing to watch next"))
                assertPage(empty, named: "up-next-empty")
                _ = try await client.get("/shows/139")
                let cookie = try #require(try await client.postForm("/library/episodes/12301", [("mark", "watch"), ("on", "now")]).sessionCookie)
                let upNext = try await client.get("/shows/up-next", cookie: cookie)
                #expect(upNext.text.contains("S01E02") && upNext.text.contains("61 episodes left"))
                assertPage(upNext, named: "up-next-one")
                let episode = try await client.get("/episodes/12301", cookie: cookie)
                #expect(episode.text.contains("Pilot") && episode.text.contains("S01E01"))
                assertPage(episode, named: "episode-page")
            }
        }
    }
}
