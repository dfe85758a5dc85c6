import Foundation

/// How pages write dates, runtimes, prices and where their data came from.
enum Formats {
    /// The banner for anything that is not live: stale cache or the bundled catalogue.
    static func sourceNotice(_ source: CatalogSource, provider: String = "iTunes") -> String? {
        switch source {
        case .live: nil
        case .stale(let savedOn): "Offline — showing results saved on \(UTCFormatters.moment.string(from: savedOn))"
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
