import Foundation
import HummingbirdTesting
import PopcornAPI
import SQLKit
import Testing

@testable import App

/// Statistics from the diary: per month and year, hours from runtimes, ratings, genres, most
/// rewatched; all time or a year in review; charts with the same numbers in tables.
@Suite("Library: statistics")
struct StatisticsTests {
    /// Five watches over two years: a thriller of 108 minutes twice (rated 4 stars), a drama once
    /// (rated 2½ stars), a show twice; the thriller's second watch is today (2026-11-18).
    static func history(_ app: TestApp, _ client: some TestClientProtocol) async throws -> String {
        let cookie = try await app.visitor()
        for (path, day) in [
            ("/library/movies/1001/watches", "2025-03-10"), ("/library/movies/1002/watches", "2026-02-01"),
            ("/library/shows/139/watches", "2026-02-02"), ("/library/shows/139/watches", "2026-02-05"),
        ] {
            #expect(try await client.postForm(path, [("day", day)], cookie: cookie).status == .seeOther)
        }
        _ = try await client.postForm("/library/movies/1001", [("watched", "1"), ("rating", "8")], cookie: cookie)
        _ = try await client.postForm("/library/movies/1002", [("rating", "5")], cookie: cookie)
        return cookie
    }

    @Test("all time and a year in review count watches, rewatches, hours, ratings, genres and the most rewatched")
    func numbers() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let profile = try await app.profile(try await Self.history(app, client))
                let all = try await app.services.statistics.statistics(profile: profile, year: nil)
                #expect(all.watches == 5 && all.films == 3 && all.shows == 2 && all.titles == 3 && all.rewatches == 2)
                #expect(all.filmMinutes == 216, "the thriller's 108 minutes twice; the drama has no runtime")
                #expect(all.years.map(\.key) == ["2025", "2026"] && all.years.map(\.watches) == [1, 4])
                #expect(all.months.count == 12 && all.months.last?.key == "2026-11" && all.months.last?.films == 1)
                #expect(all.ratings[7] == 1 && all.ratings[4] == 1 && all.ratings.reduce(0, +) == 2)
                #expect(all.genres.first == .init(name: "Thriller", watches: 2) || all.genres.contains(.init(name: "Thriller", watches: 2)))
                #expect(Set(all.rewatched.map(\.itemID)) == ["1001", "139"] && all.rewatched.allSatisfy { $0.watches == 2 })
                #expect(all.reviewYears == [2026, 2025])

