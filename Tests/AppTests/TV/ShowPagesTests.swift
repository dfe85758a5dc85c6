import Foundation
import HummingbirdTesting
import SQLKit
import Testing

@testable import App

@Suite("TV pages")
struct ShowPagesTests {
    @Test("TV Shows lists posters and names; unsaved shows have the green Favorite action")
    func list() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let html = try await client.get("/shows").text
                #expect(html.contains("Girls") && html.contains("The Midnight Gospel"))
                #expect(html.components(separatedBy: "btn-favorite-show").count - 1 == 6)
                #expect(html.contains("/posters?seed=139"))
                #expect(html.contains(#"rel="next""#))
                #expect(html.contains("TVMaze</a> (CC BY-SA 4.0)"))
                let end = try await client.get("/shows?page=2").text
                #expect(end.contains("You’ve reached the end of TVMaze’s index."))
            }
        }
    }

    @Test("favouriting turns the action into the red Delete, on the list, the detail and TV Favorites")
    func favoriteThenDelete() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let saved = try await client.postForm("/library/shows/139", [("favorite", "1"), ("return_to", "/shows")])
                #expect(saved.status == .seeOther && saved.headers[.location] == "/shows#show-139")
                let cookie = try #require(saved.sessionCookie)
                let list = try await client.get("/shows", cookie: cookie).text
                #expect(list.components(separatedBy: "btn-delete-show").count - 1 == 1)
                #expect(list.contains("/library/shows/139/remove?return_to=/shows"))
                let favorites = try await client.get("/shows/favorites", cookie: cookie).text
                #expect(favorites.contains("Girls") && favorites.contains("1 show"))
                let confirm = try await client.get("/library/shows/139/remove?return_to=/shows/favorites", cookie: cookie).text
                #expect(confirm.contains("Delete this TV show?"))
                let removed = try await client.postForm("/library/shows/139/remove", [("return_to", "/shows/favorites")], cookie: cookie)
                #expect(removed.headers[.location] == "/shows/favorites")
                #expect(try await client.get("/shows/favorites", cookie: cookie).text.contains("No favorite shows yet"))
            }
        }
    }

    @Test("the detail page: name as title, own header colour, original poster, sanitised summary, facts, IMDb link")
    func detail() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let html = try await client.get("/shows/139").text
                #expect(html.contains("<title>Girls · PopcornSwirl</title>") && html.contains("<h1>Girls</h1>"))
                #expect(html.contains(#"<body class="show-detail">"#))
                #expect(html.contains(Route.query("https://static.tvmaze.com/uploads/images/original_untouched/31/78286.jpg")))
                #expect(html.contains("<p><b>Girls</b> follows"))
                #expect(html.contains(#"href="https://www.imdb.com/title/tt1723816" target="_blank" rel="noopener noreferrer">IMDb</a>"#))
                for fact in ["Drama, Romance", "Ended", "15 April 2012", "HBO (United States)", "Sunday at 22:00", "30 min", "6.6 / 10"] {
                    #expect(html.contains(fact), "\(fact)")
                }
                let noIMDb = try await client.get("/shows/52491").text
                #expect(!noIMDb.contains("imdb.com"))
                let web = try await client.get("/shows/45499").text
                #expect(web.contains("Streaming") && web.contains("Netflix"))
            }
        }
    }

    @Test("hostile summaries are rendered without anything executable")
    func hostileSummary() async throws {
        let upstream = FakeUpstream { url in
            guard url.path == "/shows/7" else { return Fixtures.tvmazeAnswer(for: url) }
            let body =
                #"{"id":7,"name":"Evil <b>Show</b>","summary":"<p onclick=\"alert(1)\">Hi<script>alert(2)</script><img src=x onerror=alert(3)></p>","officialSite":"javascript:alert(4)"}"#
            return UpstreamResponse(status: 200, body: Data(body.utf8))
        }
        try await TestApp.with(upstream: upstream) { app in
            try await app.test { client in
                let html = try await client.get("/shows/7").text
                #expect(html.contains("<div class=\"summary\"><p>Hi</p></div>"))
                #expect(html.contains("Evil &lt;b&gt;Show&lt;/b&gt;"))
                #expect(!html.contains("alert("))
            }
        }
    }

    @Test(
        "name search on the TV Shows screen; bad input gets readable 4xx",
        arguments: [
            ("/shows?page=abc", 400), ("/shows?page=-1", 400), ("/shows?page=0", 400), ("/shows?page=99999999999999999999", 400),
            ("/shows/abc", 404), ("/shows/-3", 404), ("/shows/999999999999", 404), ("/shows/424242", 404),
            ("/shows/favorites?page=x", 400), ("/library?kind=cartoon", 400),
        ])
    func badInput(path: String, status: Int) async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let response = try await client.get(path)
                #expect(response.status.code == status)
            }
        }
    }

    @Test("search by name")
    func search() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let html = try await client.get("/shows?q=gospel").text
                #expect(html.contains("The Midnight Gospel") && !html.contains(">Girls<"))
                #expect(try await client.get("/shows?q=\(String(repeating: "a", count: 201))").status == .badRequest)
                #expect(try await client.get("/shows?q=zzzz").text.contains("No TV show matches that name"))
            }
        }
    }

    @Test("a saved show and TV Favorites work with TVMaze unreachable, posters included")
    func offline() async throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0])
        let upstream = FakeUpstream { url in
            url.host == "static.tvmaze.com" ? UpstreamResponse(status: 200, body: png) : Fixtures.tvmazeAnswer(for: url)
        }
        try await TestApp.with(upstream: upstream) { app in
            try await app.test { client in
                let cookie = try #require(try await client.postForm("/library/shows/139", [("favorite", "1")]).sessionCookie)
                #expect(upstream.calls("/uploads/images/medium_portrait/31/78286.jpg") == 1, "posters fetched at save time")
                #expect(upstream.calls("/uploads/images/original_untouched/31/78286.jpg") == 1)
                app.clock.advance(2 * 3600)
                upstream.respond { _ throws(UpstreamError) in throw .unreachable("down") }
                let detail = try await client.get("/shows/139", cookie: cookie)
                #expect(detail.status == .ok && detail.text.contains("<h1>Girls</h1>") && detail.text.contains("Your saved copy"))
                #expect(try await client.get("/shows/favorites", cookie: cookie).text.contains("Girls"))
                let src = Route.query("https://static.tvmaze.com/uploads/images/original_untouched/31/78286.jpg")
                let poster = try await client.get("/posters?seed=139&title=Girls&src=\(src)")
                #expect(poster.headers[.contentType] == "image/png")
            }
        }
    }

    @Test("a failed database write reaches the retry dialog's text, never a 500")
    func writeFailure() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try #require(try await client.postForm("/library/shows/590", [("favorite", "1")]).sessionCookie)
                try await app.services.database.sql.raw("DROP TABLE library_entries").run()
                let page = try await client.postForm("/library/shows/139", [("favorite", "1"), ("return_to", "/shows")], cookie: cookie)
                #expect(page.status == .serviceUnavailable)
                #expect(page.text.contains("Oops, something went wrong"))
                #expect(page.text.contains("There was a problem saving/deleting this TV Show. Do you want to try again?"))
                #expect(page.text.contains(#"<form method="post" action="/library/shows/139">"#) && page.text.contains(">Retry</button>"))
                let json = try await client.postForm("/library/shows/139", [("favorite", "1")], cookie: cookie, json: true)
                #expect(json.status == .serviceUnavailable)
                #expect(json.text.contains("There was a problem saving/deleting this TV Show. Do you want to try again?"))
                let delete = try await client.postForm("/library/shows/590/remove", [], cookie: cookie, json: true)
                #expect(delete.status == .serviceUnavailable)
            }
        }
    }

    @Test("My Lists shows TV favorites too, filterable by kind")
    func libraryKinds() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try #require(try await client.postForm("/library/shows/139", [("favorite", "1")]).sessionCookie)
                _ = try await client.postForm("/library/movies/1001", [("favorite", "1")], cookie: cookie)
                let all = try await client.get("/library?list=favorites", cookie: cookie).text
                #expect(all.contains("Girls") && all.contains("Middle Of The Year"))
                let tv = try await client.get("/library?list=favorites&kind=show", cookie: cookie).text
                #expect(tv.contains("Girls") && !tv.contains("Middle Of The Year"))
            }
        }
    }
}
