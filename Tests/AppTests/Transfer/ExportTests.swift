import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import App

/// Taking one's data out: the JSON backup, the Letterboxd CSV and a list's CSV, as downloads of
/// one's own data only.
@Suite("Exports")
struct ExportTests {
    @Test("the backup holds every title with its flags, rating, note and saved copy, every watch, the lists in order and the searches")
    func backupHoldsEverything() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try await StatisticsTests.history(app, client)
                _ = try await client.postForm("/library/movies/1001", [("note", "Rewatch with \"friends\", soon")], cookie: cookie)
                let (list, _) = try await CustomListTests.make(client, "Heist nights", cookie: cookie)
                let id = String(list.dropFirst("/lists/".count))
                for path in ["/library/shows/139/lists", "/library/movies/1002/lists"] {
                    _ = try await client.postForm(path, [("list", id)], cookie: cookie)
                }
                _ = try await client.get("/search?q=Heat", cookie: cookie)
                _ = try await client.postForm(list + "/share", [], cookie: cookie)
                let shared = try #require(try await client.get(list, cookie: cookie).text.firstMatch(of: #/\/shared\/lists\/([A-Za-z0-9_-]{43})/#))
                let shareToken = String(shared.output.1)
                let sessionToken = String(cookie.split(separator: ";")[0].drop { $0 != "=" }.dropFirst())

                let response = try await client.get("/export/backup.json", cookie: cookie)
                #expect(response.status == .ok && response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(response.headers[.cacheControl] == "no-store")
                let disposition = try #require(response.headers[.contentDisposition])
                #expect(disposition.hasPrefix(#"attachment; filename="popcornswirl-backup-"#) && disposition.hasSuffix(#".json""#))
                let backup = try Backup.decoder.decode(Backup.self, from: Data(response.text.utf8))
                #expect(backup.format == "popcornswirl-backup" && backup.version == 1)

