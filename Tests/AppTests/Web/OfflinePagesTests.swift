import Foundation
import HummingbirdTesting
import Testing

@testable import App

/// The server's side of working offline: the service worker, its offline page, and the plan of
/// what it keeps for a person (`e2e/test_offline.py` drives the worker itself in Chromium).
@Suite("Offline: the service worker, the offline page and a person's plan")
struct OfflinePagesTests {
    @Test("/sw.js is served from the root, checked on every visit, with its release filled in")
    func serviceWorker() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let worker = try await client.get("/sw.js")
                #expect(worker.status == .ok)
                #expect(worker.headers[.contentType] == "text/javascript; charset=utf-8" && worker.headers[.cacheControl] == "no-cache")
                let release = try #require(worker.text.firstMatch(of: /const RELEASE = "([0-9a-f]{12})";/)?.1)
                #expect(!worker.text.contains("__RELEASE__"))
                // The release follows the shell's files: computed from them, the same on every server.
                #expect(String(buffer: try OfflineController.worker(app.services.config)).contains(#"const RELEASE = "\#(release)";"#))
                #expect(worker.text.contains("const MAX_POSTERS = 400;") && worker.text.contains("const MAX_POSTER_BYTES = 40 * 1024 * 1024;"))
                // Another cap is another release: browsers replace the worker.
                var smaller = app.services.config
                smaller.offlinePosters = 3
                #expect(!String(buffer: try OfflineController.worker(smaller)).contains(#"const RELEASE = "\#(release)";"#))
            }
        }
    }

    @Test("the offline page says so and leads to My Lists and TV Favorites; every page links the touch icon and the manifest")
    func offlinePage() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let page = try await client.get("/offline")
                #expect(page.status == .ok)
                #expect(page.text.contains("<h1>You’re offline</h1>") && page.text.contains(#"id="offline-pages""#))
                #expect(page.text.contains(#"href="/library?list=all""#) && page.text.contains(#"href="/shows/favorites""#))
                #expect(page.text.contains(#"<link rel="apple-touch-icon" href="/static/apple-touch-icon.png">"#))
                let manifest = try await client.get("/static/manifest.webmanifest")
                let document = try #require(try JSONSerialization.jsonObject(with: Data(manifest.text.utf8)) as? [String: Any])
                let icons = try #require(document["icons"] as? [[String: String]])
                #expect(icons.contains { $0["sizes"] == "512x512" && $0["purpose"] == "maskable" && $0["type"] == "image/png" })
                for icon in icons.compactMap({ $0["src"] }) + ["/static/apple-touch-icon.png"] {
                    #expect(try await client.get(icon).status == .ok, "\(icon)")
                }
            }
        }
    }

    @Test(
        "a person's plan: every page of their lists, TV Favorites, their own lists, each saved title's page and the last search; nothing for anyone else"
    )
    func plan() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let nobody = try await client.get("/offline/plan")
                #expect(nobody.text == #"{"details":[],"lists":[]}"# || nobody.text.contains(#""lists":[]"#))
                #expect(!nobody.text.contains("scope\":\""))

                let (profile, cookie) = try await app.signedIn("traveller")
                for id in [1001, 1002] { _ = try await client.postForm("/library/movies/\(id)", [("favorite", "1")], cookie: cookie, json: true) }
                _ = try await client.postForm("/library/shows/139", [("favorite", "1")], cookie: cookie, json: true)
                let list = try await app.services.customLists.create(profile: profile, name: "Plane", description: nil)
                _ = try await client.get("/search?q=Midsommar", cookie: cookie)
                let plan = try JSONDecoder().decode(Plan.self, from: Data(try await client.get("/offline/plan", cookie: cookie).text.utf8))
                #expect(plan.scope == OfflinePlan.scope(of: profile) && plan.scope?.count == 32)
                #expect(
                    Set(plan.lists).isSuperset(of: [
                        "/library?list=all", "/library?list=favorites", "/library?list=watched", "/shows/favorites", "/lists", "/diary",
                        Route.customListPage(list.id), "/search?q=Midsommar",
                    ]))
                #expect(Set(plan.details) == ["/movies/1001", "/movies/1002", "/shows/139"])
                // Another person's plan has nothing of the traveller's.
                let (_, otherCookie) = try await app.signedIn("someone")
                let other = try JSONDecoder().decode(Plan.self, from: Data(try await client.get("/offline/plan", cookie: otherCookie).text.utf8))
                #expect(other.details.isEmpty && other.scope != plan.scope && !other.lists.contains(Route.customListPage(list.id)))
            }
        }
    }

    @Test("a big library's plan stays bounded: ten pages a list, 300 titles' pages")
    func bounded() async throws {
        try await TestApp.with { app in
            let (profile, _) = try await app.signedIn("hoarder")
            for n in 0..<(LibraryPage.pageSize * 11) {
                let movie = LibraryServiceTests.movie(5_000_000 + n)
                try await app.services.library.update(profile: profile, movie: movie, change: LibraryChange(favorite: true))
            }
            let plan = try await OfflinePlan.make(
                profile: profile, library: app.services.library, lists: app.services.customLists, search: app.services.search,
                episodes: app.services.episodes)
            #expect(plan.details.count == OfflinePlan.maxDetails)
            #expect(plan.lists.filter { $0.hasPrefix("/library?list=all") }.count == OfflinePlan.maxListPages)
        }
    }

    @Test("the poster cap is OFFLINE_POSTERS and OFFLINE_POSTER_MB, refused when not a sensible number")
    func posterCap() throws {
        let config = try AppConfig.fromEnvironment(["OFFLINE_POSTERS": "3", "OFFLINE_POSTER_MB": "5"])
        let worker = String(buffer: try OfflineController.worker(config))
        #expect(worker.contains("const MAX_POSTERS = 3;") && worker.contains("const MAX_POSTER_BYTES = 5 * 1024 * 1024;"))
        #expect(try AppConfig.fromEnvironment([:]).offlinePosters == 400)
        for bad in [["OFFLINE_POSTERS": "0"], ["OFFLINE_POSTERS": "many"], ["OFFLINE_POSTER_MB": "5000"]] {
            #expect(throws: AppConfig.ConfigError.self) { try AppConfig.fromEnvironment(bad) }
        }
    }

    struct Plan: Decodable {
        let scope: String?
        let lists: [String]
        let details: [String]
    }
}
