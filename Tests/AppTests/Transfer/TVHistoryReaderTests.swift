import Foundation
import Testing

@testable import App

/// TV Time's GDPR export and Simkl's backup and CSV, read into rows: the fixtures carry what real
/// exports have (a BOM, quoted commas, empty ids, the same watch twice, the older and newer logs
/// repeating each other, renamed columns across versions), and the tests make the variants (member
/// names with prefixes, columns in another order, the folder's CSVs uploaded together, a tab-separated CSV).
@Suite("Import: TV Time and Simkl files")
struct TVHistoryReaderTests {
    static let tvtimeFiles = ["tracking-prod-records-v2.csv", "tracking-prod-records.csv", "followed_tv_show.csv", "user_tv_show_data.csv"]

    static func tvtime(_ name: String) -> Data { Fixtures.data("tvtime/" + name) }

    /// The export as TV Time's ZIP held it: the four files (with the prefixes some exports put on
    /// their names), and tables an importer must not open.
    static func tvtimeZIP(prefix: String = "7f3a_") throws -> Data {
        try ImportReaderTests.zip(
            tvtimeFiles.map { ("tv-time-personal-data/" + prefix + $0, tvtime($0)) } + [
                ("tv-time-personal-data/user.csv", Data("id,password_hash\n1,$2y$secret\n".utf8)),
                ("tv-time-personal-data/access_token.csv", Data("token\nabc\n".utf8)),
            ])
    }

    static func rows(_ reads: [ImportRead]) -> [ImportRow] { reads.flatMap(\.rows) }
    static func problems(_ reads: [ImportRead]) -> [ImportProblem] { reads.flatMap(\.problems) }

    @Test(
        "TV Time's ZIP: each watch once (v1 repeating v2, a row twice), both column pairs, the archived show Stopped, the favourite, films by name and year"
    )
    func tvtimeExport() async throws {
        let (source, reads) = try await ImportReaderTests.read(try Self.tvtimeZIP(), "tv-time-personal-data.zip")
        #expect(source == .tvtime)
        let rows = Self.rows(reads)
        let watches = rows.filter { $0.episode != nil }
        let codes = watches.map { "\($0.tvdbID ?? 0) \($0.episode!.code) \($0.watchedAt ?? "")" }
        #expect(
            codes == [
                "76703 S01E01 2026-01-10T19:02:11Z", "76703 S01E02 2026-01-10T19:25:40Z", "76703 S01E03 2026-01-11T18:40:03Z",
                "76703 S01E04 2026-01-12T18:55:27Z", "220411 S06E06 2026-02-20T21:29:58Z", "220411 S06E07 2026-02-20T21:29:58Z",
                "220411 S06E08 2026-02-20T21:30:00Z", "220411 S06E09 2026-02-21T21:12:45Z", "220411 S06E10 2026-02-21T21:49:02Z",
                "378553 S01E01 2026-03-05T22:10:09Z", "378553 S01E02 2026-03-06T22:31:40Z", "378553 S01E03 2026-03-07T23:02:18Z",
                "378553 S01E09 2026-03-08T22:47:51Z", "9900017 S01E01 2026-06-14T20:05:33Z", "9900017 S01E02 2026-06-21T20:07:12Z",
                "76703 S01E01 2026-04-03T09:15:00Z",
            ], "v2's watches in file order, its rewatch last; v1's two Pokémon watches are v2's again")
        #expect(watches.allSatisfy { $0.watched && $0.kind == .show && $0.watchedOn == String($0.watchedAt!.prefix(10)) })
        #expect(watches.first { $0.tvdbID == 9_900_017 }?.title == "Moths of Varrow Fen, and Other Stories", "the quoted comma")
        #expect(watches.first?.title == "Pokémon", "the BOM did not spoil the first column")

        let skipped = Self.problems(reads).filter(\.skipped)
        #expect(skipped.contains { $0.line == 18 && $0.reason == "The same watch as row 17: counted once." })
        #expect(skipped.filter { $0.reason.hasPrefix("The same watch as") }.count == 3, "the duplicated row, and v1's two repeats")
        #expect(skipped.contains { $0.file.hasSuffix("tracking-prod-records.csv") && $0.reason.contains("tracking-prod-records-v2.csv, row") })
        #expect(skipped.contains { $0.line == 2 && $0.reason == TVTimeFiles.runningTotal })
        #expect(Self.problems(reads).allSatisfy { $0.skipped }, "nothing failed to read")

        let films = rows.filter { $0.kind == .movie }
        #expect(films.map(\.title) == ["Spirited Away", "Crouching Tiger, Hidden Dragon", "Paddington 2", "The Glass Orchard Affair"])
        #expect(films[0].year == 2001 && films[0].watched && films[0].watchedOn == "2026-02-07")
        #expect(films[1].year == 2000 && films[1].watchedOn == "2026-05-16")
        #expect(films[2].watchlist && !films[2].watched && films[2].year == 2017, "a followed film is one to watch")
        #expect(films[3].watchlist && films[3].year == nil, "0001-01-01 is an unknown release date")

