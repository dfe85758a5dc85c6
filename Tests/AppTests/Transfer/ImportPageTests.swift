import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import App

/// The import page as a person uses it: upload, the progress, Needs a match, the report; and
/// every refusal readable, with nothing stored.
@Suite("Import page")
struct ImportPageTests {
    static func upload(_ client: some TestClientProtocol, _ data: Data, name: String, cookie: String) async throws -> TestResponse {
        let (token, cookie) = try await client.csrfToken(cookie: cookie)
        // The form's action carries the token: an upload is not read before it is checked.
        return try await client.postMultipart(
            Route.startImport.path + "?csrf=" + token, [], file: (name: "file", filename: name, data: data), cookie: cookie ?? "")
    }

    @Test("upload a Letterboxd ZIP, follow its progress, resolve the row that needs a match, download the report")
    func wholeFlow() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let (profile, cookie) = try await app.signedIn("ana")
                let empty = try await client.get("/import", cookie: cookie)
                #expect(empty.status == .ok && empty.text.contains(#"enctype="multipart/form-data""#))
                #expect(empty.text.contains("at most 32 MiB") && !empty.text.contains("import-progress"))

                let uploaded = try await Self.upload(client, try ImportJobTests.letterboxdZIP(), name: "letterboxd-ana.zip", cookie: cookie)
                #expect(uploaded.status == .seeOther && uploaded.headers[.location] == "/import?done=started")
                let waiting = try await client.get("/import?done=started", cookie: cookie)
                #expect(waiting.text.contains("The import runs on its own") && waiting.text.contains("Letterboxd: letterboxd-ana.zip"))
                #expect(waiting.text.contains(#"<progress id="import-bar" max="100" value="11""#) && waiting.text.contains("Cancel import"))
                #expect(!waiting.text.contains(#"name="file""#), "no second upload while one is under way")
                let queued = try await client.get("/import/progress", cookie: cookie)
                #expect(queued.status == .ok && queued.headers[.cacheControl] == "no-store")
                #expect(queued.text.contains(#""state":"queued""#) && queued.text.contains(#""total":9"#) && queued.text.contains(#""percent":11"#))

                let job = try #require(try await app.services.imports.latest(profile: profile))
                _ = try await app.services.imports.drain(job: job.id, owner: "test", progress: { _ in })
                let done = try await client.get("/import/progress", cookie: cookie)
                #expect(done.text.contains(#""state":"done""#) && done.text.contains(#""percent":100"#) && done.text.contains(#""queued":1"#))

                let page = try await client.get("/import", cookie: cookie)
                #expect(page.text.contains("Done: some rows need a match") && page.text.contains("Needs a match"))
                #expect(page.text.contains("“Nowhere Film” (1999)") && page.text.contains("diary.csv, row 4: iTunes has no film called"))
                #expect(page.text.contains("Rows that failed") && page.text.contains("“7” is not a rating from ½ to 5 stars."))
                #expect(page.text.contains(#"name="file""#), "a new upload once it is done")
                let row = try #require(try await app.services.imports.queue(profile: profile, job: job, page: 1).first).number

                let searched = try await client.get("/import?row=\(row)&q=spider", cookie: cookie)
                #expect(searched.text.contains("Found for “spider”") && searched.text.contains(#"value="movie:284910350""#))
                #expect(searched.text.contains("Spider (2003)"))

                // Another person can neither resolve the row nor read the report.
                let (_, other) = try await app.signedIn("bo")
                let foreign = try await client.postForm("/import/\(job.id)/rows", [("row", "\(row)"), ("choice", "movie:284910350")], cookie: other)
                #expect(foreign.status == .notFound)
                #expect(try await client.get("/import/\(job.id)/report.csv", cookie: other).status == .notFound)
                #expect(try await client.get("/import/progress", cookie: other).status == .notFound)

