import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SQLKit
import Testing

@testable import App

/// Imports that cannot fill the disk or be blocked: a cancel deletes the rows it stopped, uploads
/// are counted per person and address, the deployment's rows are capped, the form token is checked
/// before a byte of an upload is read, a load its server left fails at the next look, blank lines
/// count, and a row holding NUL is skipped rather than failing the import.
@Suite("Hardening: imports")
struct ImportHardeningTests {
    static func rows(_ app: TestApp) async throws -> Int {
        try await app.services.database.sql.raw("SELECT COUNT(*) AS n FROM import_rows").first(decodingColumn: "n", as: Int.self) ?? 0
    }

    static func diary(_ titles: [String]) -> Data {
        Data(
            (["Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date"]
                + titles.enumerated().map { "2024-01-0\($0.offset % 9 + 1),\($0.element),2019,https://boxd.it/x\($0.offset),4,,,2024-01-01" })
                .joined(separator: "\n").utf8)
    }

    @Test("upload and cancel, 5 times: no row is left behind, each report says how many rows the cancel stopped")
    func cancelsLeaveNothing() async throws {
        try await TestApp.with { app in
            let (profile, _) = try await app.signedIn("cycler")
            let imports = app.services.imports
            let file = Self.diary((1...300).map { "Film number \($0)" })
            for _ in 1...5 {
                guard case .started = try await imports.start(profile: profile, data: file, fileName: "diary.csv") else {
                    Issue.record("not started")
                    return
                }
                #expect(try await Self.rows(app) == 300)
                #expect(try await imports.cancel(profile: profile))
                #expect(try await Self.rows(app) == 0, "a cancelled job's pending rows are deleted")
            }
            let job = try #require(try await imports.latest(profile: profile))
            #expect(job.state == .cancelled && job.cancelledRows == 300 && job.percent == 0)
            let report = try #require(try await imports.report(profile: profile, job: job.id))
            #expect(try await report.csv().contains("300 rows not dealt with before the import was cancelled"))
            let jobs = try await app.services.database.sql.raw("SELECT COUNT(*) AS n FROM import_jobs").first(decodingColumn: "n", as: Int.self)
            #expect(jobs == 1 + ImportStore.keptEarlierJobs, "imports older than the latest earlier one go when a new one begins")
        }
    }

