import Foundation
import HummingbirdTesting
import PopcornAPI
import Testing

@testable import App

/// Ratings in half stars (1 = ½ ★ … 10 = 5 ★) on films and shows: from a form without
/// JavaScript, from app.js, and from the API; a rated title stays saved; bad values are refused.
@Suite("Library: ratings")
struct RatingTests {
    @Test("½ to 5 stars in words and stars; IMDb's 1–10 and Letterboxd's stars ×2 are the stored numbers")
    func scale() {
        #expect(Rating.words(1) == "½ star" && Rating.words(2) == "1 star" && Rating.words(7) == "3½ stars" && Rating.words(10) == "5 stars")
        #expect(Rating.stars(7) == "★★★½" && Rating.stars(1) == "½" && Rating.stars(10) == "★★★★★")
        let letterboxd = [0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5]
        #expect(letterboxd.map { Int($0 * 2) } == Array(Rating.range), "every Letterboxd rating has its own stored number")
    }

    @Test("a film rated from its page without JavaScript: back at the page, the choice kept, changed, then cleared")
    func filmForm() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let rated = try await client.postForm("/library/movies/1001", [("rating", "7"), ("return_to", "/movies/1001")])
                #expect(rated.status == .seeOther && rated.headers[.location] == "/movies/1001")
                let cookie = try #require(rated.sessionCookie)
                let page = try await client.get("/movies/1001", cookie: cookie).text
                #expect(page.contains(#"<option value="7" selected>3½ stars</option>"#))
                // Rated, not a favorite nor watched: still saved, under All saved only.
                #expect(try await client.get("/library?list=all", cookie: cookie).text.contains(#"id="movie-1001""#))
                #expect(!(try await client.get("/library?list=favorites", cookie: cookie).text.contains(#"id="movie-1001""#)))
                let json = try await client.postForm("/library/movies/1001", [("rating", "10")], cookie: cookie, json: true)
                #expect(json.status == .ok && json.text.contains(#""rating":10"#))
                _ = try await client.postForm("/library/movies/1001", [("favorite", "1")], cookie: cookie)
                _ = try await client.postForm("/library/movies/1001", [("rating", "0")], cookie: cookie)
                let profile = try await app.profile(cookie)
                let after = try await app.services.library.item(profile: profile, movieID: 1001)
                #expect(after?.rating == nil && after?.favorite == true, "cleared, the favorite kept")
                for bad in ["11", "-1", "3.5", "five"] {
                    let refused = try await client.postForm("/library/movies/1001", [("rating", bad)], cookie: cookie)
                    #expect(refused.status == .badRequest, "\(bad)")
                }
                let unchanged = try await app.services.library.item(profile: profile, movieID: 1001)
                #expect(unchanged?.rating == nil, "nothing written")
            }
        }
    }

    @Test("a show rated without being a favorite is not in TV Favorites; its card and page keep the Favorite button")
    func showRating() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let rated = try await client.postForm("/library/shows/139", [("rating", "8"), ("return_to", "/shows/139")])
                #expect(rated.status == .seeOther)
                let cookie = try #require(rated.sessionCookie)
                let page = try await client.get("/shows/139", cookie: cookie).text
                #expect(page.contains(#"<option value="8" selected>4 stars</option>"#) && page.contains("btn-favorite-show"))
                #expect(!(try await client.get("/shows/favorites", cookie: cookie).text.contains(#"id="show-139""#)))
                #expect(try await client.get("/shows", cookie: cookie).text.contains(#"aria-label="Favorite Girls""#))
                // The Favorite button still saves it, and the rating stays.
                _ = try await client.postForm("/library/shows/139", [("favorite", "1")], cookie: cookie)
                let profile = try await app.profile(cookie)
                let item = try await app.services.library.item(profile: profile, movieID: 139, kind: .show)
                #expect(item?.favorite == true && item?.rating == 8)
            }
        }
    }

    @Test("the API sets, changes and clears ratings on films and shows; out of range is a 422 problem")
    func api() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let film = try await client.sendJSON("/api/v1/library/movies/1001", method: .put, #"{"rating": 9}"#)
                let cookie = try #require(film.sessionCookie)
                #expect(try APITests.decode(Schemas.LibraryEntry.self, film).rating == 9)
                let tooHigh = try await client.sendJSON("/api/v1/library/movies/1001", method: .put, #"{"rating": 11}"#, cookie: cookie)
                #expect(tooHigh.status == .unprocessableContent || tooHigh.status == .badRequest)
                let profile = try await app.profile(cookie)
                let kept = try await app.services.library.item(profile: profile, movieID: 1001)
                #expect(kept?.rating == 9, "a refused rating writes nothing")
                let cleared = try await client.sendJSON("/api/v1/library/movies/1001", method: .put, #"{"rating": 0}"#, cookie: cookie)
                #expect(cleared.status == .noContent, "neither a favorite, watched nor rated: removed")

                let show = try await client.sendJSON("/api/v1/library/shows/139", method: .put, #"{"rating": 3}"#, cookie: cookie)
                let entry = try APITests.decode(Schemas.LibraryEntry.self, show)
                #expect(entry.rating == 3 && !entry.favorite)
                let detail = try APITests.decode(Schemas.ShowDetail.self, try await client.get("/api/v1/shows/139", cookie: cookie))
                #expect(!detail.saved, "rated is not a TV favorite")
                let favorite = try await client.sendJSON("/api/v1/library/shows/139", method: .put, "", cookie: cookie)
                #expect(try APITests.decode(Schemas.LibraryEntry.self, favorite).favorite, "no body still means: add to TV Favorites")
                let unrated = try await client.sendJSON("/api/v1/library/shows/139", method: .put, #"{"rating": 0}"#, cookie: cookie)
                #expect(try APITests.decode(Schemas.LibraryEntry.self, unrated).rating == nil)
            }
        }
    }
}

extension TestApp {
    /// The profile behind a `Set-Cookie` session cookie ("name=token").
    func profile(_ cookie: String) async throws -> UUID? {
        try await services.sessions.profile(forToken: String(cookie.drop { $0 != "=" }.dropFirst()))
    }
}
