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
        let token = SessionService.newToken()
        #expect(RandomToken.isWellFormed(token) && token != SessionService.newToken())
    }
}
