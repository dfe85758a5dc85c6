import Foundation
import PropertyBased
import Testing

@testable import App

@Suite("HTML sanitiser for TVMaze summaries")
struct HTMLSanitizerTests {
    static let allowedTags: Set<String> = ["<p>", "</p>", "<b>", "</b>", "<strong>", "</strong>", "<i>", "</i>", "<em>", "</em>", "<br>"]

    /// Every '<' in the output must start one of the allowed attribute-free tags; no raw quote or '>' outside them.
    static func onlyAllowedMarkup(_ html: String) -> Bool {
        var rest = Substring(html)
        while let lt = rest.firstIndex(of: "<") {
            let text = rest[rest.startIndex..<lt]
            if text.contains(">") || text.contains("\"") || text.contains("'") { return false }
            guard let gt = rest[lt...].firstIndex(of: ">") else { return false }
            guard allowedTags.contains(String(rest[lt...gt])) else { return false }
            rest = rest[rest.index(after: gt)...]
        }
        return !rest.contains(">") && !rest.contains("\"") && !rest.contains("'")
    }

    /// Allowed tags must nest properly: every close matches the last open, nothing left open.
    static func balanced(_ html: String) -> Bool {
        var stack: [String] = []
        var rest = Substring(html)
        while let lt = rest.firstIndex(of: "<"), let gt = rest[lt...].firstIndex(of: ">") {
            let tag = String(rest[rest.index(after: lt)..<gt])
            if tag.hasPrefix("/") {
                guard stack.popLast() == String(tag.dropFirst()) else { return false }
            } else if tag != "br" {
                stack.append(tag)
            }
            rest = rest[rest.index(after: gt)...]
        }
        return stack.isEmpty
    }

    static let xssCorpus: [String] = [
        "<script>alert(1)</script>",
        "<SCRIPT SRC=//evil.example/x.js></SCRIPT>",
        "<img src=x onerror=alert(1)>",
        "<IMG SRC=\"javascript:alert('XSS');\">",
        "<a href=\"javascript:alert(1)\">click</a>",
        "<a href=\"jav&#x09;ascript:alert(1)\">x</a>",
        "<svg onload=alert(1)>",
        "<svg><script>alert(1)</script></svg>",
        "<body onload=alert(1)>",
        "<iframe src=\"javascript:alert(1)\"></iframe>",
        "<p onclick=\"alert(1)\">text</p>",
        "<b style=\"background:url(javascript:alert(1))\">bold</b>",
        "<style>body{background:url(javascript:alert(1))}</style>",
        "<!--<script>alert(1)</script>-->",
        "<<script>alert(1)//<</script>",
        "<scr<script>ipt>alert(1)</script>",
        "<p/onmouseover=alert(1)>x",
        "<br/onload=alert(1)>",
        "\"><script>alert(1)</script>",
        "'><img src=x onerror=alert(1)>",
        "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
        "<object data=\"javascript:alert(1)\"></object>",
        "<embed src=javascript:alert(1)>",
        "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert(1)\">",
        "<input autofocus onfocus=alert(1)>",
        "<details open ontoggle=alert(1)>",
        "<![CDATA[<script>alert(1)</script>]]>",
        "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\">",
        "<template><script>alert(1)</script></template>",
        "<textarea><script>alert(1)</script></textarea>",
        "<a href=\"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==\">x</a>",
        "<p>unterminated <b>bold",
        "</p></b>closing only",
        "<p>\u{0}<script>alert(1)</script>",
        "< script>alert(1)</script>",
        "<div><form action=javascript:alert(1)><button>x</button></form></div>",
    ]

    @Test("known XSS payloads leave nothing executable", arguments: xssCorpus)
    func corpus(payload: String) {
        let clean = HTMLSanitizer.sanitize(payload)
        #expect(Self.onlyAllowedMarkup(clean), "\(clean)")
        #expect(Self.balanced(clean), "\(clean)")
        #expect(!clean.lowercased().contains("<script"))
        #expect(!clean.lowercased().contains("<img"))
        #expect(!clean.contains("\u{0}"))
    }

    @Test("TVMaze's ordinary summaries keep their formatting")
    func keepsFormatting() {
        #expect(HTMLSanitizer.sanitize("<p><b>Girls</b> follows <i>four</i> friends.</p>") == "<p><b>Girls</b> follows <i>four</i> friends.</p>")
        #expect(HTMLSanitizer.sanitize("<P CLASS=\"x\">Hi<BR>there &amp; <EM>you</EM></P>") == "<p>Hi<br>there &amp; <em>you</em></p>")
        #expect(HTMLSanitizer.sanitize("Tom & Jerry's \"show\"") == "Tom &amp; Jerry&#39;s &quot;show&quot;")
        #expect(HTMLSanitizer.sanitize("<p>A <a href=\"https://x\">link</a></p>") == "<p>A link</p>")
        #expect(HTMLSanitizer.sanitize("<script>alert(1)</script><p>After</p>") == "<p>After</p>")
        #expect(HTMLSanitizer.sanitize("<p>open <b>bold</p>") == "<p>open <b>bold</b></p>")
    }

    static let fragments = [
        "<", ">", "/", "\"", "'", "=", "&", ";", "#", "x", " ", "\n", "\u{0}", "p", "b", "br", "i", "em", "strong",
        "script", "SCRIPT", "style", "img", "svg", "a", "iframe", "onerror", "onload", "src", "href", "javascript:",
        "alert(1)", "<!--", "-->", "<![CDATA[", "]]>", "<?", "<p>", "</p>", "<b>", "</b>", "<br/>", "<script>", "</script>",
        "<img src=x onerror=alert(1)>", "&lt;", "&#60;", "&#x3C;", "&amp;", "é", "🍿", "<p onclick=\"alert(1)\">",
    ]

    @Test("generated hostile HTML: only bare allowed tags survive, balanced, and a second pass changes nothing")
    func generated() async {
        let html = Gen<String?>.element(of: Self.fragments).map { $0 ?? "" }.array(of: 0...40).map { $0.joined() }
        await propertyCheck(count: 2000, input: html) { input in
            let clean = HTMLSanitizer.sanitize(input)
            #expect(Self.onlyAllowedMarkup(clean))
            #expect(Self.balanced(clean))
            #expect(HTMLSanitizer.sanitize(clean) == clean)
        }
    }

    @Test("arbitrary text is kept as text: every character comes back after unescaping")
    func textSurvives() async {
        let text = Gen<Character?>.element(of: Array("abc XYZ 123 é🍿.,!?-")).map { $0 ?? "a" }.string(of: 0...60)
        await propertyCheck(count: 500, input: text) { input in
            #expect(HTMLSanitizer.sanitize(input) == input)
        }
    }
}
