import Foundation

/// Dates written in UTC with fixed patterns, for storage (`day`) and for pages.
enum UTCFormatters {
    // DateFormatter is thread-safe for formatting; these are configured once and never mutated.
    /// `yyyy-MM-dd`: days as the offers tables and the call counters store them.
    nonisolated(unsafe) static let day = make("yyyy-MM-dd")
    nonisolated(unsafe) static let longDay = make("d MMMM yyyy")
    nonisolated(unsafe) static let moment = make("d MMM yyyy, HH:mm 'UTC'")

    /// `yyyy-MM-dd` of a moment in UTC, computed from the day number (Howard Hinnant's
    /// `civil_from_days`, the proleptic Gregorian calendar of ISO 8601): the same text as `day`
    /// from 1583 on, without ICU. Choosing a page's offers asks for today on every view, and the
    /// formatter was 2.3 % of the sorted My Lists page's CPU (perf, scripts/bench).
    static func dayString(_ date: Date) -> String {
        let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down)) + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        var text = ""
        text.reserveCapacity(10)
        for (value, width) in [(year, 4), (month, 2), (day, 2)] {
            if !text.isEmpty { text.append("-") }
            let digits = String(value)
            if digits.count < width { text.append(String(repeating: "0", count: width - digits.count)) }
            text.append(digits)
        }
        return text
    }

    private static func make(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter
    }
}
