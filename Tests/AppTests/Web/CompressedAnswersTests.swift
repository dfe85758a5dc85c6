import CompressNIO
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import App

@Suite("Compression: a cached page's answers compressed once")
struct CompressedAnswersTests {
    func gunzip(_ body: ByteBuffer) throws -> String { try CompressionTests.gunzip(body) }

    static let page =
        "<form><input name=\"csrf\" value=\"\(PageParts.csrfMarker)\"></form>" + String(repeating: "<article>Film</article>\n", count: 300)
        + PageParts.sponsoredMarker + "<footer></footer>"

    @Test("one answer per token and cards: compressed once, unpacking to the plain page; a new token or new cards are compressed anew")
    func keptPerTokenAndCards() throws {
        let answers = CompressedAnswers()
        var made = 0
        let parts = PageParts(Self.page)
        func answer(_ token: String, _ cards: [String]) throws -> ByteBuffer {
            try answers.answer(csrf: token, cards: cards) {
                made += 1
                return try parts.gzip(csrf: token, cards: cards)
            }
        }
        let first = try answer("token-a", ["<aside>Offer 1</aside>"])
        #expect(try gunzip(first) == String(buffer: parts.filled(csrf: "token-a", cards: ["<aside>Offer 1</aside>"])))
        #expect(try answer("token-a", ["<aside>Offer 1</aside>"]) == first && made == 1)
        _ = try answer("token-a", ["<aside>Offer 2</aside>"])
        #expect(try gunzip(try answer("token-b", [])).contains("value=\"token-b\"") && made == 3)
        // Bounded: a fifth answer starts the table over.
        _ = try answer("token-c", [])
        _ = try answer("token-d", [])
        _ = try answer("token-a", ["<aside>Offer 1</aside>"])
        #expect(made == 6)
    }

    @Test("a returning browser gets a cached page gzipped, the same bytes every time; a first visit is compressed on the way out")
    func servedCompressed() async throws {
        try await TestApp.with { app in
            // No sponsored cards: the frequency cap would change them from one view to the next.
            try await app.removeAllOffers()
            try await app.test { client in
                let kept: HTTPFields = [.cookie: TestApp.csrfCookie, .acceptEncoding: "gzip"]
                let plain = try await client.execute(uri: "/movies?year=2026", method: .get, headers: [.cookie: TestApp.csrfCookie])
                #expect(plain.headers[.contentEncoding] == nil)
                let packed = try await client.execute(uri: "/movies?year=2026", method: .get, headers: kept)
                #expect(packed.headers[.contentEncoding] == "gzip")
                #expect(packed.headers[values: .vary].filter { $0.contains("Accept-Encoding") }.count == 1)
                #expect(try gunzip(packed.body) == String(buffer: plain.body))
                for _ in 1...2 {
                    #expect(try await client.execute(uri: "/movies?year=2026", method: .get, headers: kept).body == packed.body)
                }
                // A browser without the cookie gets a token of its own, compressed on the way out.
                let first = try await client.execute(uri: "/movies?year=2026", method: .get, headers: [.acceptEncoding: "gzip"])
                #expect(first.headers[.contentEncoding] == "gzip" && first.headers[.setCookie] != nil)
                #expect(try gunzip(first.body).contains("Middle Of The Year"))
            }
        }
    }
}
