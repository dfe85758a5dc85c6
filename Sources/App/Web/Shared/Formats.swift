import Foundation
import Hummingbird
import Mustache

enum Formats {
    // DateFormatter is thread-safe for formatting; these are configured once and never mutated.
    nonisolated(unsafe) static let day = utcFormatter("yyyy-MM-dd")
    nonisolated(unsafe) static let longDay = utcFormatter("d MMMM yyyy")
    nonisolated(unsafe) static let moment = utcFormatter("d MMM yyyy, HH:mm 'UTC'")

    private static func utcFormatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter
    }

    /// The banner for anything that is not live: stale cache or the bundled catalogue.
    static func sourceNotice(_ source: CatalogSource, provider: String = "iTunes") -> String? {
        switch source {
        case .live: nil
        case .stale(let savedOn): "Offline — showing results saved on \(moment.string(from: savedOn))"
        case .offlineCatalogue: "Offline — \(provider) can’t be reached, showing PopcornSwirl’s built-in catalogue"
        }
    }

    static func runtime(_ minutes: Int?) -> String? {
        guard let minutes, minutes > 0 else { return nil }
        return minutes >= 60 ? "\(minutes / 60) h \(minutes % 60) min" : "\(minutes) min"
    }

    static func price(_ price: Double?, currency: String?) -> String? {
        guard let price else { return nil }
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        formatter.locale = Locale(identifier: "en_US")
        formatter.currencyCode = currency ?? "USD"
        return formatter.string(from: NSNumber(value: price))
    }
}
