import Foundation
import Testing

@testable import App

@Suite("Upstream answers decoded once")
struct DecodedAnswersTests {
    @Test("an answer is decoded once while the cache hands out the same one; a refetched answer is decoded again; the bytes are bounded")
    func decodedOnce() {
        let answers = DecodedAnswers<String>(maxBytes: 10)
        var decodes = 0
        let decode = { (data: Data) -> String in
            decodes += 1
            return String(decoding: data, as: UTF8.self)
        }
        let first = CachedBody(body: Data("abc".utf8), fetchedAt: Date(timeIntervalSince1970: 1))
        #expect(answers.value("k", first, decode: decode) == "abc")
        #expect(answers.value("k", first, decode: decode) == "abc")
        #expect(decodes == 1)
        let refetched = CachedBody(body: Data("xyz".utf8), fetchedAt: Date(timeIntervalSince1970: 2))
        #expect(answers.value("k", refetched, decode: decode) == "xyz", "a newer answer is never hidden behind the old one")
        #expect(decodes == 2)
        // 3 + 9 bytes are over the budget: the table starts over, so "k" is decoded again.
        _ = answers.value("big", CachedBody(body: Data("123456789".utf8), fetchedAt: Date(timeIntervalSince1970: 3)), decode: decode)
        _ = answers.value("k", refetched, decode: decode)
        #expect(decodes == 4)
    }
}
