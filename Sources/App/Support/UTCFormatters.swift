import Foundation

/// Dates written in UTC with fixed patterns, for storage (`day`) and for pages.
enum UTCFormatters {
    // DateFormatter is thread-safe for formatting; these are configured once and never mutated.
    /// `yyyy-MM-dd`: days as the offers tables and the call counters store them.
    nonisolated(unsafe) static let day = make("yyyy-MM-dd")
    nonisolated(unsafe) static let longDay = make("d MMMM yyyy")
    nonisolated(unsafe) static let moment = make("d MMM yyyy, HH:mm 'UTC'")

    private static func make(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter
    }
}
