import Foundation
import Testing

@testable import App

@Suite("iTunes decoding")
struct ITunesDecodingTests {
    let movies = try! ITunesDecoder.movies(from: Fixtures.data("itunes/year-2026.json"))

    @Test("keeps only feature films and drops results without an id")
    func keepsFeatureFilmsOnly() {
        let titles = movies.map(\.title)
        #expect(!titles.contains("Not A Movie Episode"))
        #expect(!titles.contains("No Id At All"))
        #expect(movies.count == 5)
    }

    @Test("sorts by release date, newest first, undated last")
    func sortsNewestFirst() {
        #expect(movies.map(\.id) == [1003, 1001, 1006, 1002, 1005])
    }

    @Test("maps every field a page shows")
    func mapsFields() throws {
        let movie = try #require(movies.first { $0.id == 1001 })
        #expect(movie.director == "Jane Director")
        #expect(movie.genre == "Thriller")
        #expect(movie.runtimeMinutes == 108)
        #expect(movie.contentRating == "R")
        #expect(movie.price == 14.99)
        #expect(movie.currency == "USD")
        #expect(movie.synopsis == "A long synopsis about the middle of the year.")
        #expect(movie.storeURL == "https://itunes.apple.com/us/movie/middle-of-the-year/id1001?uo=4")
        #expect(movie.year == 2026)
    }

    @Test("asks for the large artwork, keeping URLs without the size pattern as they are")
    func artwork() {
        #expect(movies.first { $0.id == 1001 }?.artworkURL == "https://is1-ssl.mzstatic.com/image/thumb/Video/v4/aa/bb/1001/source/600x600bb.jpg")
        #expect(movies.first { $0.id == 1002 }?.artworkURL == "https://is2-ssl.mzstatic.com/image/thumb/Video/odd-artwork.png")
        #expect(movies.first { $0.id == 1003 }?.artworkURL == nil)
    }

    @Test("tolerates a string trackId, a string price, fractional seconds and missing fields")
    func tolerant() throws {
        #expect(movies.contains { $0.id == 1003 && $0.director == nil && $0.synopsis == nil })
        let undated = try #require(movies.first { $0.id == 1005 })
        #expect(undated.releaseDate == nil)
        #expect(undated.price == nil)
        #expect(movies.first { $0.id == 1006 }?.releaseDate == ITunesDates.parse("2026-04-02T07:00:00Z"))
    }

    @Test("never keeps a non-http store link")
    func unsafeLinksDropped() {
        #expect(movies.first { $0.id == 1006 }?.storeURL == nil)
    }

    @Test("rejects a body that is not an iTunes response")
    func rejectsGarbage() {
        #expect(throws: (any Error).self) { try ITunesDecoder.movies(from: Data("{\"resultCount\":1,\"results\":[".utf8)) }
        #expect(throws: (any Error).self) { try ITunesDecoder.movies(from: Data()) }
        #expect(throws: (any Error).self) { try ITunesDecoder.movies(from: Data("<html>Forbidden</html>".utf8)) }
    }

    @Test("parses iTunes dates with and without time, fraction or offset")
    func dates() {
        let midnight = ITunesDates.parse("2026-06-12")
        #expect(midnight == ITunesDates.parse("2026-06-12T00:00:00Z"))
        #expect(ITunesDates.parse("2026-06-12T07:00:00.123Z") == ITunesDates.parse("2026-06-12T07:00:00Z"))
        #expect(ITunesDates.parse("2026-06-12T09:00:00+02:00") == ITunesDates.parse("2026-06-12T07:00:00Z"))
        #expect(ITunesDates.parse("June 12") == nil)
        #expect(ITunesDates.parse("2026-13-01") == nil)
    }

    @Test("the bundled offline catalogue decodes with the same code: at least 150 films over 8 years including the latest three")
    func offlineCatalogue() throws {
        let catalogue = try OfflineCatalog.bundled()
        #expect(catalogue.count >= 150)
        #expect(catalogue.moviesByYear.keys.count >= 8)
        for year in [2024, 2025, 2026] { #expect(catalogue.movies(year: year).count >= 15, "year \(year)") }
        let year = catalogue.movies(year: 2024)
        #expect(year == year.sortedNewestFirst())
    }
}
