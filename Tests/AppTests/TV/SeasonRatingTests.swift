import Foundation
import HTTPTypes
import Testing

@testable import App

/// A whole season's rating: on the show's page (without JavaScript), through the API, in the
/// backup, from Trakt's `ratings-seasons.json`; and a visitor's episodes, shows and season ratings
/// kept when they sign up or sign in.
@Suite("Season ratings")
struct SeasonRatingTests {
    @Test("rated on the show's page: the season says its rating, the form keeps it; 0 clears it; a season the show lacks is a 404")
    func page() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                _ = try await client.get("/shows/139")
                let rated = try await client.postForm(
                    "/library/shows/139/seasons/rating", [("season", "2"), ("rating", "7"), ("return_to", "/shows/139?season=2#episodes")])
                #expect(rated.status == .seeOther && rated.headers[.location]?.hasPrefix("/shows/139?season=2") == true)
                let cookie = try #require(rated.sessionCookie)
                let html = try await client.get("/shows/139?season=2", cookie: cookie).text
                #expect(html.contains(#"<span class="tag season-rated">Rated 3½ stars</span>"#))
                #expect(html.contains(#"<label for="season-rating-2">Your rating of season 2</label>"#))
                #expect(html.contains(#"<option value="7" selected>"#))

                let cleared = try await client.postForm(
                    "/library/shows/139/seasons/rating", [("season", "2"), ("rating", "0")], cookie: cookie, json: true)
                #expect(cleared.status == .ok && cleared.text.contains(#""season":2"#) && !cleared.text.contains(#""rating""#))
                #expect(!(try await client.get("/shows/139?season=2", cookie: cookie).text.contains("season-rated")))