                let chosen = try await client.postForm("/import/\(job.id)/rows", [("row", "\(row)"), ("choice", "movie:284910350")], cookie: cookie)
                #expect(chosen.status == .seeOther && chosen.headers[.location] == "/import?done=matched", "no row left to go back to")
                let after = try await client.get("/import?done=matched", cookie: cookie)
                #expect(after.text.contains("The row was imported.") && !after.text.contains("Needs a match</h2>"))
                let spider = try await app.services.diary.watches(profile: profile, kind: .movie, itemID: "284910350")
                #expect(spider.map(\.day) == ["2024-02-28"] && spider.first?.rating == 6)
                let again = try await client.postForm("/import/\(job.id)/rows", [("row", "\(row)"), ("choice", "keep")], cookie: cookie)
                #expect(again.status == .notFound, "no longer waiting")

                // A row kept as it is stays on the page with what it said.
                let (thirdProfile, third) = try await app.signedIn("cy")
                let elsewhere = "Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date\n2024-03-01,Elsewhere,1999,u,3.5,,,2024-02-28\n"
                _ = try await Self.upload(client, Data(elsewhere.utf8), name: "diary.csv", cookie: third)
                let theirs = try #require(try await app.services.imports.latest(profile: thirdProfile))
                _ = try await app.services.imports.drain(job: theirs.id, owner: "test", progress: { _ in })
                let keep = try await client.postForm("/import/\(theirs.id)/rows", [("row", "1"), ("choice", "keep")], cookie: third)
                #expect(keep.headers[.location] == "/import?done=kept")
                let keptPage = try await client.get("/import", cookie: third).text
                #expect(
                    keptPage.contains("Kept without a catalogue title")
                        && keptPage.contains("<strong>Elsewhere</strong> (1999), rated 3½ stars, watched 2024-02-28."))

                let report = try await client.get("/import/\(job.id)/report.csv", cookie: cookie)
                #expect(report.status == .ok && report.headers[.contentType] == "text/csv; charset=utf-8")
                #expect(report.headers[.contentDisposition]?.hasPrefix(#"attachment; filename="popcornswirl-import-report-"#) == true)
                #expect(report.text.contains("Nowhere Film,1999,landed,match,,Spider,movie,284910350,chosen by you"))
            }
        }
    }

    @Test("bad uploads are refused with a readable message and store nothing; a second import waits; cancel stops one")
    func refusals() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let (profile, cookie) = try await app.signedIn("ana")
                let (token, withCSRF) = try await client.csrfToken(cookie: cookie)
                let none = try await client.postMultipart(
                    Route.startImport.path + "?csrf=" + token, [], file: (name: "other", filename: "", data: Data()), cookie: withCSRF)
                #expect(none.status == .badRequest && none.text.contains("Choose the export file to import."))
                let songs = try await Self.upload(client, Data("Title,Artist\nHeat,Moby\n".utf8), name: "songs.csv", cookie: cookie)
                #expect(songs.status == .unprocessableContent && songs.text.contains("PopcornSwirl cannot tell what this file is."))
                #expect(try await app.services.imports.latest(profile: profile) == nil)
                let bomb = try await Self.upload(
                    client, try ImportReaderTests.zip([("diary.csv", Data(count: 17 << 20))]), name: "b.zip", cookie: cookie)
                #expect(bomb.status == .unprocessableContent && bomb.text.contains("diary.csv unpacks to more than 100 times its packed size"))
                let huge = try await Self.upload(client, Data(count: 33 << 20), name: "huge.zip", cookie: cookie)
                #expect(huge.status == .contentTooLarge && huge.text.contains("larger than 32 MiB"))

                #expect(try await Self.upload(client, try ImportJobTests.letterboxdZIP(), name: "a.zip", cookie: cookie).status == .seeOther)
                let busy = try await Self.upload(client, try ImportJobTests.letterboxdZIP(), name: "b.zip", cookie: cookie)
                #expect(busy.status == .conflict && busy.text.contains("Your earlier import is still running"))
                let cancelled = try await client.postForm("/import/cancel", [], cookie: cookie)
                #expect(cancelled.headers[.location] == "/import?done=cancelled")
                let page = try await client.get("/import?done=cancelled", cookie: cookie)
                #expect(
                    page.text.contains("The import was cancelled.") && page.text.contains(#"Cancelled</span>: <span data-field="percent">11</span>"#))
                #expect(try await client.postForm("/import", [], cookie: cookie, csrf: false).status == .forbidden, "CSRF-checked")
            }
        }
    }
}
