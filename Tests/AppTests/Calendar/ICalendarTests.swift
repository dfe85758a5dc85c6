import Foundation
import Testing

@testable import App

@Suite("iCalendar (RFC 5545)")
struct ICalendarTests {
    /// Unfolds content lines (RFC 5545 §3.1): a CRLF followed by one space or tab is removed.
    static func unfold(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n").filter { !$0.isEmpty }
    }

    @Test("CRLF line ends; lines folded at 75 octets, never inside a UTF-8 sequence; unfolding gives the text back")
    func folding() throws {
        let summary = "Très long titre, avec; des virgules \\ et des accents: 日本語のタイトル – épisode “spécial” " + String(repeating: "é", count: 60)
        let calendar = ICalendar(
            name: "Mine", events: [.init(uid: "episode-1@popcornswirl", time: .day("2026-11-20"), summary: summary)])
        let text = calendar.text(stamp: Date(timeIntervalSince1970: 1_795_000_000))
        #expect(text.hasSuffix("END:VCALENDAR\r\n"))
        // No bare LF: every line ends with CRLF.
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        for line in text.components(separatedBy: "\r\n") {
            #expect(line.utf8.count <= 75, "\(line)")
            // Each physical line is valid UTF-8 on its own: the fold fell between characters.
            #expect(String(validatingUTF8: Array(line.utf8.map { CChar(bitPattern: $0) }) + [0]) != nil)
        }
        let lines = Self.unfold(text)
        let written = try #require(lines.first { $0.hasPrefix("SUMMARY:") })
        #expect(written == "SUMMARY:" + ICalendar.escape(summary))
        #expect(written.contains("virgules \\\\ et") && written.contains("titre\\, avec\\; des"))
        #expect(lines.contains("DTSTART;VALUE=DATE:20261120") && lines.contains("DTEND;VALUE=DATE:20261121"))
        #expect(lines.contains("DTSTAMP:20261118T110640Z"))
    }

    @Test("TEXT escaping: backslash, semicolon, comma and newlines; control characters never pass")
    func escaping() {
        #expect(ICalendar.escape("a\\b;c,d\ne\r\nf") == "a\\\\b\\;c\\,d\\ne\\nf")
        #expect(ICalendar.escape("bell\u{7}tab\tdel\u{7F}") == "bell tab del ")
    }

    @Test("a timed event in UTC, with its calendar's refresh interval, name and event fields")
    func timedEvent() {
        let start = Date(timeIntervalSince1970: 1_795_168_500)  // 2026-11-20T09:55:00Z
        let event = ICalendar.Event(
            uid: "episode-3391244@popcornswirl", time: .span(start: start, end: start.addingTimeInterval(25 * 60)),
            summary: "Pokémon – S29E44 – Go, Hatenna!", description: "Line one\nhttps://example.test/episodes/3391244",
            url: "https://example.test/episodes/3391244", categories: ["TV Tokyo"], tentative: false)
        let lines = Self.unfold(ICalendar(name: "TV; films", events: [event]).text(stamp: start))
        for expected in [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//PopcornSwirl//Calendar//EN", "X-WR-CALNAME:TV\\; films",
            "REFRESH-INTERVAL;VALUE=DURATION:PT6H", "X-PUBLISHED-TTL:PT6H", "UID:episode-3391244@popcornswirl", "DTSTART:20261120T095500Z",
            "DTEND:20261120T102000Z", "SUMMARY:Pokémon – S29E44 – Go\\, Hatenna!", "DESCRIPTION:Line one\\nhttps://example.test/episodes/3391244",
            "URL:https://example.test/episodes/3391244", "CATEGORIES:TV Tokyo", "STATUS:CONFIRMED", "TRANSP:TRANSPARENT", "END:VEVENT",
        ] {
            #expect(lines.contains(expected), "\(expected)")
        }
    }

    @Test("a TVMaze summary becomes plain text: tags gone, paragraphs as lines, entities decoded, scripts dropped")
    func plainText() {
        let html = "<p><b>Ash</b> &amp; Pikachu&#39;s &quot;day&quot;</p><p>Second<br>line <script>alert(1)</script>&#x263A;</p>"
        #expect(HTMLSanitizer.plainText(html) == "Ash & Pikachu's \"day\"\nSecond\nline ☺")
    }
}
