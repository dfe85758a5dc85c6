import FluentKit
import Foundation
import HummingbirdTesting
import PopcornAPI
import SQLKit
import Testing

@testable import App

/// The watch diary: marking Watched logs today's watch, any past day can be logged (a rewatch is
/// another watch, with its own rating and note), never a future day; the diary page lists watches
/// by month, newest first, paged; the API does the same; a person sees and deletes only their own.
@Suite("Library: watch diary")
struct DiaryTests {
    @Test("marking a film Watched logs a watch today; a rewatch on an earlier day is logged with its rating and note")
    func markAndRewatch() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let marked = try await client.postForm("/library/movies/1001", [("watched", "1")])
                let cookie = try #require(marked.sessionCookie)
                let today = app.clock.now().formatted(.iso8601.year().month().day())
                let logged = try await client.postForm(
                    "/library/movies/1001/watches",
                    [("day", "2024-02-29"), ("rating", "9"), ("note", "Better the second time"), ("return_to", "/movies/1001")], cookie: cookie)
                #expect(logged.status == .seeOther && logged.headers[.location] == "/movies/1001#diary")
                let diary = try await client.get("/diary", cookie: cookie).text
                let newest = try #require(diary.range(of: #"datetime="\#(today)""#))
                let oldest = try #require(diary.range(of: #"datetime="2024-02-29""#))
                #expect(newest.lowerBound < oldest.lowerBound, "newest day first")
                #expect(diary.contains("<h2>February 2024</h2>") && diary.contains("29 February 2024"))
                #expect(diary.contains("Better the second time") && diary.contains("Rated 4½ stars"))
                // Today's watch came after the one in 2024: it is the rewatch.
                let todays = String(diary[newest.lowerBound...].prefix(400))
                #expect(todays.contains(#"<span class="tag">Rewatch</span>"#))
                let page = try await client.get("/movies/1001", cookie: cookie).text
                #expect(page.contains(#"<h2 id="diary-heading">Your diary</h2>"#) && page.contains("Log a rewatch"))
            }
        }
    }

    @Test("a future day, a day that does not exist, a bad rating or a long note is refused and nothing is written")
    func refusals() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try await app.visitor()
                let tomorrow = app.clock.now().addingTimeInterval(2 * 86_400).formatted(.iso8601.year().month().day())
                let cases: [[(String, String)]] = [
                    [("day", tomorrow)], [("day", "2023-02-29")], [("day", "yesterday")], [("day", "1800-01-01")],
                    [("day", "2024-01-01"), ("rating", "12")], [("day", "2024-01-01"), ("note", String(repeating: "x", count: 2001))],
                ]
                for fields in cases {
                    let refused = try await client.postForm("/library/movies/1001/watches", fields, cookie: cookie)
                    #expect(refused.status == .badRequest, "\(fields.map(\.0))")
                }
                let profile = try await app.profile(cookie)
                let diary = try await app.services.diary.page(profile: profile, page: 1)
                #expect(diary.total == 0)
            }
        }
    }

    @Test("the API lists, logs and deletes watches; another person's watch is a 404 and stays")
    func api() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let logged = try await client.sendJSON(
                    "/api/v1/diary", method: .post, #"{"kind": "show", "titleId": 139, "date": "2025-05-01", "rating": 6, "note": "Pilot"}"#)
                #expect(logged.status == .created)
                let cookie = try #require(logged.sessionCookie)
                let entry = try APITests.decode(Schemas.DiaryEntry.self, logged)
                #expect(entry.title == "Girls" && entry.date == "2025-05-01" && entry.rating == 6 && !entry.rewatch)
                let again = try await client.sendJSON("/api/v1/diary", method: .post, #"{"kind": "show", "titleId": 139}"#, cookie: cookie)
                #expect(try APITests.decode(Schemas.DiaryEntry.self, again).rewatch)
                let list = try APITests.decode(Schemas.DiaryPage.self, try await client.get("/api/v1/diary", cookie: cookie))
                #expect(list.total == 2 && list.items.first?.rewatch == true)
                let future = try await client.sendJSON(
                    "/api/v1/diary", method: .post, #"{"kind": "movie", "titleId": 1001, "date": "2999-01-01"}"#, cookie: cookie)
                #expect(future.status == .unprocessableContent)
                let stranger = try await app.visitor()
                let theirs = try await client.execute(uri: "/api/v1/diary/\(entry.id)", method: .delete, headers: [.cookie: stranger])
                #expect(theirs.status == .notFound)
                let mine = try await client.execute(uri: "/api/v1/diary/\(entry.id)", method: .delete, headers: [.cookie: cookie])
                #expect(mine.status == .noContent)
                let after = try APITests.decode(Schemas.DiaryPage.self, try await client.get("/api/v1/diary", cookie: cookie))
                #expect(after.total == 1)
            }
        }
    }

    @Test("the diary pages by 50, and its page numbers are checked")
    func paging() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try await app.visitor()
                let found = try await app.profile(cookie)
                let profile = try #require(found)
                let title = SavedTitle(kind: .movie, itemID: "1001", title: "Paged", genre: nil, releaseDate: nil, artworkURL: nil, snapshot: Data())
                for day in 1...55 {
                    try await app.services.diary.log(
                        profile: profile, title: title, day: String(format: "2020-01-%02d", (day - 1) % 28 + 1), rating: nil, note: nil)
                }
                let first = try await client.get("/diary", cookie: cookie).text
                #expect(first.contains("55 watches") && first.contains("Page 1 of 2") && first.contains(#"href="/diary?page=2""#))
                #expect(first.components(separatedBy: #"class="diary-entry""#).count - 1 == 50)
                let second = try await client.get("/diary?page=2", cookie: cookie).text
                #expect(second.components(separatedBy: #"class="diary-entry""#).count - 1 == 5)
                #expect(try await client.get("/diary?page=0", cookie: cookie).status == .badRequest)
            }
        }
    }
}
