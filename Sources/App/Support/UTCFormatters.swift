import Foundation

/// Dates written in UTC with fixed patterns, for storage (`day`) and for pages.
enum UTCFormatters {
    // DateFormatter is thread-safe for formatting; these are configured once and never mutated.
    /// `yyyy-MM-dd`: days as the offers tables and the call counters store them.
    nonisolated(unsafe) static let day = make("yyyy-MM-dd")
    nonisolated(unsafe) static let longDay = make("d MMMM yyyy")
    /// A moment in the pages' one date style ("29 November 2026, 14:47"), in UTC and saying so:
    /// `app.js` writes it again in the browser's time zone, in the same style.
    nonisolated(unsafe) static let moment = make("d MMMM yyyy, HH:mm 'UTC'")

    /// `yyyy-MM-dd` in UTC, written without ICU (FoundationEssentials' ISO 8601 style): the same
    /// text as `day` from 1583 on, about four times faster. Today's day is asked for on every view
    /// (choosing its offers), and `day` was 2.3 % of the sorted My Lists page's CPU (perf,
    /// scripts/bench); the diary's days, imports and exports write theirs with it too.
    static let dayStyle: Date.ISO8601FormatStyle = .iso8601.year().month().day()

    /// Noon UTC of a `yyyy-MM-dd` day of the calendar; nil for anything else, `2026-02-30` too (the
    /// ISO 8601 parser takes it for 2 March: the day must read back as written).
    static func noon(ofDay day: String) -> Date? {
        guard let date = try? Date(day + "T12:00:00Z", strategy: .iso8601), date.formatted(dayStyle) == day else { return nil }
        return date
    }

    /// Midnight UTC starting a `yyyy-MM-dd` day; nil for anything else.
    static func startOfDay(_ day: String) -> Date? { noon(ofDay: day)?.addingTimeInterval(-12 * 3600) }

    private static func make(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter
    }
}
