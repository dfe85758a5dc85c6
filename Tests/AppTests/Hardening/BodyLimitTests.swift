import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import App

/// No body past 64 KiB is read, on the API as on the pages.
@Suite("Body limits")
struct BodyLimitTests {
    static let oversized = #"{"favorite": true, "note": ""# + String(repeating: "x", count: 300 * 1024) + #""}"#

    @Test("an anonymous API write with a body over 64 KiB is a 413 problem and saves nothing")
    func apiBody() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let response = try await client.sendJSON("/api/v1/library/movies/1001", method: .put, Self.oversized)
                #expect(response.status == .contentTooLarge)
                #expect(response.headers[.contentType]?.hasPrefix("application/problem+json") == true)
                let problem = try APITests.decode(Schemas.Problem.self, response)
                #expect(problem.status == 413 && problem.detail.contains("64 KB"))
            }
            #expect(try await ProfileModel.query(on: app.services.database.db).count() == 0)
        }
    }

    @Test("a declared Content-Length over the limit fails the first read, before a byte is taken")
    func declaredLength() async throws {
        let source = AsyncStream<ByteBuffer> { continuation in
            continuation.yield(ByteBuffer(string: "{}"))
            continuation.finish()
        }
        let body = LimitedBody(base: RequestBody(asyncSequence: source), limit: BodyLimitMiddleware.maxBytes, declared: 300 * 1024 * 1024)
        var iterator = body.makeAsyncIterator()
        await #expect(throws: HTTPError.self) { _ = try await iterator.next() }
        let chunked = LimitedBody(
            base: RequestBody(
                asyncSequence: AsyncStream<ByteBuffer> { continuation in
                    for _ in 0..<8 { continuation.yield(ByteBuffer(repeating: 1, count: 16 * 1024)) }
                    continuation.finish()
                }),
            limit: BodyLimitMiddleware.maxBytes, declared: nil)
        var read = 0
        await #expect(throws: HTTPError.self) { for try await buffer in chunked { read += buffer.readableBytes } }
        #expect(read == BodyLimitMiddleware.maxBytes)
    }

    @Test("a page form over the limit is a readable 413 page")
    func pageForm() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let response = try await client.postForm(
                    "/library/movies/1001", [("favorite", "1"), ("note", String(repeating: "y", count: 100 * 1024))])
                #expect(response.status == .contentTooLarge)
                #expect(String(buffer: response.body).contains("larger than 64 KB"))
            }
        }
    }

    @Test("a body under the limit is read as before")
    func underLimit() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let note = String(repeating: "z", count: 40 * 1024)
                let response = try await client.sendJSON("/api/v1/library/movies/1001", method: .put, #"{"watched": true, "note": "\#(note)"}"#)
                // The note is too long for the rules (a 400/422), but the body itself was accepted.
                #expect(response.status != .contentTooLarge && response.status.code < 500)
            }
        }
    }
}
