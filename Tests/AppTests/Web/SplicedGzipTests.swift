import CompressNIO
import Foundation
import HummingbirdTesting
import NIOCore
import Testing

@testable import App

@Suite("Compression: a first visit's answer spliced from pieces compressed once")
struct SplicedGzipTests {
    /// A form token as `CSRFMiddleware` makes them: 43 URL-safe characters.
    static func token(_ random: inout SplitMix) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        return String((0..<43).map { _ in alphabet.randomElement(using: &random)! })
    }

    /// Page-like text: repeated markup (long matches), words, accents, and now and then a long run.
    static func text(_ random: inout SplitMix) -> String {
        let words = ["<article class=\"card\">", "</article>\n", "Film", " é ", "<a href=\"/movies/1001\">", "Ü", "value=\"", "\""]
        let count = [0, 1, 5, 40, 400, 4_000].randomElement(using: &random)!
        return (0..<count).map { _ in words.randomElement(using: &random)! }.joined()
    }

    @Test("the spliced answer unpacks to the page filled for that token and those cards, over 300 random pages")
    func unpacksToTheFilledPage() throws {
        var random = SplitMix(seed: 23)
        for round in 0..<300 {
            let holes = (0..<Int.random(in: 0...12, using: &random)).map { _ in
                Bool.random(using: &random) ? PageParts.csrfMarker : PageParts.sponsoredMarker
            }
            let html = holes.reduce(Self.text(&random)) { $0 + $1 + Self.text(&random) }
            let parts = PageParts(html)
            let spliced = try #require(SplicedGzip(pieces: parts.pieces, holes: parts.holes))
            let token = Self.token(&random)
            let cards = (0..<Int.random(in: 0...4, using: &random)).map { _ in "<aside>\(Self.text(&random))</aside>" }
            var answer = try #require(spliced.answer(token: token, cards: cards))
            let unpacked = try answer.decompress(with: .gzip())
            #expect(unpacked == parts.filled(csrf: token, cards: cards), "round \(round)")
        }
    }

    @Test("a token is copied from the one before it within 32 KiB (about 10 bytes), else stored; each hole costs under 20 bytes over zlib's own")
    func tokensCopiedAndSize() throws {
        var random = SplitMix(seed: 5)
        let card =
            "<article class=\"card\"><a href=\"/movies/1001\">Film</a><form><input name=\"csrf\" value=\"\(PageParts.csrfMarker)\"></form></article>\n"
        let page = String(repeating: card, count: 200) + String(repeating: "x", count: 40_000) + card
        let parts = PageParts(page)
        let spliced = try #require(SplicedGzip(pieces: parts.pieces, holes: parts.holes))
        let token = Self.token(&random)
        var answer = try #require(spliced.answer(token: token, cards: []))
        let size = answer.readableBytes
        #expect(try answer.decompress(with: .gzip()) == parts.filled(csrf: token))
        let whole = try parts.gzip(csrf: token)
        // What splicing costs on the wire: each hole ends a block (about 6 bytes) and copies the token (about 10).
        #expect(size < whole.readableBytes + 201 * 20, "\(size) against \(whole.readableBytes)")
        #expect(SplicedGzip.copyBlock(length: 43, distance: 32_768).count <= 10)
        for (distance, code) in [(1, 0), (4, 3), (5, 4), (7, 5), (9, 6), (24_577, 29), (32_768, 29)] {
            #expect(SplicedGzip.distanceCode(distance).code == UInt32(code), "distance \(distance)")
        }
    }

    @Test("a page with a NUL byte, or an answer whose token is not a token's length, is not spliced")
    func refusals() throws {
        let withNUL = PageParts("<p>a\u{0}b</p>" + PageParts.csrfMarker)
        #expect(SplicedGzip(pieces: withNUL.pieces, holes: withNUL.holes) == nil)
        let parts = PageParts("<form>" + PageParts.csrfMarker + "</form>")
        #expect(try #require(SplicedGzip(pieces: parts.pieces, holes: parts.holes)).answer(token: "short", cards: []) == nil)
    }

    @Test("a first visit to a cached page gets the spliced answer: gzip, unpacking to the page with its own token")
    func firstVisitServedSpliced() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                for _ in 1...3 {
                    let first = try await client.execute(uri: "/movies?year=2026", method: .get, headers: [.acceptEncoding: "gzip"])
                    #expect(first.headers[.contentEncoding] == "gzip")
                    let page = try CompressionTests.gunzip(first.body)
                    let cookie = try #require(first.headers[values: .setCookie].first { $0.contains("csrf") }).prefix { $0 != ";" }
                    let plain = try await client.execute(uri: "/movies?year=2026", method: .get, headers: [.cookie: String(cookie)])
                    // The same page the browser gets on its next visit, sponsored cards aside (the frequency cap moves them).
                    #expect(SearchPagesKeptTests.withoutOffers(page) == SearchPagesKeptTests.withoutOffers(String(buffer: plain.body)))
                }
            }
        }
    }
}
