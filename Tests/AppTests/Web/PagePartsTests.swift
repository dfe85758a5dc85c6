import NIOCore
import Testing

@testable import App

@Suite("Page parts: each answer is filled in for the visitor it is handed")
struct PagePartsTests {
    static let page = "<header><!--ps:account--></header><form><!--ps:csrf--></form><ul><!--ps:sponsored--><li>a</li><!--ps:sponsored--></ul>"

    @Test("the visitor's form token, their name (escaped) and the cards go in their holes; a slot without a card stays empty")
    func filled() {
        let parts = PageParts(Self.page)
        #expect(parts.holes == [.account, .csrf, .sponsored, .sponsored])
        let token = CSRFToken(secret: "secret", accountSession: "session")
        let signedIn = PageVisitor(csrf: token, signedInAs: "ana<b>")
        #expect(
            String(buffer: parts.filled(for: signedIn, cards: ["<li>ad</li>"]))
                == "<header><span class=\"sr-only\">Signed in as </span>ana&lt;b&gt;</header><form>\(token.value)</form><ul><li>ad</li><li>a</li></ul>"
        )
    }

    @Test("nobody's page (a public one, or one drawn outside the pages' group) has no token and offers to sign in")
    func nobody() {
        #expect(String(buffer: PageParts(Self.page).filled(for: PageVisitor())) == "<header>Sign in</header><form></form><ul><li>a</li></ul>")
    }
}
