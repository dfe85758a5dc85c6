import FluentKit
import Foundation
import HTTPTypes
import HummingbirdTesting
import PopcornAPI
import SQLKit
import Testing

@testable import App

/// `GET /api/v1/changes`: what a device keeping a copy (PopcornSwirlKit) reads to stay in step, and
/// `Change-Made-At`, the rule that settles a change made offline against a newer one.
@Suite("Changes for devices")
struct ChangesAPITests {
    typealias Schemas = Components.Schemas

    /// Every page from `since` on, `limit` at a time; the last cursor.
    static func pages(_ client: any TestClientProtocol, cookie: String, since: String = "0", limit: Int = 200) async throws -> (
        [Schemas.Change], String
    ) {
        var changes: [Schemas.Change] = []
        var cursor = since
        for _ in 0..<1000 {
            let response = try await client.get("/api/v1/changes?since=\(cursor)&limit=\(limit)", cookie: cookie)
            #expect(response.status == .ok, "\(response.text)")
            let page = try APITests.decode(Schemas.ChangesPage.self, response)
            #expect(page.changes.count <= limit)
            changes += page.changes
            cursor = page.cursor
            if !page.more { break }
        }
        return (changes, cursor)
    }

    static func keys(_ changes: [Schemas.Change]) -> [String] { changes.map { "\($0.entity.rawValue) \($0.key)" } }

    @Test("from 0 everything the person has, each thing once with its state; then only what changed, removals marked; paged alike")
    func feed() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let (_, cookie) = try await app.signedIn("ana")
                func send(_ uri: String, _ method: HTTPRequest.Method = .put, _ json: String = "") async throws {
                    let response = try await client.sendJSON(uri, method: method, json, cookie: cookie)
                    #expect(response.status.code < 300, "\(uri): \(response.status) \(response.text)")
                }
                try await send("/api/v1/library/movies/1001", .put, #"{"favorite": true, "note": "Rewatch"}"#)
                try await send("/api/v1/library/movies/1002", .put, #"{"watched": true}"#)
                try await send("/api/v1/library/movies/1001", .put, #"{"rating": 8}"#)  // again: still one change
                try await send("/api/v1/library/shows/139")
                #expect(try await client.get("/api/v1/shows/139/episodes", cookie: cookie).status == .ok)
                try await send("/api/v1/library/episodes/12301", .put, #"{"watched": true, "watchedAt": "2026-01-10T21:00:00Z"}"#)
                try await send("/api/v1/library/shows/139/seasons/1/rating", .put, #"{"rating": 9}"#)
                let made = try await client.sendJSON("/api/v1/lists", method: .post, #"{"name": "Top 3"}"#, cookie: cookie)
                let list = try APITests.decode(Schemas.CustomList.self, made)
                try await send("/api/v1/lists/\(list.id)/items/movie/1001")
                try await send("/api/v1/lists/\(list.id)/items/show/139")

                let (all, cursor) = try await Self.pages(client, cookie: cookie)
                let keys = Self.keys(all)
                #expect(Set(keys).count == keys.count, "each thing once: \(keys)")
                #expect(keys.filter { $0.hasPrefix("watch ") }.count == 2, "the film's and the episode's diary watches: \(keys)")
                #expect(
                    Set(keys.filter { !$0.hasPrefix("watch ") }) == [
                        "title movie:1001", "title movie:1002", "title show:139", "episode 139:12301", "show 139", "seasonRating 139:1",
                        "list \(list.id)",
                    ])
                let film = try #require(all.first { $0.key == "movie:1001" }?.title)
                #expect(film.favorite && film.note == "Rewatch" && film.rating == 8)
                let episode = try #require(all.first { $0.entity == .episode }?.episode)
                #expect(episode.showId == 139 && episode.id == 12301 && episode.watchCount == 1)
                #expect(all.first { $0.entity == .seasonRating }?.seasonRating?.rating == 9)
                #expect(all.first { $0.entity == .show }?.show?.title == "Girls")
                let synced = try #require(all.first { $0.entity == .list }?.list)
                #expect(synced.list.name == "Top 3" && synced.items.map(\.titleId) == [1001, 139])
                let watches = all.compactMap(\.watch)
                #expect(watches.contains { $0.titleId == 1002 } && watches.contains { $0.episode?.id == 12301 && $0.date == "2026-01-10" })
                #expect(all.allSatisfy { !$0.deleted })

                // Nothing new: nothing comes, the cursor stays.
                let (none, same) = try await Self.pages(client, cookie: cookie, since: cursor)
                #expect(none.isEmpty && same == cursor)

                // Paged two at a time, the same things.
                let (paged, pagedCursor) = try await Self.pages(client, cookie: cookie, limit: 2)
                #expect(Self.keys(paged) == keys && pagedCursor == cursor)

                // A removal, a list deleted, an episode unwatched: each comes once, as deleted.
                try await send("/api/v1/library/movies/1002", .delete)
                #expect(try await client.execute(uri: "/api/v1/lists/\(list.id)", method: .delete, headers: [.cookie: cookie]).status == .noContent)
                try await send("/api/v1/library/episodes/12301", .put, #"{"watched": false}"#)
                let (later, _) = try await Self.pages(client, cookie: cookie, since: cursor)
                let gone = Set(later.filter(\.deleted).map { "\($0.entity.rawValue) \($0.key)" })
                #expect(gone.isSuperset(of: ["title movie:1002", "list \(list.id)", "episode 139:12301"]), "\(Self.keys(later))")
                #expect(later.filter(\.deleted).allSatisfy { $0.title == nil && $0.list == nil && $0.episode == nil })

                // Another person sees none of it.
                let (_, other) = try await app.signedIn("bo")
                let (theirs, _) = try await Self.pages(client, cookie: other)
                #expect(theirs.isEmpty)
                #expect(try await client.get("/api/v1/changes").status == .unauthorized)
                #expect(try await client.get("/api/v1/changes?since=abc", cookie: cookie).status == .badRequest)
                #expect(try await client.get("/api/v1/changes?limit=501", cookie: cookie).status == .badRequest)
            }
        }
    }

    @Test("Change-Made-At: a change made before the title's last one is refused with 409 and writes nothing; a later one applies")
    func madeAt() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let (ana, cookie) = try await app.signedIn("ana")
                let now = app.clock.now()
                func put(_ json: String, madeAt: Date, kind: String = "movies", id: Int = 1001) async throws -> TestResponse {
                    try await client.sendJSON(
                        "/api/v1/library/\(kind)/\(id)", method: .put, json, cookie: cookie,
                        headers: [HTTPField.Name("Change-Made-At")!: madeAt.formatted(.iso8601)])
                }
                #expect(try await put(#"{"favorite": true}"#, madeAt: now.addingTimeInterval(-60)).status == .ok)
                let older = try await put(#"{"favorite": false, "note": "stale"}"#, madeAt: now.addingTimeInterval(-120))
                #expect(older.status == .conflict && older.text.contains("tag:popcornswirl.app,2026:superseded"), "\(older.text)")
                let item = try await app.services.library.item(profile: ana, movieID: 1001)
                #expect(item?.favorite == true && item?.note == nil, "nothing written")
                let newer = try await put(#"{"note": "fresh"}"#, madeAt: now.addingTimeInterval(-30))
                #expect(newer.status == .ok && newer.text.contains("fresh"))
                // Shows and removals follow the same rule.
                #expect(try await put(#"{"favorite": true}"#, madeAt: now.addingTimeInterval(-60), kind: "shows", id: 139).status == .ok)
                let removal = try await client.execute(
                    uri: "/api/v1/library/shows/139", method: .delete,
                    headers: [.cookie: cookie, HTTPField.Name("Change-Made-At")!: now.addingTimeInterval(-90).formatted(.iso8601)])
                #expect(removal.status == .conflict)
                #expect(try await client.get("/api/v1/library?kind=show", cookie: cookie).text.contains("Girls"))
                let bad = try await client.sendJSON(
                    "/api/v1/library/movies/1001", method: .put, #"{"favorite": true}"#, cookie: cookie,
                    headers: [HTTPField.Name("Change-Made-At")!: "yesterday"])
                #expect(bad.status == .badRequest)
            }
        }
    }

    static func film(_ id: Int) -> Movie {
        Movie(id: id, title: "Film \(id)", director: "Someone", genre: "Drama", releaseDate: ITunesDates.parse("2026-05-01"), synopsis: "Plot.")
    }

    @Test("a visitor's things become the account's on signing up, and are in its changes; a deleted person's rows go with them")
    func merged() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let saved = try await client.sendJSON("/api/v1/library/movies/1001", method: .put, #"{"favorite": true}"#)
                let visitor = try #require(saved.sessionCookie)
                let signUp = try await client.postForm(
                    "/account/signup", [("username", "ana"), ("password", AccountTests.password)], cookie: visitor)
                let account = try #require(signUp.sessionCookie)
                let (changes, _) = try await Self.pages(client, cookie: account)
                #expect(Self.keys(changes) == ["title movie:1001"])
                // The visitor is gone, and its numbers with it.
                let orphans = try await app.services.database.sql.raw(
                    "SELECT COUNT(*) AS n FROM sync_log WHERE profile_id NOT IN (SELECT id FROM profiles)"
                ).first(decodingColumn: "n", as: Int.self)
                #expect(orphans == 0)
            }
        }
    }

