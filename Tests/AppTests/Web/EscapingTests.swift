import Foundation
import Testing

@testable import App

@Suite("Escaping and URL encoding")
struct EscapingTests {
    static let samples = [
        "", "plain", "Tom & Jerry", "<script>alert('x')</script>", "\"quoted\"", "é ü 日本語 🍿👩‍👩‍👧", "a&b<c>d\"e'f",
        "&amp; already", "\u{0}\u{1F}", String(repeating: "<&>", count: 500),
    ]

    @Test("HTML escaping replaces exactly & < > \" ' and keeps every other character", arguments: samples)
    func htmlEscaping(text: String) {
        let escaped = UTF8HTMLEscaping.escape(text)
        var expected = ""
        for c in text {
            switch c {
            case "&": expected += "&amp;"
            case "<": expected += "&lt;"
            case ">": expected += "&gt;"
            case "\"": expected += "&quot;"
            case "'": expected += "&#39;"
            default: expected.append(c)
            }
        }
        #expect(escaped == expected)
        #expect(!escaped.contains("<") && !escaped.contains(">") && !escaped.contains("\"") && !escaped.contains("'"))
    }

    @Test("random text never leaves a raw markup character behind")
    func randomEscaping() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("<>&\"'abc é🍿\n/=")
        for _ in 0..<500 {
            let text = String((0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            let escaped = UTF8HTMLEscaping.escape(text)
            #expect(!escaped.contains(where: { "<>\"'".contains($0) }))
            #expect(
                escaped.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                    .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
                    .replacingOccurrences(of: "&amp;", with: "&") == text)
        }
    }

    @Test("query encoding round-trips any text and leaves only safe characters", arguments: samples)
    func queryEncoding(text: String) {
        let encoded = Route.query(text)
        #expect(encoded.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-._~/%".contains($0)) })
        #expect(encoded.removingPercentEncoding == text)
    }
}

@Suite("Request limits")
struct RequestLimitTests {
    @Test("an over-long query string is a readable 414, an over-long form body a 413; normal ones pass")
    func limits() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let long = try await client.get("/search?q=" + String(repeating: "a", count: 9000))
                #expect(long.status == .uriTooLong)
                #expect(long.text.contains("This address is too long."))
                #expect(try await client.get("/search?q=" + String(repeating: "a", count: 150)).status != .uriTooLong)
                let body = try await client.postForm("/library/movies/1001", [("note", String(repeating: "n", count: 70_000)), ("watched", "1")])
                #expect(body.status == .contentTooLarge)
                #expect(try await app.services.library.item(profile: nil, movieID: 1001) == nil)
            }
        }
    }
}
