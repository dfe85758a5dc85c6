import Foundation
import Testing

@testable import App

/// The readers of other trackers' exports, on files in their real layouts and quirks.
@Suite("Import: reading exports")
struct ImportParserTests {
    static let bom = "\u{FEFF}"

    @Test("Letterboxd's diary: ½–5 stars ×2, Rewatch Yes, quoted tags, the watched date; the diary entry's URI is not the film's")
    func letterboxdDiary() throws {
        let diary =
            Self.bom + """
                Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date\r
                2024-01-03,Heat,1995,https://boxd.it/abc1,4.5,,"crime, la",2024-01-02\r
                2024-02-10,Heat,1995,https://boxd.it/abc2,5,Yes,,2024-02-09\r
                2024-03-01,"Crouching Tiger, Hidden Dragon",2000,https://boxd.it/abc3,,,,\r
                2024-03-02,Bad Stars,2001,https://boxd.it/abc4,4.25,,,2024-03-01\r
                2024-03-03,Bad Day,2001,https://boxd.it/abc5,3,,,2024-13-01\r
                2024-03-04,,2001,https://boxd.it/abc6,3,,,2024-03-04\r

                """
        let read = try LetterboxdFiles.read(Data(diary.utf8), as: .diary, named: "diary.csv")
        #expect(read.rows.count == 3)
        let first = read.rows[0]
        #expect(first.title == "Heat" && first.year == 1995 && first.rating == 9 && !first.rewatch && first.tags == ["crime", "la"])
        #expect(first.watchedOn == "2024-01-02" && first.watched && first.letterboxdURI == nil && first.line == 2 && first.kind == .movie)
        #expect(read.rows[1].rewatch && read.rows[1].rating == 10 && read.rows[1].watchedOn == "2024-02-09")
        #expect(read.rows[2].title == "Crouching Tiger, Hidden Dragon" && read.rows[2].rating == nil && read.rows[2].watchedOn == nil)
        #expect(read.problems.map(\.line) == [5, 6, 7], "every row that cannot be read is reported, none dropped silently")
        #expect(read.problems[0].reason.contains("4.25") && read.problems[1].reason.contains("2024-13-01"))
        #expect(read.problems.allSatisfy { $0.file == "diary.csv" && $0.step == "read" })
    }

    @Test("Letterboxd's other files: ratings, watched, watchlist, likes, and a list's two-part layout with its name and positions")
    func letterboxdFiles() throws {
        let ratings = "Date,Name,Year,Letterboxd URI,Rating\n2023-05-01,Alien,1979,https://boxd.it/2b0k,0.5\n"
        let rated = try LetterboxdFiles.read(Data(ratings.utf8), as: .ratings, named: "ratings.csv")
        #expect(rated.rows.first?.rating == 1 && rated.rows.first?.letterboxdURI == "https://boxd.it/2b0k" && rated.rows.first?.watched == false)
        let watchlist = "Date,Name,Year,Letterboxd URI\n2023-05-01,Dune,2021\n"
        let wanted = try LetterboxdFiles.read(Data(watchlist.utf8), as: .watchlist, named: "watchlist.csv")
        #expect(wanted.rows.first?.watchlist == true && wanted.rows.first?.year == 2021, "a ragged row (no URI) is read")
        let list = """
            Letterboxd list export v7
            Date,Name,Tags,URL,Description
            2024-06-01,Heist nights,,https://letterboxd.com/me/list/heist-nights/,"Films for Friday"

            Position,Name,Year,URL,Description
            1,Heat,1995,https://boxd.it/29qO,"The diner scene"
            2,Thief,1981,https://boxd.it/1Ryc,

            """
        let listed = try LetterboxdFiles.read(Data(list.utf8), as: .list, named: "lists/heist-nights.csv")
        #expect(listed.rows.map(\.title) == ["Heat", "Thief"] && listed.rows.map(\.listPosition) == [1, 2])
        #expect(listed.rows.allSatisfy { $0.list == "Heist nights" } && listed.rows[0].review == "The diner scene")
        #expect(listed.rows[0].line == 6, "rows are numbered in the file as a person sees it")

        #expect(LetterboxdFiles.file(named: "diary.csv") == .diary && LetterboxdFiles.file(named: "lists/heist-nights.csv") == .list)
        #expect(LetterboxdFiles.file(named: "likes/films.csv") == .likes && LetterboxdFiles.file(named: "likes/reviews.csv") == nil)
        for ignored in ["__MACOSX/diary.csv", "deleted/diary.csv", "orphaned/lists/x.csv", "profile.csv", "comments.csv", "diary.txt"] {
            #expect(LetterboxdFiles.file(named: ignored) == nil, "\(ignored)")
        }
    }