    @Test("migration 037 numbers what people already have, once")
    func backfill() async throws {
        try await TestApp.with { app in
            let (profile, _) = try await app.signedIn("ana")
            _ = try await app.services.library.update(
                profile: profile, movie: Self.film(1001), change: LibraryChange(favorite: true))
            let database = app.services.database
            try await database.write { db in try await CreateSyncLog().revert(on: db) }
            try await database.write { db in try await CreateSyncLog().prepare(on: db) }
            let page = try await app.services.syncFeed.changes(profile: profile, since: 0, limit: 10)
            #expect(page.changes.map { "\($0.entity.rawValue) \($0.key)" } == ["title movie:1001"])
            // Still kept after the migration ran again.
            _ = try await app.services.library.update(
                profile: profile, movie: Self.film(1002), change: LibraryChange(watched: true))
            let next = try await app.services.syncFeed.changes(profile: profile, since: page.cursor, limit: 10)
            #expect(Set(next.changes.map(\.entity)) == [.title, .watch])
        }
    }

    @Test("writes racing a reader: every change is read, none skipped (PostgreSQL commits out of order)")
    func racing() async throws {
        try await TestApp.with { app in
            let (profile, _) = try await app.signedIn("ana")
            let ids = Array(1001...1012)
            var seen = Set<String>()
            var cursor: Int64 = 0
            try await withThrowingTaskGroup(of: Void.self) { group in
                for id in ids {
                    group.addTask {
                        _ = try await app.services.library.update(profile: profile, movie: Self.film(id), change: LibraryChange(favorite: true))
                    }
                }
                for _ in 0..<20 {
                    let page = try await app.services.syncFeed.changes(profile: profile, since: cursor, limit: 500)
                    seen.formUnion(page.changes.map(\.key))
                    cursor = page.cursor
                }
                try await group.waitForAll()
            }
            let last = try await app.services.syncFeed.changes(profile: profile, since: cursor, limit: 500)
            seen.formUnion(last.changes.map(\.key))
            #expect(seen == Set(ids.map { "movie:\($0)" }))
        }
    }
}