                let year2025 = try await app.services.statistics.statistics(profile: profile, year: 2025)
                #expect(year2025.watches == 1 && year2025.rewatches == 0 && year2025.rewatched.isEmpty && year2025.ratings.reduce(0, +) == 1)
                #expect(year2025.months.map(\.key).first == "2025-01" && year2025.months[2].films == 1)
                let year2026 = try await app.services.statistics.statistics(profile: profile, year: 2026)
                #expect(year2026.watches == 4 && year2026.titles == 3 && year2026.rewatches == 2, "the thriller seen in 2025 is a rewatch in 2026")
                #expect(year2026.ratings.reduce(0, +) == 2 && year2026.months[1].shows == 2 && year2026.months[1].films == 1)
            }
        }
    }

    @Test(
        "figures read from the diary are kept only while it is unchanged: a rating changes the ratings alone; a watch logged, edited or deleted changes the rest"
    )
    func keptFigures() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try await Self.history(app, client)
                let profile = try #require(try await app.profile(cookie))
                let statistics = app.services.statistics
                let before = try await statistics.statistics(profile: profile, year: nil)
                #expect(before.watches == 5 && before.ratings[4] == 1)

                _ = try await client.postForm("/library/movies/1002", [("rating", "9")], cookie: cookie)
                let rated = try await statistics.statistics(profile: profile, year: nil)
                #expect(rated.ratings[4] == 0 && rated.ratings[8] == 1 && rated.watches == 5)

                _ = try await client.postForm("/library/movies/1002", [("watched", "1")], cookie: cookie)
                let marked = try await statistics.statistics(profile: profile, year: nil)
                #expect(marked.watches == 6 && marked.titles == 3 && marked.rewatches == 3, "marking Watched logs a watch today")

                let show = try #require(
                    try await app.services.database.sql.select().column("id").from("watches").where("item_id", .equal, SQLBind("139"))
                        .where("watched_on", .equal, SQLBind("2026-02-05")).first()?.decode(column: "id", as: UUID.self))
                #expect(try await app.services.diary.update(profile: profile, id: show, day: "2024-06-01", rating: nil, note: nil))
                let moved = try await statistics.statistics(profile: profile, year: nil)
                #expect(moved.years.map(\.key) == ["2024", "2025", "2026"] && moved.reviewYears == [2026, 2025, 2024])
                #expect(try await statistics.statistics(profile: profile, year: 2024).shows == 1)

                #expect(try await app.services.diary.delete(profile: profile, id: show))
                let deleted = try await statistics.statistics(profile: profile, year: nil)
                #expect(deleted.watches == 5 && deleted.years.map(\.key) == ["2025", "2026"])
                #expect(try await statistics.statistics(profile: profile, year: 2024).watches == 0)
            }
        }
    }

    @Test("the page draws each chart as SVG with a table of the same numbers, and links every year in review")
    func page() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try await Self.history(app, client)
                let page = try await client.get("/stats", cookie: cookie).text
                #expect(
                    page.contains("<h1>Statistics</h1>") && page.contains("<strong>5</strong> watches")
                        && page.contains("<strong>2</strong> rewatches"))
                #expect(
                    page.contains(#"<svg class="stats-chart""#) && page.contains(#"<title id="chart-months">"#)
                        && page.contains(#"<title id="chart-years">"#))
                #expect(page.contains(#"<tr><th scope="row">2026</th><td class="num">2</td><td class="num">2</td>"#))
                #expect(page.contains(#"<tr><th scope="row">4 stars</th><td class="num">1</td></tr>"#))
                #expect(page.contains(#"href="/stats?year=2025""#) && page.contains(#"<th scope="row">Thriller</th><td class="num">2</td>"#))
                let review = try await client.get("/stats?year=2026", cookie: cookie).text
                #expect(
                    review.contains("<h1>2026 in review</h1>")
                        && review.contains(#"<tr><th scope="row">February 2026</th><td class="num">1</td><td class="num">2</td>"#))
                #expect(!review.contains(#"id="chart-years""#))
                // A new watch shows at once (the cached page is per version).
                _ = try await client.postForm("/library/movies/1002/watches", [("day", "2026-11-17")], cookie: cookie)
                #expect(try await client.get("/stats", cookie: cookie).text.contains("<strong>6</strong> watches"))

                #expect(try await client.get("/stats?year=abc", cookie: cookie).status == .badRequest)
                #expect(try await client.get("/stats?year=1700", cookie: cookie).status == .badRequest)
                let stranger = try await client.get("/stats", cookie: try await app.visitor()).text
                #expect(stranger.contains("No watches logged here yet") && !stranger.contains("Thriller"))
            }
        }
    }

    @Test("the API answers the same numbers; without a session it is 401")
    func api() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try await Self.history(app, client)
                let stats = try APITests.decode(Schemas.Statistics.self, try await client.get("/api/v1/stats?year=2026", cookie: cookie))
                #expect(
                    stats.year == 2026 && stats.watches == 4 && stats.rewatches == 2 && stats.ratings.count == 10
                        && stats.reviewYears == [2026, 2025])
                #expect(stats.months.count == 12 && stats.months[1].period == "2026-02" && stats.months[1].shows == 2)
                let all = try APITests.decode(Schemas.Statistics.self, try await client.get("/api/v1/stats", cookie: cookie))
                #expect(all.year == nil && all.watches == 5 && all.filmMinutes == 216 && all.mostRewatched.count == 2)
                #expect(try await client.get("/api/v1/stats").status == .unauthorized)
                #expect(try await client.get("/api/v1/stats?year=1887", cookie: cookie).status == .badRequest)
            }
        }
    }
}
