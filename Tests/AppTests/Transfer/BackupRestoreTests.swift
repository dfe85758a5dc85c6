import Foundation
import HummingbirdTesting
import Testing

@testable import App

/// A PopcornSwirl backup, uploaded to the import page, restores everything exactly.
@Suite("Backup restore")
struct BackupRestoreTests {
    /// The backup without the moment it was made: what a round trip must keep.
    static func content(_ backup: Backup) -> Backup {
        var backup = backup
        backup.exportedAt = Date(timeIntervalSince1970: 0)
        return backup
    }

    @Test("a round trip restores titles, flags, notes, ratings, saved copies, watches, lists and searches exactly; twice adds nothing")
    func roundTrip() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try await StatisticsTests.history(app, client)
                _ = try await client.postForm("/library/movies/1001", [("note", "With \"friends\"")], cookie: cookie)
                let (list, _) = try await CustomListTests.make(client, "Heist nights", cookie: cookie)
                let id = String(list.dropFirst("/lists/".count))
                for path in ["/library/shows/139/lists", "/library/movies/1002/lists"] {
                    _ = try await client.postForm(path, [("list", id)], cookie: cookie)
                }
                _ = try await client.get("/search?q=Heat", cookie: cookie)
                let original = try await app.services.exports.backup(profile: try await app.profile(cookie))
                let facts = original.titles.count + original.watches.count + original.lists.count + original.lists.map(\.items.count).reduce(0, +)
                #expect(original.titles.count >= 2 && original.watches.count >= 5 && original.lists.first?.items.count == 2 && facts >= 10)

                let (profile, newCookie) = try await app.signedIn("moved")
                let uploaded = try await ImportPageTests.upload(client, try Backup.encoder.encode(original), name: "backup.json", cookie: newCookie)
                #expect(uploaded.status == .seeOther)
                let job = try #require(try await app.services.imports.latest(profile: profile))
                #expect(job.source == .popcornswirl && job.state == .done && job.landed == facts && job.skipped == 0)
                let restored = try await app.services.exports.backup(profile: profile)
                #expect(Self.content(restored) == Self.content(original))
                let page = try await client.get("/import", cookie: newCookie)
                #expect(page.text.contains("PopcornSwirl backup: backup.json") && page.text.contains(#"<dd data-field="landed">\#(facts)</dd>"#))

                guard
                    case .started(let again) = try await app.services.imports.start(
                        profile: profile, data: try Backup.encoder.encode(original), fileName: "backup.json")
                else {
                    Issue.record("not started")
                    return
                }
                #expect(again.landed == 0 && again.skipped == facts)
                #expect(Self.content(try await app.services.exports.backup(profile: profile)) == Self.content(original))

                // Into the account it came from (whose times are finer than the file's milliseconds): nothing doubles.
                let source = try #require(try await app.profile(cookie))
                guard
                    case .started(let home) = try await app.services.imports.start(
                        profile: source, data: try Backup.encoder.encode(original), fileName: "backup.json")
                else { return }
                #expect(home.landed == 0 && home.skipped == facts)
                #expect(try await app.services.exports.backup(profile: source).watches.count == original.watches.count)
            }
        }
    }

    @Test("a backup from a newer PopcornSwirl, or a damaged one, is refused and restores nothing")
    func refusals() async throws {
        try await TestApp.with { app in
            let (profile, _) = try await app.signedIn("ana")
            var newer = Backup(exportedAt: Date(), titles: [ExportTests.title("1001", "Heat")], watches: [], lists: [], searches: [])
            newer.version = 2
            await #expect(throws: ImportRefused.self) {
                _ = try await app.services.imports.start(profile: profile, data: try Backup.encoder.encode(newer), fileName: "b.json")
            }
            let damaged = Data(#"{"format":"popcornswirl-backup","version":1,"titles":[{"kind":"movie"}]}"#.utf8)
            do {
                _ = try await app.services.imports.start(profile: profile, data: damaged, fileName: "b.json")
                Issue.record("restored")
            } catch let refused as ImportRefused {
                #expect(refused.message.hasPrefix("The backup could not be read"))
            }
            #expect(try await app.services.library.list(profile: profile, list: .all, page: 1).total == 0)
            #expect(try await app.services.imports.latest(profile: profile) == nil)
        }
    }
}
