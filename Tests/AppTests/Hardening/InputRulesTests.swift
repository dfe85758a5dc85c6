import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SQLKit
import Testing

@testable import App

/// Input a person (or a script) sends that no screen should take: control characters, a name given
/// twice, positions and ids past the schema's bounds, lengths counted in scalars, direction
/// controls in names; and the answers' own promises (Retry-After on every 503, keys scoped to a caller).
@Suite("Hardening: input rules")
struct InputRulesTests {
    static let film = "/api/v1/library/movies/1001"

    @Test("NUL and other control characters are refused with 400 everywhere, alike on both databases; tab and line breaks are text")
    func controlCharacters() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try #require(try await client.sendJSON(Self.film, method: .put, #"{"favorite": true}"#).sessionCookie)
                for note in [#"a\u0000b"#, #"bell \u0007"#, #"escape \u001b[0m"#, #"back\bspace"#] {
                    let refused = try await client.sendJSON(Self.film, method: .put, #"{"note": "\#(note)"}"#, cookie: cookie)
                    #expect(refused.status == .badRequest && refused.text.contains("control characters"), "\(note)")
                    #expect(refused.headers[.contentType] == "application/problem+json")
                }
                let kept = try await client.sendJSON(Self.film, method: .put, #"{"note": "line one\nline two\tand a tab"}"#, cookie: cookie)
                #expect(kept.status == .ok, "tab and line breaks are text")
                #expect(kept.text.contains(#"line one\nline two\tand a tab"#))
                let search = try await client.get("/search?q=a%00b", cookie: cookie)
                #expect(search.status == .badRequest && search.text.contains("control characters"))
                let form = try await client.postForm("/library/movies/1001", [("note", "a\u{0}b")], cookie: cookie)
                #expect(form.status == .badRequest)
                let list = try await client.sendJSON("/api/v1/lists", method: .post, #"{"name": "Nul\u0000list"}"#, cookie: cookie)
                #expect(list.status == .badRequest)
                let stored = try await app.services.database.sql.raw("SELECT note FROM library_entries").all()
                #expect(
                    try stored.map { try $0.decode(column: "note", as: String?.self) } == ["line one\nline two\tand a tab"], "nothing else was saved")
            }
        }
    }

    @Test("a JSON object giving one name twice is refused with 400; so is a list position outside 1…10,000")
    func duplicateNamesAndPositions() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let twice = try await client.sendJSON(Self.film, method: .put, #"{"favorite": true, "favorite": false}"#)
                #expect(twice.status == .badRequest && twice.text.contains("“favorite” twice"))
                #expect(twice.sessionCookie == nil, "nothing was done: no visitor was started")
                let nested = try await client.sendJSON("/api/v1/lists", method: .post, #"{"name": "A", "description": "x", "name": "B"}"#)
                #expect(nested.status == .badRequest)
                let made = try await client.sendJSON("/api/v1/lists", method: .post, #"{"name": "Mine"}"#)
                let cookie = try #require(made.sessionCookie)
                let id = try #require(made.text.firstMatch(of: /"id" ?: ?"([0-9A-Fa-f-]{36})"/)?.1)
                for position in [-5, 0, 10_001] {
                    let placed = try await client.sendJSON(
                        "/api/v1/lists/\(id)/items/movie/1001", method: .put, #"{"position": \#(position)}"#, cookie: cookie)
                    #expect(placed.status == .badRequest && placed.text.contains("position must be from 1 to 10000"), "\(position)")
                }
                let placed = try await client.sendJSON("/api/v1/lists/\(id)/items/movie/1001", method: .put, #"{"position": 1}"#, cookie: cookie)
                #expect(placed.status == .created)
            }
        }
    }

    @Test("ids past the schema's maximum are not saved on faith: 404; 1001.0 is the id 1001")
    func idsPastTheMaximum() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let show = try await client.sendJSON("/api/v1/library/shows/100000000", method: .put, #"{"favorite": true}"#)
                #expect(show.status == .notFound)
                let film = try await client.sendJSON("/api/v1/library/movies/100000000000", method: .put, #"{"favorite": true}"#)
                #expect(film.status == .notFound)
                #expect(
                    try await app.services.database.sql.raw("SELECT COUNT(*) AS n FROM library_entries").first(decodingColumn: "n", as: Int.self) == 0
                )
                // A whole number written with a fraction of zeros is the integer (JSON Schema's rule; api-fuzz sends them).
                let whole = try await client.sendJSON("/api/v1/library/movies/1001.0", method: .put, #"{"favorite": true}"#)
                #expect(whole.status == .ok && whole.text.contains(#""id" : 1001"#), "\(whole.status) \(whole.text.prefix(300))")
                #expect(try await client.sendJSON("/api/v1/library/movies/1001.5", method: .put, #"{"favorite": true}"#).status == .badRequest)
            }
        }
    }

    @Test("lengths are counted in Unicode scalars, as the schema's maxLength; names refuse text-direction controls")
    func lengthsAndDirection() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let marks = String(repeating: "\u{301}", count: 10_000)
                let cookie = try #require(try await client.sendJSON(Self.film, method: .put, #"{"favorite": true}"#).sessionCookie)
                let note = try await client.sendJSON(Self.film, method: .put, #"{"note": "a\#(marks)"}"#, cookie: cookie)
                #expect(note.status == .unprocessableContent && note.text.contains("10001 characters long"))
                let long = try await client.sendJSON("/api/v1/lists", method: .post, #"{"name": "\#(marks.prefix(5000))"}"#, cookie: cookie)
                #expect(long.status == .unprocessableContent)
                let override = try await client.sendJSON("/api/v1/lists", method: .post, #"{"name": "abc\u202Edef"}"#, cookie: cookie)
                #expect(override.status == .unprocessableContent && override.text.contains("text-direction control"))
                let page = try await client.postForm("/lists", [("name", "gpj\u{202E}.exe")], cookie: cookie)
                #expect(page.status == .unprocessableContent)
                #expect(
                    try await app.services.database.sql.raw("SELECT COUNT(*) AS n FROM custom_lists").first(decodingColumn: "n", as: Int.self) == 0)
            }
        }
    }

    @Test("two cookieless clients sending one Idempotency-Key: the second's write is done for it, not answered with the first's")
    func idempotencyNeedsACaller() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let headers: HTTPFields = [IdempotencyMiddleware.header: "same-key-123"]
                let first = try await client.sendJSON(Self.film, method: .put, #"{"favorite": true}"#, headers: headers)
                let second = try await client.sendJSON(Self.film, method: .put, #"{"favorite": true}"#, headers: headers)
                #expect(first.status == .ok && second.status == .ok)
                #expect(second.headers[IdempotencyMiddleware.replayed] == nil)
                let mine = try #require(second.sessionCookie, "the second client got its own visitor")
                #expect(mine != first.sessionCookie)
                #expect(try await client.get("/api/v1/library", cookie: mine).text.contains("1001"))
                // With a caller, the key is kept as before.
                let again = try await client.sendJSON(Self.film, method: .put, #"{"favorite": true}"#, cookie: mine, headers: headers)
                let replay = try await client.sendJSON(Self.film, method: .put, #"{"favorite": true}"#, cookie: mine, headers: headers)
                #expect(again.headers[IdempotencyMiddleware.replayed] == nil && replay.headers[IdempotencyMiddleware.replayed] == "true")
            }
        }
    }

    @Test("every 503 says when to come back (Retry-After), the API's failed writes included")
    func retryAfterOnEvery503() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie = try #require(try await client.sendJSON(Self.film, method: .put, #"{"favorite": true}"#).sessionCookie)
                try await app.services.database.sql.raw("DROP TABLE library_entries").run()
                let api = try await client.sendJSON("/api/v1/library/movies/1002", method: .put, #"{"favorite": true}"#, cookie: cookie)
                #expect(api.status == .serviceUnavailable && api.headers[.retryAfter] == "5")
                let page = try await client.postForm("/library/movies/1002", [("favorite", "1")], cookie: cookie)
                #expect(page.status == .serviceUnavailable && page.headers[.retryAfter] != nil)
            }
        }
    }

    @Test("the JSON check reads past arrays and nested objects, and stops quietly at JSON that is not JSON")
    func jsonCheckNesting() {
        func problem(_ json: String) -> JSONTextCheck.Problem? { JSONTextCheck.problem(in: Array(json.utf8)) }
        #expect(problem(#"{"domains": ["0"], "website": "o*\u000f"}"#) == .controlCharacter)
        #expect(problem(#"{"a": [1, {"b": [], "c": {}}], "d": "x\u0001"}"#) == .controlCharacter)
        #expect(problem(#"{"a": {"b": 1}, "a": 2}"#) == .duplicateName("a"))
        #expect(problem(#"[{"a": 1}, {"a": 1, "b": "\t\n\r fine"}]"#) == nil)
        #expect(problem(#"{"a": [1, 2}, "b": "\u0000"}"#) == nil, "malformed: left to the decoder")
        #expect(problem(#"{"a\u0062": 1, "ab": 2}"#) == .duplicateName("ab"), "names compared as decoded")
    }

    @Test("CSV cells that Excel with ';' as its list separator would run as formulas are defused and quoted")
    func csvSemicolons() {
        #expect(
            CSV.line(["Heat;=HYPERLINK(\"x\")", "a;+cmd", "b;-2", "c; d", "plain"])
                == "\"Heat;'=HYPERLINK(\"\"x\"\")\",\"a;'+cmd\",\"b;-2\",\"c; d\",plain\r\n")
        #expect(CSV.line(["=1;@SUM(A1)"]) == "\"'=1;'@SUM(A1)\"\r\n")
    }
}
