import Foundation

/// An iCalendar document (RFC 5545) of events, written exactly: CRLF line ends, content lines
/// folded at 75 octets without splitting a UTF-8 sequence (§3.1), TEXT values with backslashes,
/// semicolons, commas and newlines escaped (§3.3.11), UTC times as `YYYYMMDDTHHMMSSZ` and all-day
/// events as `VALUE=DATE`.
struct ICalendar: Sendable {
    struct Event: Sendable, Hashable {
        enum Time: Sendable, Hashable {
            /// From `start` to `end`, both instants (written in UTC).
            case span(start: Date, end: Date)
            /// A whole day (`yyyy-MM-dd`), when only the date is known.
            case day(String)
        }

        /// Never changes for the same thing (an episode's id), whatever else does.
        var uid: String
        var time: Time
        var summary: String
        var description: String?
        var url: String?
        var categories: [String] = []
        /// Only a date is known: the event may still move.
        var tentative = false
    }

    var productID = "-//PopcornSwirl//Calendar//EN"
    var name: String
    /// How often a client should ask again (`REFRESH-INTERVAL` and `X-PUBLISHED-TTL`), in hours.
    var refreshHours = 6
    var events: [Event]

    /// The document, `stamp` being when it was made (every event's `DTSTAMP`).
    func text(stamp: Date) -> String {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:" + productID, "CALSCALE:GREGORIAN", "METHOD:PUBLISH",
            "X-WR-CALNAME:" + Self.escape(name),
            "REFRESH-INTERVAL;VALUE=DURATION:PT\(refreshHours)H", "X-PUBLISHED-TTL:PT\(refreshHours)H",
        ]
        let dtstamp = Self.utc(stamp)
        for event in events {
            lines.append("BEGIN:VEVENT")
            lines.append("UID:" + Self.escape(event.uid))
            lines.append("DTSTAMP:" + dtstamp)
            switch event.time {
            case .span(let start, let end):
                lines.append("DTSTART:" + Self.utc(start))
                lines.append("DTEND:" + Self.utc(max(end, start)))
            case .day(let day):
                let compact = day.replacingOccurrences(of: "-", with: "")
                lines.append("DTSTART;VALUE=DATE:" + compact)
                if let next = Self.nextDay(day) { lines.append("DTEND;VALUE=DATE:" + next) }
            }
            lines.append("SUMMARY:" + Self.escape(event.summary))
            if let description = event.description, !description.isEmpty { lines.append("DESCRIPTION:" + Self.escape(description)) }
            if let url = event.url { lines.append("URL:" + url) }
            if !event.categories.isEmpty { lines.append("CATEGORIES:" + event.categories.map(Self.escape).joined(separator: ",")) }
            lines.append("STATUS:" + (event.tentative ? "TENTATIVE" : "CONFIRMED"))
            lines.append("TRANSP:TRANSPARENT")
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        var out = ""
        out.reserveCapacity(lines.reduce(0) { $0 + $1.utf8.count + 4 })
        for line in lines {
            Self.fold(line, into: &out)
        }
        return out
    }

    /// TEXT escaping: `\` `;` `,` and newlines (CR dropped, LF as `\n`).
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": out += "\\n"
            case "\r": break
            default:
                // Other control characters are not allowed in a content line.
                if scalar.value < 0x20 || scalar.value == 0x7F { out += " " } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    /// Appends `line` with CRLF, folded so that no line passes 75 octets: a continuation starts
    /// with one space, and a break never falls inside a UTF-8 sequence (whole scalars only).
    static func fold(_ line: String, into out: inout String) {
        var octets = 0
        for scalar in line.unicodeScalars {
            let size = UTF8.width(scalar)
            if octets + size > 75 {
                out += "\r\n "
                octets = 1
            }
            out.unicodeScalars.append(scalar)
            octets += size
        }
        out += "\r\n"
    }

    /// `20250301T020000Z`.
    static func utc(_ date: Date) -> String {
        let c = Calendar.utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ v: Int?) -> String { (v ?? 0) < 10 ? "0\(v ?? 0)" : "\(v ?? 0)" }
        let year = String(c.year ?? 1970)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + two(c.month) + two(c.day) + "T" + two(c.hour) + two(c.minute)
            + two(c.second) + "Z"
    }

    /// The day after `yyyy-MM-dd`, as `yyyyMMdd` (an all-day event's exclusive end).
    static func nextDay(_ day: String) -> String? {
        guard let start = UTCFormatters.startOfDay(day) else { return nil }
        return utc(start.addingTimeInterval(86_400)).prefix(8).description
    }
}