                let film = try #require(backup.titles.first { $0.kind == .movie && $0.id == "1001" })
                #expect(film.watched && film.rating == 8 && film.note == "Rewatch with \"friends\", soon")
                #expect(film.movie?.id == 1001 && film.movie?.title == film.title && film.show == nil, "the saved copy comes along")
                #expect(backup.titles.contains { $0.kind == .movie && $0.id == "1002" && $0.rating == 5 })
                #expect(backup.watches.filter { $0.id == "1001" }.count == 2 && backup.watches.filter { $0.kind == .show }.count == 2)
                #expect(backup.watches.map(\.day) == backup.watches.map(\.day).sorted(), "oldest first")
                #expect(backup.watches.first { $0.day == "2025-03-10" }?.runtimeMinutes == 108)
                #expect(backup.lists.count == 1 && backup.lists[0].name == "Heist nights")
                #expect(backup.lists[0].items.map(\.id) == ["139", "1002"] && backup.lists[0].items.map(\.kind) == [.show, .movie])
                #expect(backup.searches.map(\.query) == ["Heat"])
                #expect(
                    !response.text.contains(shareToken) && !response.text.contains(sessionToken) && sessionToken.count == 43,
                    "no secrets in a file that may be handed around")

                // Another person's download has none of it.
                let other = try await client.get("/export/backup.json", cookie: try await app.visitor())
                let empty = try Backup.decoder.decode(Backup.self, from: Data(other.text.utf8))
                #expect(empty.titles.isEmpty && empty.watches.isEmpty && empty.lists.isEmpty && empty.searches.isEmpty)
            }
        }
    }

    @Test("a list downloads as CSV in its order, for its owner only")
    func listCSV() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let (list, cookie) = try await CustomListTests.make(client, "Heist nights: “best”, =1", cookie: nil)
                let id = String(list.dropFirst("/lists/".count))
                for path in ["/library/movies/1001/lists", "/library/shows/139/lists"] {
                    _ = try await client.postForm(path, [("list", id)], cookie: cookie)
                }
                let page = try await client.get(list, cookie: cookie).text
                #expect(page.contains(#"<a href="\#(list)/export.csv" download>Download as CSV</a>"#))
                let csv = try await client.get(list + "/export.csv", cookie: cookie)
                #expect(csv.status == .ok && csv.headers[.contentType] == "text/csv; charset=utf-8")
                #expect(csv.headers[.contentDisposition] == #"attachment; filename="heist-nights-best-1.csv""#)
                let lines = csv.text.components(separatedBy: "\r\n")
                try #require(lines.count == 4)
                #expect(lines[0] == "Position,Kind,Title,Year,Note,Added")
                #expect(lines[1].hasPrefix("1,film,") && lines[2].hasPrefix("2,show,Girls,2012,,") && lines[3].isEmpty)
                #expect(try await client.get(list + "/export.csv", cookie: try await app.visitor()).status == .notFound)
                #expect(try await client.get("/lists/not-a-list/export.csv", cookie: cookie).status == .notFound)
            }
        }
    }

    static let day = Date(timeIntervalSince1970: 1_763_942_400)  // 2025-11-24

    static func title(
        _ id: String, _ name: String, rating: Int? = nil, note: String? = nil, watched: Bool = false, kind: MediaKind = .movie
    ) -> Backup.Title {
        Backup.Title(
            kind: kind, id: id, title: name, genre: nil, releaseDate: ITunesDates.parse("1995-12-15"), artworkURL: nil, favorite: !watched,
            watched: watched, note: note, rating: rating, addedAt: day, changedAt: day)
    }

    static func watch(_ id: String, _ name: String, _ day: String, rating: Int? = nil, note: String? = nil, kind: MediaKind = .movie)
        -> Backup.Watch
    {
        Backup.Watch(
            kind: kind, id: id, title: name, artworkURL: nil, day: day, rating: rating, note: note, genre: nil, runtimeMinutes: nil,
            loggedAt: Self.day)
    }

    @Test(
        "the Letterboxd file: a row per film watch, rewatches marked, the film's rating on its latest watch, watched films never logged after; no favorites not seen, no shows"
    )
    func letterboxd() {
        let backup = Backup(
            exportedAt: Self.day,
            titles: [
                Self.title("1", "Heat", rating: 9, note: "Diner scene"), Self.title("2", "=HYPERLINK(\"x\")", rating: 4, watched: true),
                Self.title("3", "+1", watched: true), Self.title("4", "Want to see"), Self.title("9", "Girls", rating: 8, kind: .show),
            ],
            watches: [
                Self.watch("1", "Heat", "2020-01-02", note: "First time, \"wow\""), Self.watch("9", "Girls", "2021-05-05", kind: .show),
                Self.watch("1", "Heat", "2024-07-08", rating: 10), Self.watch("1", "Heat", "2025-01-01"),
            ],
            lists: [], searches: [])
        let lines = [
            "Title,Year,imdbID,WatchedDate,Rating10,Rewatch,Tags,Review",
            #"Heat,1995,,2020-01-02,,false,,"First time, ""wow""""#,
            "Heat,1995,,2024-07-08,10,true,,",
            "Heat,1995,,2025-01-01,9,true,,",
            #""'=HYPERLINK(""x"")",1995,,,4,false,,"#,
            "+1,1995,,,,false,,",  // a number, the film's real title: left as it is
        ]
        #expect(ExportFormats.letterboxdCSV(backup) == lines.map { $0 + "\r\n" }.joined())
    }

    @Test("CSV fields: quoted when they hold a comma, quote or line break; a formula is defused, a number is not")
    func csvFields() {
        #expect(CSV.line(["a", "b,c", "say \"hi\"", "two\nlines"]) == "a,\"b,c\",\"say \"\"hi\"\"\",\"two\nlines\"\r\n")
        #expect(CSV.line(["=1+1", "@SUM(A1)", "-2", "+3.5", "-cmd", "\tx", ""]) == "'=1+1,'@SUM(A1),-2,+3.5,'-cmd,'\tx,\r\n")
        #expect(ExportFormats.slug("Heist nights: “best”, =1") == "heist-nights-best-1" && ExportFormats.slug("★★★") == "list")
    }
}
