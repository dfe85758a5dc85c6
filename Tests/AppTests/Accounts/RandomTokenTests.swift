import Crypto
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

    @Test("a digest of strings is SHA-256 of their UTF-8 bytes joined: session keys and form tokens made before stay the same")
    func textDigest() {
        #expect(TextDigest.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SessionService.hash("abc") == TextDigest.hex("abc"))
        #expect(TextDigest.sha256("a", "", "bc") == SHA256.hash(data: Data("abc".utf8)))
        #expect(TextDigest.hex("é|", "🍿 popcorn") == Hex.string(SHA256.hash(data: Data("é|🍿 popcorn".utf8))))
        // A form's token as every earlier version made it: open tabs keep working across an upgrade.
        let made = SHA256.hash(data: Data("popcornswirl-csrf|secret|session".utf8))
        #expect(CSRFToken.token(secret: "secret", accountSession: "session") == RandomToken.base64URL(made))
        let signedOut = SHA256.hash(data: Data("popcornswirl-csrf|secret|".utf8))
        #expect(CSRFToken.token(secret: "secret", accountSession: nil) == RandomToken.base64URL(signedOut))
    }
}
