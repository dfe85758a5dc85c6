import Foundation
import Testing

@testable import App

@Suite("OMDb decoding")
struct OMDbDecodingTests {
    func fixture(_ title: String) throws -> Data {
        let movie = try #require(Fixtures.omdbMovies.first { $0["Title"] as? String == title })
        return try JSONSerialization.data(withJSONObject: movie)
    }

    @Test("a film: every field read, \"N/A\" means absent")
    func film() throws {
        let answer = try OMDbDecoder.decode(fixture("Spider"))
        guard case .found(let details) = answer else {
            Issue.record("expected a film, got \(answer)")
            return
        }
        #expect(details.imdbID == "tt0278731")
        #expect(details.title == "Spider")
        #expect(details.director == "David Cronenberg")
        #expect(details.genre == "Drama, Mystery, Thriller")
        #expect(details.plot?.hasPrefix("A mentally disturbed man takes residence in a halfway house.") == true)
        #expect(details.imdbRating == "6.7")
        #expect(details.startYear == 2002 && details.endYear == nil)
        // "N/A" in the fixture: no poster, no awards-like extras turn into text.
        #expect(details.posterURL == nil)
        #expect(details.imdbURL == "https://www.imdb.com/title/tt0278731/")
    }

    @Test("a series' years use an en dash: 2008–2013, and a running one 2019–")
    func seriesYears() throws {
        guard case .found(let details) = try OMDbDecoder.decode(fixture("Breaking Bad")) else {
            Issue.record("expected a series")
            return
        }
        #expect(details.year == "2008–2013")
        #expect(details.startYear == 2008 && details.endYear == 2013)
        #expect(details.director == nil, "\"N/A\" director is absent")
        #expect(details.type == "series")
        #expect(OMDbYears.parse("2019–")! == (2019, nil))
        #expect(OMDbYears.parse("N/A") == nil)
    }

    @Test("Response False with HTTP 200 is \"not found\"; key and limit errors (HTTP 401) are refusals")
    func responseFalse() throws {
        #expect(try OMDbDecoder.decode(Data(#"{"Response":"False","Error":"Movie not found!"}"#.utf8)) == .notFound("Movie not found!"))
        #expect(try OMDbDecoder.decode(Data(#"{"Response":"False","Error":"Incorrect IMDb ID."}"#.utf8)) == .notFound("Incorrect IMDb ID."))
        #expect(try OMDbDecoder.decode(Data(#"{"Response":"False","Error":"Invalid API key!"}"#.utf8)) == .refused("Invalid API key!"))
        #expect(try OMDbDecoder.decode(Data(#"{"Response":"False","Error":"Request limit reached!"}"#.utf8)) == .refused("Request limit reached!"))
    }

    @Test(
        "bodies that are not OMDb answers are rejected",
        arguments: [
            "", "{", "[]", #"{"Title":"Spider"}"#, #"{"Response":"True","Title":"No id"}"#, "<html>Bad gateway</html>",
        ])
    func malformed(_ body: String) {
        #expect(throws: OMDbDecoder.Malformed.self) { try OMDbDecoder.decode(Data(body.utf8)) }
    }
}
