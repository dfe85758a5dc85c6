import Foundation
import SQLKit
import Testing

@testable import App

/// The title index on both databases: folded words, prefixes, the year as a filter, the exact
/// title first, answers kept before it existed filled in once.
@Suite("Title index")
struct TitleIndexTests {
    static func film(_ id: Int, _ title: String, _ year: Int) -> Movie {
        Movie(id: id, title: title, releaseDate: Calendar.newYear(year).map { $0.addingTimeInterval(86_400 * 120) })
    }

    @Test("a title is folded to lower-case letters and digits without accents, one space between words")
    func words() {
        #expect(TitleIndex.words("Amélie") == "amelie")
        #expect(TitleIndex.words("Spider-Man: Into the Spider-Verse") == "spider man into the spider verse")
        #expect(TitleIndex.words("  WALL·E  ") == "wall e")
        #expect(TitleIndex.words("千と千尋の神隠し") == "千と千尋の神隠し")
        let query = TitleIndex.Query("dune 2021")
        #expect(query.terms == ["dune"] && query.year == 2021)
        #expect(TitleIndex.Query("1917").year == nil, "a year alone is a title")
        #expect(TitleIndex.Query("!!!").terms.isEmpty)
    }

    @Test("prefixes, any case or accent, the year as a filter, the exact title first; a title twice in one answer is kept once")
    func search() async throws {
        try await TestApp.with(indexed: false) { app in
            let index = app.services.titleIndex
            await index.add(movies: [
                Self.film(1, "Dune: Part Two", 2024), Self.film(2, "Dune", 2021), Self.film(3, "Dune", 1984), Self.film(4, "Dunkirk", 2017),
                Self.film(5, "Amélie", 2001), Self.film(2, "Dune", 2021),
            ])
            let count = try await index.count()
            #expect(count == 5)
            func ids(_ query: String) async throws -> [Int] { try await index.movies(matching: query).map(\.id) }
            let dune = try await ids("dune")
            #expect(dune.prefix(2).sorted() == [2, 3], "the exact title first")
            let prefix = try await ids("DUN")
            #expect(Set(prefix) == [1, 2, 3, 4])
            let withYear = try await ids("dune 2021")
            #expect(withYear == [2])
            let twoWords = try await ids("dune part")
            #expect(twoWords == [1])
            let accents = (try await ids("AMELIE"), try await ids("amél"))
            #expect(accents.0 == [5] && accents.1 == [5])
            let nothing = try await ids("zzz")
            #expect(nothing.isEmpty)
            let syntax = try await ids("\" OR 1=1 --")
            #expect(syntax.isEmpty, "a query is words, never syntax")
        }
    }

    @Test("the worker's start fills the index from the bundled catalogue and, once, from answers kept before it existed")
    func backfill() async throws {
        try await TestApp.with(indexed: false) { app in
            // An answer kept before the index existed: written to the table, not through the store.
            try await SQLCacheStore(database: app.services.database).write(
                "itunes:year:US:2026", CachedBody(body: Fixtures.data("itunes/year-2026.json"), fetchedAt: app.clock.now()))
            let index = app.services.titleIndex
            let before = try await index.movies(matching: "spring story")
            #expect(before.isEmpty)
            try await index.backfill(bundled: app.services.catalog.offline, shows: app.services.shows.offline)
            let after = try await index.movies(matching: "spring story").map(\.title)
            #expect(after == ["Spring Story"])
            let bundled = try await index.movies(matching: "parasite")
            #expect(bundled.contains { $0.title == "Parasite" }, "the bundled catalogue")
            let count = try await index.count()
            try await index.backfill(bundled: app.services.catalog.offline, shows: app.services.shows.offline)
            let again = try await index.count()
            #expect(again == count)
            let marker = try await SQLCacheStore(database: app.services.database).read(TitleIndex.backfilledKey)
            #expect(marker != nil)
        }
    }
}