    @Test("IMDb: 2024+ headers and the older ones, Title Type in either spelling, ragged rows; episodes and bad ratings are reported")
    func imdb() throws {
        let new = """
            Const,Your Rating,Date Rated,Title,Original Title,URL,Title Type,IMDb Rating,Runtime (mins),Year,Genres,Num Votes,Release Date,Directors
            tt0113277,9,2024-01-02,Heat,Heat,https://www.imdb.com/title/tt0113277/,Movie,8.3,170,1995,"Crime, Drama",700000,1995-12-15,Michael Mann
            tt0903747,10,2024-01-03,Breaking Bad,Breaking Bad,https://www.imdb.com/title/tt0903747/,TV Series,9.5,49,2008,Drama,2000000,2008-01-20,
            tt0959621,8,2024-01-04,Pilot,Pilot,https://www.imdb.com/title/tt0959621/,TV Episode,8.2,58,2008,Drama,50000,2008-01-20,
            tt0078748,11,2024-01-05,Alien,Alien,https://www.imdb.com/title/tt0078748/,Movie,8.5,117,1979
            """
        let read = try IMDbFile.read(Data(new.utf8), named: "ratings.csv")
        #expect(read.rows.map(\.imdbID) == ["tt0113277", "tt0903747"] && read.rows.map(\.kind) == [.movie, .show])
        #expect(read.rows[0].rating == 9 && read.rows[0].originalTitle == "Heat" && read.rows[0].year == 1995)
        #expect(read.problems.map(\.line) == [4, 5] && read.problems[0].reason.contains("TV Episode"))
        let old = """
            Position,Const,Created,Modified,Description,Title,URL,Title Type,IMDb Rating,Runtime (mins),Year,Genres,Num Votes,Release Date,Directors
            1,tt0113277,2020-01-01,2020-01-01,,Heat,https://www.imdb.com/title/tt0113277/,movie,8.3,170,1995,"Crime, Drama",700000,1995-12-15,Michael Mann
            2,tt0306414,2020-01-01,2020-01-01,,The Wire,https://www.imdb.com/title/tt0306414/,tvSeries,9.3,59,2002
            """
        let watchlist = try IMDbFile.read(Data(old.utf8), named: "WATCHLIST.csv")
        #expect(watchlist.rows.map(\.kind) == [.movie, .show] && watchlist.rows.allSatisfy { $0.watchlist && $0.list == nil })
        #expect(watchlist.rows[0].rating == nil)
        let list = try IMDbFile.read(Data(old.utf8), named: "imdb/Crime nights.csv")
        #expect(list.rows.map(\.list) == ["Crime nights", "Crime nights"] && list.rows.map(\.listPosition) == [1, 2] && !list.rows[0].watchlist)
    }

    @Test("a file that is not one of these is refused whole, saying why")
    func refused() {
        #expect(throws: ImportRefused.self) { try IMDbFile.read(Data("Name,Year\nHeat,1995\n".utf8), named: "x.csv") }
        #expect(throws: ImportRefused.self) { try LetterboxdFiles.read(Data("Const,Title\ntt1,Heat\n".utf8), as: .diary, named: "diary.csv") }
        #expect(throws: ImportRefused.self) { try LetterboxdFiles.read(Data([0x4E, 0x61, 0xFF, 0xFE, 0x0A]), as: .diary, named: "diary.csv") }
        #expect(throws: ImportRefused.self) { try LetterboxdFiles.read(Data(), as: .ratings, named: "ratings.csv") }
        do {
            _ = try IMDbFile.read(Data("Name,Year\n".utf8), named: "x.csv")
            Issue.record("read")
        } catch {
            #expect(error.message.contains("not an IMDb export"))
        }
        let wide = "Name,Letterboxd URI" + String(repeating: ",", count: 5_000) + "\n" + String(repeating: "x\n", count: 10)
        do {
            _ = try LetterboxdFiles.read(Data(wide.utf8), as: .diary, named: "diary.csv")
            Issue.record("a header of 5,000 columns was read")
        } catch {
            #expect(error.message.contains("more than 100 columns"))
        }
    }

