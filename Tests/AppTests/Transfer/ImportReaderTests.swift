import Foundation
import Testing
import ZIPFoundation

@testable import App

/// Uploads as they come: ZIPs from Letterboxd and Trakt, single CSVs, a backup; and the ones
/// that are refused whole (not an export, damaged, a ZIP bomb).
@Suite("Import: opening uploads")
struct ImportReaderTests {
    /// A ZIP in memory with these members (deflated).
    static func zip(_ members: [(String, Data)]) throws -> Data {
        let archive = try Archive(accessMode: .create)
        for (path, data) in members {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return try #require(archive.data)
    }

    static func read(_ data: Data, _ name: String, limits: (Int, Int)? = nil) async throws -> (ImportSource, [ImportRead]) {
        var reads: [ImportRead] = []
        let source: ImportSource
        if let limits {
            source = try await ImportReader.read(data, named: name, limits: limits) { reads.append($0) }
        } else {
            source = try await ImportReader.read(data, named: name) { reads.append($0) }
        }
        return (source, reads)
    }

    @Test("a Letterboxd ZIP: its files are read, macOS metadata, deleted and orphaned entries, profile and comments are not")
    func letterboxdZIP() async throws {
        let data = try Self.zip([
            (
                "diary.csv",
                Data("Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date\n2024-01-03,Heat,1995,https://boxd.it/a,4,,,2024-01-02\n".utf8)
            ),
            ("ratings.csv", Data("Date,Name,Year,Letterboxd URI,Rating\n2024-01-03,Heat,1995,https://boxd.it/b,4\n".utf8)),
            (
                "lists/heist.csv",
                Data(
                    "Letterboxd list export v7\nDate,Name,Tags,URL,Description\n2024,Heist,,u,\n\nPosition,Name,Year,URL,Description\n1,Thief,1981,u,\n"
                        .utf8)
            ),
            ("__MACOSX/._diary.csv", Data([0x00, 0x05, 0x16, 0x07, 0xFF])),
            ("deleted/diary.csv", Data("not, a, diary".utf8)),
            ("profile.csv", Data("Date Joined,Username\n2020-01-01,me\n".utf8)),
            ("comments.csv", Data("Date,Content\n".utf8)),
        ])
        let (source, reads) = try await Self.read(data, "letterboxd-me-2024.zip")
        #expect(source == .letterboxd && reads.count == 3 && reads.allSatisfy { $0.problems.isEmpty })
        #expect(reads.flatMap(\.rows).map(\.file) == ["diary.csv", "ratings.csv", "lists/heist.csv"])
        #expect(reads[2].rows.first?.list == "Heist")
    }

    @Test("a Trakt ZIP: history of films and episodes, ratings, a named list; null ids are fine, an entry naming nothing is reported")
    func traktZIP() async throws {
        let history = """
            [{"id":1,"watched_at":"2024-01-02T21:15:00.000Z","action":"watch","type":"movie","movie":{"title":"Heat","year":1995,"ids":{"trakt":1,"slug":"heat-1995","imdb":"tt0113277","tmdb":949}}},
             {"id":2,"watched_at":"2024-01-03T20:00:00.000Z","action":"scrobble","type":"episode","episode":{"season":1,"number":1,"title":"Pilot","ids":{"trakt":5,"tvdb":null,"imdb":null,"tmdb":null}},"show":{"title":"Breaking Bad","year":2008,"ids":{"trakt":3,"slug":"breaking-bad","tvdb":81189,"imdb":null,"tmdb":null}}},
             {"id":3,"watched_at":"2024-01-04T20:00:00.000Z","action":"checkin","type":"movie","movie":{"title":null,"year":null,"ids":{"trakt":null,"imdb":null}}}]
            """
        let data = try Self.zip([
            ("watched-history.json", Data(history.utf8)),
            (
                "ratings-movies.json",
                Data(
                    #"[{"rated_at":"2024-01-05T00:00:00.000Z","rating":8,"type":"movie","movie":{"title":"Heat","year":1995,"ids":{"imdb":"tt0113277"}}}]"#
                        .utf8)
            ),
            ("lists-lists.json", Data(#"[{"name":"Heist nights","ids":{"trakt":9,"slug":"heist-nights"}}]"#.utf8)),
            (
                "lists-list-heist-nights.json",
                Data(
                    #"[{"rank":1,"listed_at":"2024-01-06T00:00:00.000Z","type":"movie","movie":{"title":"Thief","year":1981,"ids":{"imdb":null}}}]"#
                        .utf8)
            ),
            ("user-settings.json", Data("{}".utf8)),
        ])
        let (source, reads) = try await Self.read(data, "trakt-export.zip")
        #expect(source == .trakt)
        let rows = reads.flatMap(\.rows)
        #expect(rows.count == 4 && rows[0].watchedOn == "2024-01-02" && rows[0].imdbID == "tt0113277" && rows[0].tmdbID == 949)
        #expect(rows[1].kind == .show && rows[1].title == "Breaking Bad" && rows[1].tvdbID == 81189 && rows[1].imdbID == nil)
        #expect(rows[2].rating == 8 && rows[3].list == "Heist nights" && rows[3].listPosition == 1)
        #expect(reads[0].problems.map(\.line) == [3])
    }

    @Test("single files: an IMDb CSV, a Letterboxd CSV, a PopcornSwirl backup; anything else is refused, saying what to upload")
    func singleFiles() async throws {
        let imdb =
            "\u{FEFF}Const,Your Rating,Date Rated,Title,URL,Title Type,IMDb Rating,Runtime (mins),Year\ntt0113277,9,2024-01-02,Heat,u,movie,8.3,170,1995\n"
        let imdbSource = try await Self.read(Data(imdb.utf8), "ratings.csv").0
        #expect(imdbSource == .imdb)
        let diary = "Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date\n2024-01-03,Heat,1995,u,4,,,2024-01-02\n"
        let (source, reads) = try await Self.read(Data(diary.utf8), "my-diary.csv")
        #expect(source == .letterboxd && reads.first?.rows.first?.watchedOn == "2024-01-02")
        let backup = try Backup.encoder.encode(Backup(exportedAt: Date(), titles: [], watches: [], lists: [], searches: []))
        let backupSource = try await Self.read(backup, "popcornswirl-backup.json").0
        #expect(backupSource == .popcornswirl)
        for (bytes, name, words) in [
            (Data("{\"hello\": 1}".utf8), "x.json", "not a PopcornSwirl backup"),
            (Data("Title,Artist\nHeat,Moby\n".utf8), "songs.csv", "cannot tell what this file is"),
            (Data([0x50, 0x4B, 0x03, 0x04, 0x00, 0x01, 0x02]), "broken.zip", "damaged"),
            (try Self.zip([("notes.txt", Data("hi".utf8))]), "other.zip", "None of Letterboxd’s, Trakt’s, TV Time’s or Simkl’s export files"),
        ] {
            do {
                _ = try await Self.read(bytes, name)
                Issue.record("\(name) was read")
            } catch let refused as ImportRefused {
                #expect(refused.message.contains(words), "\(name): \(refused.message)")
            }
        }
    }

    @Test("a ZIP bomb is refused: one member past 16 MiB unpacked, or all of them past the total, counted while unpacking")
    func zipBomb() async throws {
        let big = try Self.zip([("diary.csv", Data(count: 17 << 20))])
        #expect(big.count < 100_000, "it packs small")
        do {
            _ = try await Self.read(big, "bomb.zip")
            Issue.record("read")
        } catch let refused as ImportRefused {
            // It packs 1,000 to 1: the ratio refuses it after its first MiB, before the size would.
            #expect(refused.message.contains("diary.csv unpacks to more than 100 times its packed size"))
        }
        do {
            // Bytes that do not pack (an LCG's): past 16 MiB is refused by size.
            var state: UInt64 = 1
            let noise = Data(
                (0..<(17 << 20)).map { _ in
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    return UInt8(truncatingIfNeeded: state >> 56)
                })
            _ = try await Self.read(try Self.zip([("diary.csv", noise)]), "big.zip")
            Issue.record("read")
        } catch let refused as ImportRefused {
            #expect(refused.message.contains("diary.csv is larger than 16 MiB"))
        }
        do {
            _ = try await Self.read(Data(String(repeating: "x", count: 2 << 20).utf8), "huge.csv", limits: (1 << 20, 1 << 20))
            Issue.record("read")
        } catch let refused as ImportRefused {
            #expect(refused.message.contains("larger than 1 MiB"), "a single file has the member cap too")
        }
        let header = "Date,Name,Year,Letterboxd URI,Rating\n"
        let files = ["diary.csv", "ratings.csv", "watched.csv", "watchlist.csv", "reviews.csv"]
        let many = try Self.zip(files.map { ($0, Data((header + String(repeating: " ", count: 300_000)).utf8)) })
        do {
            _ = try await Self.read(many, "many.zip", limits: (16 << 20, 1 << 20))
            Issue.record("read")
        } catch let refused as ImportRefused {
            #expect(refused.message.contains("unpacks to more than 1 MiB"))
        }
    }
}