        let shows = rows.filter { $0.kind == .show && $0.episode == nil }
        let girls = shows.filter { $0.tvdbID == 220_411 }
        #expect(girls.contains { $0.following == .stopped }, "archived on TV Time")
        #expect(shows.filter { $0.tvdbID == 76703 }.allSatisfy { $0.following == .following })
        #expect(shows.contains { $0.tvdbID == 378_553 && $0.liked }, "the favourite")
        #expect(!rows.contains { $0.file.contains("user.csv") || $0.file.contains("token") }, "the account's tables are never read")
    }

    @Test("TV Time's files in another column order, s_no/ep_no only, read alone or chosen together, give the same rows")
    func tvtimeVariants() async throws {
        let (_, zipped) = try await ImportReaderTests.read(try Self.tvtimeZIP(prefix: ""), "export.zip")
        // The folder's four CSVs uploaded together, under their own names.
        var together: [ImportRead] = []
        let source = try await ImportReader.read(files: Self.tvtimeFiles.map { ($0, Self.tvtime($0)) }) { together.append($0) }
        func named(_ rows: [ImportRow]) -> [ImportRow] {
            rows.map { row in
                var row = row
                row.file = String(row.file.split(separator: "/").last ?? "")
                return row
            }
        }
        #expect(source == .tvtime && named(Self.rows(together)) == named(Self.rows(zipped)) && Self.rows(together).count == 32)

        // The log with its columns reversed and the season_number/episode_number pair gone (an
        // export that has only s_no/ep_no), uploaded alone under another name.
        let text = String(decoding: Self.tvtime("tracking-prod-records-v2.csv"), as: UTF8.self).replacingOccurrences(of: "\u{FEFF}", with: "")
        var csv = try NamedCSV(Data(text.utf8))
        let kept = csv.header.indices.filter { !["season_number", "episode_number"].contains(csv.header[$0]) }.reversed()
        var lines = [kept.map { csv.header[$0] }.joined(separator: ",")]
        while let (_, fields) = try csv.next() {
            lines.append(kept.map { $0 < fields.count ? Self.quoted(fields[$0]) : "" }.joined(separator: ","))
        }
        let (alone, reads) = try await ImportReaderTests.read(Data(lines.joined(separator: "\n").utf8), "my-history.csv")
        #expect(alone == .tvtime)
        let codes = Self.rows(reads).compactMap(\.episode).map(\.code)
        #expect(codes.count == 15, "every watch but the one that had only season_number/episode_number (S01E03 of The Midnight Gospel)")
        #expect(
            Self.problems(reads).contains {
                $0.reason == "The watch of “The Midnight Gospel” has no season and episode number PopcornSwirl can place."
            })
        #expect(codes.contains("S06E09"))
    }

    static func quoted(_ field: String) -> String {
        field.contains(",") || field.contains("\"") ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
    }

    @Test("a ZIP locked with a password (as TV Time sends its export) is refused, saying how to bring its files")
    func lockedZIP() async throws {
        var zip = try Self.tvtimeZIP()
        zip[zip.startIndex + 6] |= 1  // the first member's "encrypted" flag, as a password-protected ZIP sets it
        let refusal = await #expect(throws: ImportRefused.self) { _ = try await ImportReaderTests.read(zip, "tv-time.zip") }
        #expect(refusal?.message.contains("locked with a password") == true)
        #expect(refusal?.message.contains("choose the CSV files of its folder together") == true)
    }

    @Test("an older TV Time export without either log: seen_episode.csv gives the watches by show name")
    func tvtimeSeenEpisodes() async throws {
        let seen =
            "episode_id,tv_show_name,episode_season_number,episode_number,created_at\n101,Girls,1,1,2023-05-01 20:00:00\n102,Girls,1,2,2023-05-02 20:00:00\n"
        let (source, reads) = try await ImportReaderTests.read(try ImportReaderTests.zip([("seen_episode.csv", Data(seen.utf8))]), "old.zip")
        #expect(source == .tvtime)
        #expect(
            Self.rows(reads).map { "\($0.title) \($0.episode!.code) \($0.watchedOn!)" } == ["Girls S01E01 2023-05-01", "Girls S01E02 2023-05-02"])
    }

    @Test("Simkl's backup JSON, alone or in its ZIP: episodes on their days, a completed show watched through its last, statuses, ratings, ids")
    func simklBackup() async throws {
        let json = Fixtures.data("simkl/simkl-backup.json")
        let (source, reads) = try await ImportReaderTests.read(json, "SimklBackup.json")
        #expect(source == .simkl)
        let (zipSource, zipped) = try await ImportReaderTests.read(try ImportReaderTests.zip([("SimklBackup.json", json)]), "simkl-backup.zip")
        #expect(zipSource == .simkl && Self.rows(zipped) == Self.rows(reads))
        let rows = Self.rows(reads)
        let girls = try #require(rows.first { $0.title == "Girls" })
        #expect(girls.tvdbID == 220_411 && girls.rating == 9 && girls.following == .following)
        #expect(girls.watchedThrough == ImportedEpisode(season: 6, number: 10) && girls.watchedOn == "2026-05-02", "no episode list: up to S06E10")
        let gospel = rows.filter { $0.title == "The Midnight Gospel" }
        #expect(gospel.compactMap(\.episode).map(\.code) == ["S01E01", "S01E02", "S01E03"])
        #expect(gospel.first { $0.episode?.number == 3 }?.watchedAt == "2026-03-07T23:02:18Z")
        #expect(gospel.first { $0.episode == nil }?.watchedThrough == nil, "its episodes are listed")
        let moths = try #require(rows.first { $0.title == "Moths of Varrow Fen, and Other Stories" })
        #expect(moths.watchlist && moths.following == nil && moths.tvdbID == nil)
        let pokemon = rows.filter { $0.title == "Pokémon" }
        #expect(
            pokemon.first?.following == .following && pokemon.first?.rating == 6 && pokemon.count == 4, "anime is a show; on hold is still followed")
        let spirited = try #require(rows.first { $0.title == "Spirited Away" })
        #expect(spirited.kind == .movie && spirited.imdbID == "tt0245429" && spirited.tmdbID == 129 && spirited.watchedOn == "2026-02-07")
        #expect(spirited.rating == 10)
        #expect(rows.first { $0.title == "The Glass Orchard Affair" }?.watchlist == true)
        let tiger = try #require(rows.first { $0.title == "Crouching Tiger, Hidden Dragon" })
        #expect(!tiger.watched && tiger.rating == 5 && tiger.watchedOn == nil, "dropped: its rating only")
    }

    @Test("Simkl's CSV, comma- or tab-separated: how far each show got, statuses, ratings and ids")
    func simklCSV() async throws {
        let csv = Fixtures.data("simkl/simkl-export.csv")
        let (source, reads) = try await ImportReaderTests.read(csv, "simkl-export.csv")
        #expect(source == .simkl && Self.problems(reads).isEmpty)
        let rows = Self.rows(reads)
        #expect(rows.count == 7)
        let gospel = try #require(rows.first { $0.title == "The Midnight Gospel" })
        #expect(gospel.watchedThrough?.code == "S01E03" && gospel.watchedAt == "2026-03-07T23:02:00Z" && gospel.following == .following)
        #expect(gospel.tvdbID == 378_553 && gospel.rating == 7)
        #expect(rows.first { $0.title == "Moths of Varrow Fen, and Other Stories" }.map { $0.watchlist && $0.watchedThrough == nil } == true)
        #expect(
            rows.first { $0.title == "Spirited Away" }.map { $0.kind == .movie && $0.watchedOn == "2026-02-07" && $0.imdbID == "tt0245429" } == true)
        #expect(rows.first { $0.title == "The Glass Orchard Affair" }.map { $0.watchlist && !$0.watched } == true)

        // The same lines pasted through a spreadsheet: tab-separated.
        var table = try NamedCSV(csv)
        var lines = [table.header.joined(separator: "\t")]
        while let (_, fields) = try table.next() { lines.append(fields.joined(separator: "\t")) }
        let (tabSource, tabbed) = try await ImportReaderTests.read(Data(lines.joined(separator: "\n").utf8), "simkl.tsv")
        #expect(tabSource == .simkl && Self.rows(tabbed).map(\.title) == rows.map(\.title))
    }

    @Test("two shows of one name with different TheTVDB ids (TV Time's rows have no year) are matched and remembered apart")
    func sameNameShows() {
        var uk = ImportRow(file: "f", line: 2, kind: .show, title: "The Office")
        uk.tvdbID = 78107
        var us = uk
        us.tvdbID = 73244
        #expect(TitleMatcher.keys(uk).title != TitleMatcher.keys(us).title)
        #expect(
            TitleMatcher.keys(ImportRow(file: "f", line: 2, kind: .movie, title: "Heat", year: 1995)).title == "movie:title:heat:1995:",
            "other rows keep their keys")
    }

    @Test("Simkl's episode codes", arguments: [("S06E10", "S06E10"), ("s1e3", "S01E03"), ("E148", "S01E148"), ("S01", nil), ("x", nil)])
    func simklCodes(_ raw: String, _ code: String?) {
        #expect(SimklFiles.episode(raw)?.code == code)
    }

    @Test("a JSON file that is neither backup is refused, saying what it is not")
    func unknownJSON() async throws {
        await #expect(throws: ImportRefused.self) { _ = try await ImportReaderTests.read(Data(#"{"tracks": []}"#.utf8), "x.json") }
        let refusal = await #expect(throws: ImportRefused.self) { _ = try await ImportReaderTests.read(Data(#"{"shows": [1]}"#.utf8), "s.json") }
        #expect(refusal?.message.contains("is not a Simkl backup") == true)
    }
}
