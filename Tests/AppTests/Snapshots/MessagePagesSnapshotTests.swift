import Foundation
import HummingbirdTesting
import Testing

@testable import App

/// The pages that say something went wrong.
@Suite("Snapshots: message pages")
struct MessagePagesSnapshotTests {
    @Test("404: an address nothing answers")
    func notFound() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let page = try await client.get("/no-such-page")
                #expect(page.text.contains("Not found"))
                assertPage(page, named: "not-found", status: .notFound)
            }
        }
    }

    @Test("400: a list that does not exist")
    func badRequest() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let page = try await client.get("/library?list=everything")
                #expect(page.text.contains("There is no list called"))
                assertPage(page, named: "bad-request", status: .badRequest)
            }
        }
    }

    @Test("the retry page after a save failed without JavaScript: its Retry button posts the form again")
    func retryForm() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try #require(try await client.postForm("/library/shows/590", [("favorite", "1")]).sessionCookie)
                try await app.services.database.sql.raw("DROP TABLE library_entries").run()
                let page = try await client.postForm("/library/shows/139", [("favorite", "1"), ("return_to", "/shows")], cookie: cookie)
                #expect(page.text.contains(#"<form method="post" action="/library/shows/139">"#) && page.text.contains(">Retry</button>"))
                assertPage(page, named: "retry-form", status: .serviceUnavailable)
            }
        }
    }

    @Test("a film's save that failed without JavaScript: Retry posts the same change again, and then it is saved")
    func filmRetryResubmits() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try #require(try await client.postForm("/library/movies/1001", [("favorite", "1")]).sessionCookie)
                // The save cannot be written (a save never waits on iTunes: storage is what fails).
                try await app.services.database.sql.raw("ALTER TABLE library_entries RENAME TO library_entries_away").run()
                let page = try await client.postForm(
                    "/library/movies/1440739251", [("watched", "1"), ("note", "Again & again"), ("return_to", "/library")], cookie: cookie)
                #expect(page.status == .serviceUnavailable)
                let html = page.text
                #expect(html.contains(#"<form method="post" action="/library/movies/1440739251">"#) && html.contains(">Retry</button>"))
                #expect(html.contains(#"name="watched" value="1""#) && html.contains(#"name="note" value="Again &amp; again""#))
                #expect(!html.contains(#"name="favorite""#), "a field the person did not send is not added")
                try await app.services.database.sql.raw("ALTER TABLE library_entries_away RENAME TO library_entries").run()
                let again = try await client.postForm(
                    "/library/movies/1440739251", [("watched", "1"), ("note", "Again & again"), ("return_to", "/library")], cookie: cookie)
                #expect(again.status == .seeOther)
                let profile = try #require(try await app.services.sessions.identity(forToken: String(cookie.split(separator: "=")[1]))?.profile)
                #expect(try await app.services.library.item(profile: profile, movieID: 1_440_739_251)?.note == "Again & again")
            }
        }
    }

    @Test("403: a form posted without its page's token")
    func expired() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let page = try await client.postForm("/library/movies/1001", [("favorite", "1")], csrf: false)
                #expect(page.text.contains("This page has expired"))
                assertPage(page, named: "page-expired", status: .forbidden)
            }
        }
    }
}
