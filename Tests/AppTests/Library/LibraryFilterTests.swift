import Foundation
import HummingbirdTesting
import PopcornAPI
import Testing

@testable import App

/// My Lists sorted and filtered, on the page, in the address and in the API.
@Suite("Library: sort and filter")
struct LibraryFilterTests {
    static func movie(_ id: Int, _ title: String, genre: String, released: String) -> Movie {
        Movie(id: id, title: title, director: "Someone", genre: genre, releaseDate: ITunesDates.parse(released), synopsis: "Plot.")
    }

    /// Four films: ratings, genres, years, notes and diary days that each sort a different way.
    static func seed(_ app: TestApp, profile: UUID) async throws {
        let library = app.services.library
        let films = [
            (Self.movie(11, "Beta", genre: "Drama", released: "2001-03-01"), 6, "quiet", "2020-05-01"),
            (Self.movie(12, "alpha", genre: "Comedy", released: "2019-07-01"), 10, "laughed a lot", "2022-01-01"),
            (Self.movie(13, "Gamma", genre: "Drama", released: "2019-01-01"), 0, "", "2021-06-01"),
            (Self.movie(14, "Delta 100%", genre: "Horror", released: "1999-10-01"), 3, "", ""),
        ]
        for (movie, rating, note, day) in films {
            app.clock.advance(60)
            try await library.update(
                profile: profile, movie: movie,
                change: .init(favorite: true, note: note.isEmpty ? nil : .some(note), rating: rating == 0 ? nil : .some(rating)))
            if !day.isEmpty {
                try await app.services.diary.log(profile: profile, title: try movie.savedTitle(), day: day, rating: nil, note: nil)
            }
        }
    }

    func titles(_ page: LibraryPage) -> [String] { page.items.map(\.title) }

    @Test("each sort orders as people expect; filters narrow by genre, year, rated and words (with % taken literally)")
    func sortsAndFilters() async throws {
        try await TestApp.with { app in
            let cookie = try await app.visitor()
            let found = try await app.profile(cookie)
            let profile = try #require(found)
            try await Self.seed(app, profile: profile)
            let library = app.services.library
            func list(_ filter: LibraryFilter) async throws -> [String] {
                titles(try await library.list(profile: profile, list: .all, page: 1, filter: filter))
            }
            #expect(try await list(LibraryFilter()) == ["Delta 100%", "Gamma", "alpha", "Beta"], "most recently changed first")
            #expect(try await list(LibraryFilter(sort: .added)) == ["Delta 100%", "Gamma", "alpha", "Beta"])
            #expect(try await list(LibraryFilter(sort: .title)) == ["alpha", "Beta", "Delta 100%", "Gamma"], "A to Z, whatever the case")
            #expect(try await list(LibraryFilter(sort: .released)) == ["alpha", "Gamma", "Beta", "Delta 100%"])
            #expect(try await list(LibraryFilter(sort: .rating)) == ["alpha", "Beta", "Delta 100%", "Gamma"], "unrated last")
            #expect(try await list(LibraryFilter(sort: .watched)) == ["alpha", "Gamma", "Beta", "Delta 100%"], "never logged last")
            #expect(try await list(LibraryFilter(sort: .title, genre: "Drama")) == ["Beta", "Gamma"])
            #expect(try await list(LibraryFilter(sort: .title, year: 2019)) == ["alpha", "Gamma"])
            #expect(try await list(LibraryFilter(sort: .title, rated: false)) == ["Gamma"])
            #expect(try await list(LibraryFilter(sort: .title, rated: true)) == ["alpha", "Beta", "Delta 100%"])
            #expect(try await list(LibraryFilter(text: "LAUGH")) == ["alpha"], "words in the note")
            #expect(try await list(LibraryFilter(text: "100%")) == ["Delta 100%"])
            #expect(try await list(LibraryFilter(text: "%")) == ["Delta 100%"], "% is a character, not a wildcard")
            #expect(try await library.genres(profile: profile) == ["Comedy", "Drama", "Horror"])
        }
    }

    @Test("the page keeps the choice in the address, in its tabs and pages; a bad value is a 400 page")
    func page() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try await app.visitor()
                let found = try await app.profile(cookie)
                try await Self.seed(app, profile: try #require(found))
                let page = try await client.get("/library?list=all&sort=rating&genre=Drama&q=qui+et", cookie: cookie).text
                #expect(page.contains(#"<option value="rating" selected>Your rating</option>"#))
                #expect(page.contains(#"<option value="Drama" selected>Drama</option>"#) && page.contains(#"value="qui et""#))
                #expect(page.contains(#"href="/library?list=favorites&amp;sort=rating&amp;genre=Drama&amp;q=qui%20et""#), "tabs keep it")
                #expect(page.contains("Nothing here matches your filters"), "“qui et” is in no title or note")
                let matching = try await client.get("/library?list=all&sort=title&genre=Drama", cookie: cookie).text
                #expect(matching.contains(#"id="movie-11""#) && matching.contains(#"id="movie-13""#) && !matching.contains(#"id="movie-12""#))
                for bad in ["sort=best", "year=19x9", "year=3000", "rated=maybe", "kind=book", "q=" + String(repeating: "x", count: 101)] {
                    #expect(try await client.get("/library?\(bad)", cookie: cookie).status == .badRequest, "\(bad)")
                }
            }
        }
    }

    @Test("the panel is open on a sort alone; a query with empty or default fields is a 303 to the clean address")
    func panelAndCleanAddress() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try await app.visitor()
                let closed = try await client.get("/library?list=all", cookie: cookie).text
                #expect(closed.contains(#"<details class="list-filter">"#) && closed.contains(#"data-default="changed""#))
                let sorted = try await client.get("/library?list=all&sort=title", cookie: cookie)
                #expect(sorted.status == .ok && sorted.text.contains(#"<details class="list-filter" open>"#), "a sort alone keeps it open")
                let cases = [
                    ("list=all&sort=changed&genre=&year=&rated=&q=", "/library?list=all"),
                    ("list=watched&kind=movie&sort=title&genre=&year=&rated=&q=", "/library?list=watched&kind=movie&sort=title"),
                    ("list=all&genre=Drama&q=+&page=1", "/library?list=all&genre=Drama"),
                    ("sort=changed", "/library?list=all"),
                ]
                for (query, clean) in cases {
                    let response = try await client.get("/library?\(query)", cookie: cookie)
                    #expect(response.status == .seeOther && response.headers[.location] == clean, "\(query)")
                }
                #expect(try await client.get("/library?list=all&sort=title&year=2019", cookie: cookie).status == .ok)
            }
        }
    }

    @Test("the API takes the same sort and filters")
    func api() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try await app.visitor()
                let found = try await app.profile(cookie)
                try await Self.seed(app, profile: try #require(found))
                let page = try APITests.decode(
                    Schemas.LibraryPage.self, try await client.get("/api/v1/library?sort=title&rated=true&year=2019", cookie: cookie))
                #expect(page.items.map(\.title) == ["alpha"] && page.total == 1)
                #expect(try await client.get("/api/v1/library?sort=best", cookie: cookie).status == .badRequest)
            }
        }
    }
}