    @Test("Trakt's list files are named from lists-lists by slug or id, with or without a page number, a slug ending in a number kept whole")
    func traktListNames() {
        let names = ["top-10": "Top 10", "9": "Faves", "faves": "Faves", "heist-nights": "Heist nights"]
        #expect(TraktFiles.listName("top-10", in: names) == "Top 10")
        #expect(TraktFiles.listName("top-10-2", in: names) == "Top 10")
        #expect(TraktFiles.listName("9-faves", in: names) == "Faves" && TraktFiles.listName("9-faves-3", in: names) == "Faves")
        #expect(TraktFiles.listName("heist-nights", in: names) == "Heist nights")
        #expect(TraktFiles.listName("unknown-1", in: names) == "unknown-1", "an unknown list keeps its file's name: nothing is dropped")
        #expect(TraktFiles.file(named: "lists-list-top-10.json") == .list("top-10"))
    }

    @Test(
        "a Trakt file is read entry by entry: strings holding brackets and escaped quotes, nesting and space are skipped over; a broken array is refused"
    )
    func traktEntries() throws {
        let json = "\u{FEFF} [ {\"a\": \"x],[\\\"}\", \"b\": [1, {\"c\": []}]} ,\n[2, 3], \"s\" , 4 ]\n"
        var elements = JSONArrayElements(Data(json.utf8))
        let read = Array(AnySequence { elements }).map { String(decoding: $0, as: UTF8.self) }
        #expect(read == [#"{"a": "x],[\"}", "b": [1, {"c": []}]}"#, "[2, 3]", #""s""#, "4"])
        #expect(Array(JSONArrayElements(Data("[]".utf8))).isEmpty)
        // An object's members the same way (Simkl's backup): each value's own bytes.
        let members = try JSONArrayElements.objectMembers(Data(#" {"shows": [{"t": "a}"}], "movies" : null, "k\u0041": 1 } "#.utf8))
        #expect(members.map(\.key) == ["shows", "movies", "kA"])
        #expect(members.map { String(decoding: $0.value, as: UTF8.self) } == [#"[{"t": "a}"}]"#, "null", "1"])
        #expect(try JSONArrayElements.objectMembers(Data("{}".utf8)).isEmpty)
        for broken in ["[]", "{\"a\"}", "{\"a\": 1,}", "{\"a\": 1} x", "{\"a\": }"] {
            #expect(throws: JSONArrayElements.Malformed.self, "\(broken)") { try JSONArrayElements.objectMembers(Data(broken.utf8)) }
        }
        for broken in ["", "{}", "[1,]", "[1", "[\"open]", "[1] 2", "[,1]"] {
            elements = JSONArrayElements(Data(broken.utf8))
            while elements.next() != nil {}
            #expect(elements.failure != nil, "\(broken)")
        }
        do {
            _ = try TraktFiles.read(
                Data(#"[{"type": "movie", "movie": {"title": "A"}}, {"type": 3}]"#.utf8), as: .history, named: "watched-history.json")
            Issue.record("read")
        } catch {
            #expect(error.message == "watched-history.json is not a Trakt export file: its entry 2 could not be read (a value of the wrong type).")
        }
    }

    @Test("a Trakt file of more than 200,000 entries is refused before more are decoded")
    func traktCap() {
        let json = "[" + Array(repeating: "{}", count: NamedCSV.maxRows + 1).joined(separator: ",") + "]"
        do {
            _ = try TraktFiles.read(Data(json.utf8), as: .history, named: "watched-history.json")
            Issue.record("read")
        } catch {
            #expect(error.message.contains("more than 200000 entries"))
        }
    }
}
