import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import App

/// Exports through JSON API v1: the same files as the pages' downloads.
@Suite("API: exports")
struct ExportAPITests {
    @Test("the API's backup is the download's, the CSVs come as text/csv files; no session is a 401, another's list a 404")
    func sameFiles() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try await StatisticsTests.history(app, client)
                let (list, _) = try await CustomListTests.make(client, "Heist nights", cookie: cookie)
                _ = try await client.postForm("/library/movies/1001/lists", [("list", String(list.dropFirst("/lists/".count)))], cookie: cookie)

                let api = try await client.get("/api/v1/export/backup", cookie: cookie, accept: "application/json", browser: false)
                #expect(api.status == .ok)
                let page = try await client.get("/export/backup.json", cookie: cookie)
                let fromAPI = try Backup.decoder.decode(Backup.self, from: Data(api.text.utf8))
                let fromPage = try Backup.decoder.decode(Backup.self, from: Data(page.text.utf8))
                #expect(
                    fromAPI == fromPage && fromAPI.titles.contains { $0.id == "1001" && $0.rating == 8 } && fromAPI.watches.count == 5
                        && fromAPI.lists.count == 1)

                let letterboxd = try await client.get("/api/v1/export/letterboxd", cookie: cookie, accept: "text/csv", browser: false)
                #expect(letterboxd.status == .ok && letterboxd.headers[.contentType]?.hasPrefix("text/csv") == true)
                #expect(letterboxd.text == (try await client.get("/export/letterboxd.csv", cookie: cookie)).text)
                #expect(letterboxd.text.hasPrefix("Title,Year,imdbID,WatchedDate,Rating10,Rewatch,Tags,Review\r\n"))

                let id = String(list.dropFirst("/lists/".count))
                let csv = try await client.get("/api/v1/lists/\(id)/export", cookie: cookie, accept: "text/csv", browser: false)
                #expect(csv.status == .ok && csv.text.hasPrefix("Position,Kind,Title,Year,Note,Added\r\n1,film,"))
                let other = try await app.visitor()
                let refused = try await client.get(
                    "/api/v1/lists/\(id)/export", cookie: other, accept: "text/csv, application/problem+json", browser: false)
                #expect(refused.status == .notFound)
                #expect(try await client.get("/api/v1/export/backup", accept: "application/json", browser: false).status == .unauthorized)
            }
        }
    }

    @Test("popcornswirl export writes an account's backup or Letterboxd CSV; an unknown name is refused")
    func commandLine() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let (_, cookie) = try await app.signedIn("alice")
                _ = try await client.postForm("/library/movies/1001", [("watched", "1"), ("rating", "7")], cookie: cookie)
                let backup = try Backup.decoder.decode(Backup.self, from: try await app.services.export(username: "alice", letterboxd: false))
                #expect(backup.titles.map(\.id) == ["1001"] && backup.titles[0].rating == 7 && backup.watches.count == 1)
                let csv = String(decoding: try await app.services.export(username: "alice", letterboxd: true), as: UTF8.self)
                #expect(csv.components(separatedBy: "\r\n").dropFirst().first?.hasPrefix("Middle Of The Year,2026,,") == true)
                await #expect(throws: AccountService.Failure.self) { try await app.services.export(username: "bob", letterboxd: false) }
            }
        }
    }
}