    @Test("a person's 11th upload in an hour is refused with 429 and Retry-After; another person still uploads")
    func uploadsPerHour() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let (profile, cookie) = try await app.signedIn("uploader")
                for _ in 1...UploadThrottle.perPerson {
                    let uploaded = try await ImportPageTests.upload(client, Self.diary(["Heat"]), name: "d.csv", cookie: cookie)
                    #expect(uploaded.status == .seeOther)
                    #expect(try await app.services.imports.cancel(profile: profile), "each upload started an import, and Cancel stops it")
                }
                let refused = try await ImportPageTests.upload(client, Self.diary(["Heat"]), name: "d.csv", cookie: cookie)
                #expect(refused.status == .tooManyRequests && refused.headers[.retryAfter] != nil)
                #expect(refused.text.contains("as many files as can be read in an hour"))
                let (_, other) = try await app.signedIn("someone-else")
                #expect(try await ImportPageTests.upload(client, Self.diary(["Heat"]), name: "d.csv", cookie: other).status == .seeOther)
                app.clock.advance(UploadThrottle.window + 1)
                #expect(try await ImportPageTests.upload(client, Self.diary(["Heat"]), name: "d.csv", cookie: cookie).status == .seeOther)
            }
        }
    }

    @Test("past the deployment's import rows an upload is refused for now: 503 with Retry-After, nothing stored")
    func deploymentCap() async throws {
        try await TestApp.with { app in
            let (profile, _) = try await app.signedIn("first")
            guard case .started(let job) = try await app.services.imports.start(profile: profile, data: Self.diary(["Heat"]), fileName: "a.csv")
            else {
                Issue.record("not started")
                return
            }
            try await app.services.database.sql.raw(
                "UPDATE import_jobs SET stored_rows = \(bind: ImportStore.deploymentRowLimit) WHERE id = \(bind: job.id)"
            ).run()
            try await app.test { client in
                let (_, cookie) = try await app.signedIn("second")
                let refused = try await ImportPageTests.upload(client, Self.diary(["Heat"]), name: "b.csv", cookie: cookie)
                #expect(refused.status == .serviceUnavailable && refused.headers[.retryAfter] == "3600")
                #expect(refused.text.contains("as many import rows as it can right now"))
            }
            #expect(try await Self.rows(app) == 1)
        }
    }

    @Test("an upload's form token must be in its address: one only in the body is refused 403 and the connection closed, unread")
    func tokenBeforeBody() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let (profile, cookie) = try await app.signedIn("ana")
                let (token, withCSRF) = try await client.csrfToken(cookie: cookie)
                let refused = try await client.postMultipart(
                    Route.startImport.path, [("csrf", token)], file: (name: "file", filename: "d.csv", data: Self.diary(["Heat"])), cookie: withCSRF)
                #expect(refused.status == .forbidden && refused.headers[.connection] == "close")
                #expect(try await app.services.imports.latest(profile: profile) == nil)
            }
        }
    }

    @Test("one upload read at a time per person, two per address, four per server")
    func slots() throws {
        let slots = UploadSlots()
        try slots.take(person: "a", address: "1")
        #expect(throws: UploadSlots.Refusal.yoursInProgress) { try slots.take(person: "a", address: "2") }
        try slots.take(person: "b", address: "1")
        #expect(throws: UploadSlots.Refusal.busy) { try slots.take(person: "c", address: "1") }
        try slots.take(person: "c", address: "2")
        try slots.take(person: "d", address: "3")
        #expect(throws: UploadSlots.Refusal.busy) { try slots.take(person: "e", address: "4") }
        slots.release(person: "a", address: "1")
        try slots.take(person: "e", address: "4")
    }

    @Test("a load whose server stopped is failed at the next look; Cancel stops a load, which then stores no more rows")
    func interruptedLoads() async throws {
        try await TestApp.with { app in
            let (profile, _) = try await app.signedIn("ana")
            let store = app.services.imports.store
            let left = try await store.begin(profile: profile, source: .letterboxd, fileName: "a.csv")
            _ = try await store.append(job: left, rows: [ImportRow(file: "a.csv", line: 2, title: "Heat")], problems: [], from: 1)
            #expect(try await app.services.imports.latest(profile: profile)?.state == .loading, "while its lease holds")
            app.clock.advance(ImportStore.loadingLease + 1)
            let failed = try #require(try await app.services.imports.latest(profile: profile))
            #expect(failed.id == left && failed.state == .failed && failed.message == ImportStore.interrupted)
            #expect(try await Self.rows(app) == 0)

            let loading = try await store.begin(profile: profile, source: .letterboxd, fileName: "b.csv")
            #expect(try await app.services.imports.cancel(profile: profile))
            await #expect(throws: ImportRefused.self) {
                try await store.append(job: loading, rows: [ImportRow(file: "b.csv", line: 2, title: "Heat")], problems: [], from: 1)
            }
            #expect(try await app.services.imports.latest(profile: profile)?.state == .cancelled)
            #expect(try await Self.rows(app) == 0)
        }
    }

    @Test("a row holding NUL is skipped and reported; the rest of the file imports, alike on both databases")
    func controlCharacterRows() async throws {
        try await TestApp.with { app in
            let (profile, _) = try await app.signedIn("ana")
            let file = Self.diary(["Midsommar", "Bad\u{0}Title", "Heat"])
            guard case .started(let job) = try await app.services.imports.start(profile: profile, data: file, fileName: "diary.csv") else {
                Issue.record("not started")
                return
            }
            #expect(job.total == 3 && job.failed == 1 && job.pending == 2)
            let problems = try await app.services.imports.problems(profile: profile, job: job, limit: 10)
            #expect(problems.map(\.reason) == [ImportRow.controlCharacterReason])
        }
    }

    @Test("blank lines count toward the 200,000: a file or ZIP of them is refused as they are read, not after a minute of reading them")
    func blankLines() async throws {
        let header = "Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date\n"
        let blank = Data((header + String(repeating: "\n", count: NamedCSV.maxRows + NamedCSV.headerSlack)).utf8)
        await #expect(throws: ImportRefused(message: "The upload has more than 200000 lines (blank lines count too): export less at a time.")) {
            try await ImportReader.read(blank, named: "diary.csv") { _ in }
        }
        let members = try (1...20).map { ("member-\($0)/diary.csv", Data((header + String(repeating: "\n", count: 2 << 20)).utf8)) }
        let bomb = try ImportReaderTests.zip(members)
        do {
            try await ImportReader.read(bomb, named: "blank.zip") { _ in }
            Issue.record("read")
        } catch let refused as ImportRefused {
            // Refused while its first member unpacked: not after reading millions of blank lines.
            #expect(refused.message.contains("member-1/diary.csv unpacks to more than 100 times its packed size"))
        }
    }
}