                let missing = try await client.postForm("/library/shows/139/seasons/rating", [("season", "40"), ("rating", "5")], cookie: cookie)
                #expect(missing.status == .notFound)
                let bad = try await client.postForm("/library/shows/139/seasons/rating", [("season", "2"), ("rating", "11")], cookie: cookie)
                #expect(bad.status == .badRequest || bad.status == .unprocessableContent)
            }
        }
    }

    @Test("through the API: the show's episodes carry each season's rating; the backup keeps it and restores it once")
    func apiAndBackup() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let put = try await client.sendJSON("/api/v1/library/shows/139/seasons/3/rating", method: .put, #"{"rating": 9}"#)
                let answer = put.text.replacingOccurrences(of: " : ", with: ":")
                #expect(put.status == .ok && answer.contains(#""season":3"#) && answer.contains(#""rating":9"#))
                let cookie = try #require(put.sessionCookie)
                let listed = try await client.get("/api/v1/shows/139/episodes", cookie: cookie)
                let object = try JSONSerialization.jsonObject(with: Data(listed.text.utf8)) as? [String: Any]
                let seasons = try #require(object?["seasons"] as? [[String: Any]])
                #expect(seasons.first { $0["number"] as? Int == 3 }?["rating"] as? Int == 9)
                #expect(seasons.first { $0["number"] as? Int == 1 }?["rating"] == nil)
                let none = try await client.sendJSON("/api/v1/library/shows/139/seasons/99/rating", method: .put, #"{"rating": 9}"#, cookie: cookie)
                #expect(none.status == .notFound)
                let wrong = try await client.sendJSON("/api/v1/library/shows/139/seasons/3/rating", method: .put, #"{"rating": 12}"#, cookie: cookie)
                #expect(wrong.status == .badRequest)
            }
            let (profile, _) = try await app.signedIn("ana")
            guard case .found(let girls, _) = await app.services.shows.show(id: 139) else { throw Unexpected("no Girls") }
            try await app.services.episodes.rateSeason(profile: profile, show: girls, season: 1, rating: 6)
            let backup = try await app.services.exports.backup(profile: profile)
            #expect(backup.seasonRatings?.map { "\($0.showID) \($0.season) \($0.rating)" } == ["139 1 6"])
            let (other, _) = try await app.signedIn("bo")
            let restore = BackupRestore(database: app.services.database, history: SearchHistoryStore(database: app.services.database))
            let first = try await restore.restore(backup, profile: other)
            let second = try await restore.restore(backup, profile: other)
            #expect(first.added >= 1 && second.added == 0)
            #expect(try await app.services.episodes.seasonRatings(profile: other, showID: 139) == [1: 6])
        }
    }

    @Test("Trakt's season ratings land on their seasons; one TVMaze does not list fails, saying so; again adds nothing")
    func traktSeasons() async throws {
        try await TestApp.with { app in
            let (profile, _) = try await app.signedIn("ana")
            let girls = #""show":{"title":"Girls","year":2012,"ids":{"trakt":1,"slug":"girls","tvdb":220411,"imdb":"tt1723816","tmdb":42282}}"#
            func rating(_ season: Int, _ value: Int) -> String {
                #"{"rated_at":"2024-02-01T10:00:00.000Z","rating":\#(value),"type":"season","season":{"number":\#(season),"ids":{"trakt":\#(season + 900)}},\#(girls)}"#
            }
            let zip = try ImportReaderTests.zip([("ratings-seasons.json", Data("[\(rating(1, 8)),\(rating(2, 6)),\(rating(12, 4))]".utf8))])
            let job = try await ImportJobTests.run(app, profile, zip, "trakt.zip")
            #expect(job.source == .trakt && job.landed == 2 && job.failed == 1)
            #expect(try await app.services.episodes.seasonRatings(profile: profile, showID: 139) == [1: 8, 2: 6])
            #expect(try await app.services.library.item(profile: profile, movieID: 139, kind: .show)?.rating == nil, "not the show's own rating")
            let report = try await #require(try await app.services.imports.report(profile: profile, job: job.id)).csv()
            #expect(report.contains("TVMaze lists no season 12 of “Girls”"))
            let again = try await ImportJobTests.run(app, profile, zip, "trakt.zip")
            #expect(again.landed == 0 && again.skipped == 2)
        }
    }

    @Test("a visitor's episodes, shows begun and season ratings are the account's after signing up, and merge into one signed in to")
    func visitorKeepsEpisodes() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                _ = try await client.get("/shows/139")
                let mark = try await client.postForm("/library/episodes/12301", [("mark", "watch"), ("on", "unknown")])
                let visitor = try #require(mark.sessionCookie)
                _ = try await client.postForm("/library/episodes/12302", [("mark", "rate"), ("rating", "8")], cookie: visitor)
                _ = try await client.postForm("/library/shows/139/seasons/rating", [("season", "1"), ("rating", "9")], cookie: visitor)
                let signUp = try await client.postForm(
                    "/account/signup", [("username", "ana"), ("password", AccountTests.password)], cookie: visitor)
                let account = try #require(signUp.sessionCookie)
                let api = try await client.get("/api/v1/shows/139/episodes", cookie: account)
                let object = try JSONSerialization.jsonObject(with: Data(api.text.utf8)) as? [String: Any]
                let season = try #require((object?["seasons"] as? [[String: Any]])?.first { $0["number"] as? Int == 1 })
                let episodes = try #require(season["episodes"] as? [[String: Any]])
                #expect(episodes.first { $0["id"] as? Int == 12301 }?["watched"] as? Bool == true, "the watch on no known day")
                #expect(episodes.first { $0["id"] as? Int == 12302 }?["rating"] as? Int == 8)
                #expect(season["rating"] as? Int == 9)
                let upNext = try await client.get("/api/v1/up-next", cookie: account).text.replacingOccurrences(of: " : ", with: ":")
                #expect(upNext.contains(#""id":139"#), "the show begun")

                // Later, signed out, a new visitor rates the same season and marks another episode, then signs in: both kept.
                app.clock.advance(60)
                let again = try await client.postForm("/library/episodes/12303", [("mark", "watch"), ("on", "unknown")])
                let second = try #require(again.sessionCookie)
                _ = try await client.postForm("/library/shows/139/seasons/rating", [("season", "1"), ("rating", "4")], cookie: second)
                let signIn = try await client.postForm("/account/signin", [("username", "ana"), ("password", AccountTests.password)], cookie: second)
                let merged = try #require(signIn.sessionCookie)
                let after = try JSONSerialization.jsonObject(with: Data(try await client.get("/api/v1/shows/139/episodes", cookie: merged).text.utf8))
                let one = try #require(((after as? [String: Any])?["seasons"] as? [[String: Any]])?.first { $0["number"] as? Int == 1 })
                let states = try #require(one["episodes"] as? [[String: Any]])
                #expect(states.filter { $0["watched"] as? Bool == true }.count == 2)
                #expect(one["rating"] as? Int == 4, "the newer rating")
            }
        }
    }
}
