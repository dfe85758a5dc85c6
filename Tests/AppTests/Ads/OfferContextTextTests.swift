import Foundation
import Testing

@testable import App

@Suite("A show's summary as offer text")
struct OfferContextTextTests {
    @Test("tags become spaces exactly as the pattern <[^>]*> replaces them, over 5,000 random summaries")
    func tagsAsSpacesIsThePattern() {
        var random = SplitMix(seed: 11)
        let pieces = ["<", ">", "p", "b", " ", "é", "</p>", "<b>", "Ü", "\n"]
        for _ in 0..<5_000 {
            let html = (0..<Int.random(in: 0...14, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let pattern = html.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
            #expect(OfferContext.tagsAsSpaces(html) == pattern, "\(html.debugDescription)")
        }
        #expect(
            OfferContext.tagsAsSpaces("<p>A <b>mockumentary</b> of < 3 offices.</p>") == " A  mockumentary  of  ",
            "from a lone < to the next >, as the pattern")
        #expect(OfferContext.tagsAsSpaces("<i>3</i> < 4") == " 3  < 4", "an unclosed < stays")
    }
}
