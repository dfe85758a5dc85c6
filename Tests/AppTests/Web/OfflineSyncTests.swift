import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

@testable import App

/// What a change made offline relies on when it is synced: an `Idempotency-Key` makes it happen
/// once however often it is sent, and `Change-Made-At` lets the newer change win.
@Suite("Offline changes: Idempotency-Key and the newer change wins")
struct OfflineSyncTests {
    static func key(_ value: String) -> HTTPFields { [IdempotencyMiddleware.header: value] }

    /// A signed-in person's cookie with its CSRF cookie, and the token their forms carry: the same
    /// form sent twice is then the same bytes, as a queued change sent again is.
    static func person(_ app: TestApp, _ client: some TestClientProtocol) async throws -> (cookie: String, csrf: String, profile: UUID) {
        let (profile, cookie) = try await app.signedIn("offline")
        let page = try await client.csrfToken(cookie: cookie)
        return (try #require(page.cookie), page.token, profile)
    }

    @Test("a write sent twice with one key is done once: the second gets the first answer, marked as replayed")
    func sameKeyOnce() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let (cookie, csrf, profile) = try await Self.person(app, client)
                let fields = [("day", "2026-11-01"), (CSRFMiddleware.field, csrf)]
                let first = try await client.postForm(
                    "/library/movies/1001/watches", fields, cookie: cookie, json: true, csrf: false, headers: Self.key("sync-1"))
                let again = try await client.postForm(
                    "/library/movies/1001/watches", fields, cookie: cookie, json: true, csrf: false, headers: Self.key("sync-1"))
                // The diary's form answers with a redirect to the page it came from: the replay too.
                #expect(first.status == .seeOther && again.status == .seeOther)
                #expect(first.headers[.location] != nil && again.headers[.location] == first.headers[.location] && first.text == again.text)
                #expect(first.headers[IdempotencyMiddleware.replayed] == nil && again.headers[IdempotencyMiddleware.replayed] == "true")
                #expect(try await app.services.diary.watches(profile: profile, kind: .movie, itemID: "1001").count == 1)
                // Another key is another change: a rewatch.
                _ = try await client.postForm(
                    "/library/movies/1001/watches", fields, cookie: cookie, json: true, csrf: false, headers: Self.key("sync-2"))
                #expect(try await app.services.diary.watches(profile: profile, kind: .movie, itemID: "1001").count == 2)
                // Without a key, a write is done each time, as before.
                _ = try await client.postForm("/library/movies/1001/watches", fields, cookie: cookie, json: true, csrf: false)
                #expect(try await app.services.diary.watches(profile: profile, kind: .movie, itemID: "1001").count == 3)
            }
        }
    }

    @Test("the JSON API: a PUT and a POST sent again with their key change nothing more")
    func apiWrites() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let (profile, cookie) = try await app.signedIn("api-sync")
                let watch = #"{"kind": "movie", "titleId": 1001, "date": "2026-11-02"}"#
                for _ in 0..<3 {
                    let logged = try await client.sendJSON("/api/v1/diary", method: .post, watch, cookie: cookie, headers: Self.key("api-watch"))
                    #expect(logged.status == .created)
                }
                #expect(try await app.services.diary.watches(profile: profile, kind: .movie, itemID: "1001").count == 1)
                let put = try await client.sendJSON(
                    "/api/v1/library/movies/1001", method: .put, #"{"favorite": true}"#, cookie: cookie, headers: Self.key("api-fav"))
                let replay = try await client.sendJSON(
                    "/api/v1/library/movies/1001", method: .put, #"{"favorite": true}"#, cookie: cookie, headers: Self.key("api-fav"))
                #expect(put.status == .ok && replay.status == .ok && replay.headers[IdempotencyMiddleware.replayed] == "true")
                #expect(put.text == replay.text)
            }
        }
    }

    @Test("a key sent with another request is refused (422); a malformed key is refused (400); keys are the caller's own")
    func refusals() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let (cookie, csrf, profile) = try await Self.person(app, client)
                let favorite = try await client.postForm(
                    "/library/movies/1001", [("favorite", "1"), (CSRFMiddleware.field, csrf)], cookie: cookie, json: true, csrf: false,
                    headers: Self.key("k1"))
                #expect(favorite.status == .ok)
                let other = try await client.postForm(
                    "/library/movies/1002", [("favorite", "1"), (CSRFMiddleware.field, csrf)], cookie: cookie, json: true, csrf: false,
                    headers: Self.key("k1"))
                #expect(other.status == .unprocessableContent && other.text.contains("already used for another request"))
                #expect(try await app.services.library.item(profile: profile, movieID: 1002) == nil, "nothing was written")
                let bad = try await client.postForm(
                    "/library/movies/1002", [("favorite", "1"), (CSRFMiddleware.field, csrf)], cookie: cookie, json: true, csrf: false,
                    headers: Self.key("has space"))
                #expect(bad.status == .badRequest && bad.text.contains("Idempotency-Key"))
                // Another person's request with the same key is theirs: done, not answered with the first person's answer.
                let (otherProfile, otherCookie) = try await app.signedIn("someone-else")
                let theirs = try await client.sendJSON(
                    "/api/v1/library/movies/1001", method: .put, #"{"watched": true}"#, cookie: otherCookie, headers: Self.key("k1"))
                #expect(theirs.status == .ok && theirs.headers[IdempotencyMiddleware.replayed] == nil)
                #expect(try await app.services.library.item(profile: otherProfile, movieID: 1001)?.watched == true)
            }
        }
    }

    @Test("a key is remembered for more than 24 hours, then swept; one whose first request is still running gets 409 until it is abandoned")
    func keptAndInProgress() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                // A visitor: an account's session ends 12 hours after sign-in, a visitor's does not.
                let cookie = try await app.visitor()
                let profile = try #require(try await app.profile(cookie))
                let watch = #"{"kind": "movie", "titleId": 1001, "date": "2026-11-02"}"#
                _ = try await client.sendJSON("/api/v1/diary", method: .post, watch, cookie: cookie, headers: Self.key("day-old"))
                app.clock.advance(30 * 3600)
                let late = try await client.sendJSON("/api/v1/diary", method: .post, watch, cookie: cookie, headers: Self.key("day-old"))
                #expect(late.headers[IdempotencyMiddleware.replayed] == "true")
                _ = try await SessionCleanup(sessions: app.services.sessions, logger: TestDatabase.logger).sweep()
                let stillKept = try await client.sendJSON("/api/v1/diary", method: .post, watch, cookie: cookie, headers: Self.key("day-old"))
                #expect(stillKept.headers[IdempotencyMiddleware.replayed] == "true", "30 hours on, the key is kept")
                app.clock.advance(20 * 3600)
                _ = try await SessionCleanup(sessions: app.services.sessions, logger: TestDatabase.logger).sweep()
                let count = try await app.services.database.sql.raw("SELECT COUNT(*) AS n FROM idempotency_keys").first()?
                    .decode(column: "n", as: Int.self)
                #expect(count == 0, "two days on, the clean-up removed it")
                #expect(try await app.services.diary.watches(profile: profile, kind: .movie, itemID: "1001").count == 1)

                // A first request that has not answered yet (on another server, say): the same request gets 409.
                let store = IdempotencyStore(database: app.services.database, clock: app.clock)
                let scope = "profile:" + profile.uuidString.lowercased()
                let fingerprint = IdempotencyMiddleware.fingerprint(.post, "/api/v1/diary", nil, ByteBuffer(string: watch))
                guard case .claimed = try await store.claim(scope: scope, key: "busy", fingerprint: fingerprint) else {
                    Issue.record("not claimed")
                    return
                }
                let busy = try await client.sendJSON("/api/v1/diary", method: .post, watch, cookie: cookie, headers: Self.key("busy"))
                #expect(busy.status == .conflict && busy.text.contains("still being answered"))
                #expect(try await app.services.diary.watches(profile: profile, kind: .movie, itemID: "1001").count == 1)
                // A minute on, the first is taken to have died with its server: the write is done.
                app.clock.advance(IdempotencyStore.abandonedAfter + 1)
                let taken = try await client.sendJSON("/api/v1/diary", method: .post, watch, cookie: cookie, headers: Self.key("busy"))
                #expect(taken.status == .created && taken.headers[IdempotencyMiddleware.replayed] == nil)
                #expect(try await app.services.diary.watches(profile: profile, kind: .movie, itemID: "1001").count == 2)
            }
        }
    }

    @Test("an answer that says 'not now' (429, 408) or failed (5xx) is not kept: the same key sent later does the write")
    func notNowIsNotKept() async throws {
        try await TestDatabase.with { database in
            let calls = Mutex(0)
            let router = Router(context: AppRequestContext.self)
            router.add(middleware: IdempotencyMiddleware(store: IdempotencyStore(database: database, clock: ManualClock())))
            router.post("/write") { _, _ -> Response in
                let call = calls.withLock {
                    $0 += 1
                    return $0
                }
                let status: HTTPResponse.Status = [1: .tooManyRequests, 2: .requestTimeout, 3: .serviceUnavailable][call] ?? .created
                return Response(status: status, body: ResponseBody(byteBuffer: ByteBuffer(string: "call \(call)")))
            }
            try await Application(router: router).test(.router) { client in
                var answers: [String] = []
                for _ in 0..<5 {
                    // A caller the key is kept for: an API token's.
                    var headers = Self.key("later")
                    headers[.authorization] = "Bearer ps_test-caller"
                    let response = try await client.execute(uri: "/write", method: .post, headers: headers, body: ByteBuffer(string: "x"))
                    answers.append("\(response.status.code) \(String(buffer: response.body))")
                }
                #expect(answers == ["429 call 1", "408 call 2", "503 call 3", "201 call 4", "201 call 4"])
                #expect(calls.withLock { $0 } == 4)
            }
        }
    }

    @Test("the newer change by the time it was made wins: an older offline change to a title changed since is refused with 409 and nothing changes")
    func newerChangeWins() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let (cookie, csrf, profile) = try await Self.person(app, client)
                func madeAt(_ date: Date) -> HTTPFields { [FormInput.madeAtHeader: date.formatted(.iso8601)] }
                let offlineMoment = app.clock.now()
                app.clock.advance(600)
                // Ten minutes later, on another device: a favorite with a note.
                _ = try await client.postForm("/library/movies/1001", [("favorite", "1"), ("note", "From the laptop")], cookie: cookie, json: true)
                // The phone's change from ten minutes before arrives now.
                let stale = try await client.postForm(
                    "/library/movies/1001", [("note", "From the phone"), (CSRFMiddleware.field, csrf)], cookie: cookie, json: true, csrf: false,
                    headers: madeAt(offlineMoment))
                #expect(stale.status == .conflict && stale.text.contains("the newer change was kept"))
                #expect(try await app.services.library.item(profile: profile, movieID: 1001)?.note == "From the laptop")
                let staleRemove = try await client.postForm(
                    "/library/movies/1001/remove", [(CSRFMiddleware.field, csrf)], cookie: cookie, json: true, csrf: false,
                    headers: madeAt(offlineMoment))
                #expect(staleRemove.status == .conflict)
                #expect(try await app.services.library.item(profile: profile, movieID: 1001) != nil, "an older removal does not remove")
                // A change made after the laptop's wins, and keeps its own time.
                app.clock.advance(600)
                let newer = app.clock.now().addingTimeInterval(-60)
                let fresh = try await client.postForm(
                    "/library/movies/1001", [("note", "From the phone, later"), (CSRFMiddleware.field, csrf)], cookie: cookie, json: true,
                    csrf: false, headers: madeAt(newer))
                #expect(fresh.status == .ok)
                let item = try #require(try await app.services.library.item(profile: profile, movieID: 1001))
                #expect(item.note == "From the phone, later" && abs(item.updatedAt.timeIntervalSince(newer)) < 1)
                // Watched offline yesterday logs the watch on yesterday's day.
                let yesterday = app.clock.now().addingTimeInterval(-24 * 3600)
                _ = try await client.postForm(
                    "/library/movies/1002", [("watched", "1"), (CSRFMiddleware.field, csrf)], cookie: cookie, json: true, csrf: false,
                    headers: madeAt(yesterday))
                let watches = try await app.services.diary.watches(profile: profile, kind: .movie, itemID: "1002")
                #expect(watches.map(\.day) == [DiaryService.today(yesterday)])
                // A moment that cannot be read is refused; one ahead of the server's clock counts as now.
                let unreadable = try await client.postForm(
                    "/library/movies/1002", [("favorite", "1"), (CSRFMiddleware.field, csrf)], cookie: cookie, json: true, csrf: false,
                    headers: [FormInput.madeAtHeader: "yesterday"])
                #expect(unreadable.status == .badRequest && unreadable.text.contains("ISO 8601"))
                let ahead = try await client.postForm(
                    "/library/movies/1002",
                    [("favorite", "1"), (CSRFMiddleware.field, csrf)], cookie: cookie, json: true, csrf: false,
                    headers: madeAt(app.clock.now().addingTimeInterval(3600)))
                #expect(ahead.status == .ok)
                let later = try await client.postForm("/library/movies/1002", [("favorite", "0")], cookie: cookie, json: true)
                #expect(later.status == .ok, "a change from the future does not lock the title")
            }
        }
    }
}
