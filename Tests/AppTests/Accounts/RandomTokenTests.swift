import Foundation
import Testing

@testable import App

@Suite("Random tokens")
struct RandomTokenTests {
    @Test("base64url is RFC 4648's URL alphabet without padding")
    func base64URL() {
        #expect(RandomToken.base64URL([0xFB, 0xFF]) == "-_8")
        #expect(RandomToken.base64URL(Array("any carnal pleas".utf8)) == "YW55IGNhcm5hbCBwbGVhcw")
        #expect(RandomToken.base64URL([]) == "")
        // Every length and byte against Foundation's encoder with the alphabet swapped.
        var generator = SystemRandomNumberGenerator()
        for count in 0..<100 {
            let bytes = (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let expected = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(RandomToken.base64URL(bytes) == expected)
            #expect(Hex.string(bytes) == bytes.map { String(format: "%02x", $0) }.joined())
        }
        let token = SessionService.newToken()
        #expect(RandomToken.isWellFormed(token) && token != SessionService.newToken())
    }
}
