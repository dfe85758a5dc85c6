import Foundation
import Mustache

/// How pages write dates, runtimes, prices and where their data came from.
enum Formats {
    /// The banner for anything that is not live: stale cache or the bundled catalogue.
    static func sourceNotice(_ source: CatalogSource, provider: String = "iTunes") -> SourceNotice? {
        switch source {
        case .live: nil
        case .stale(let savedOn): SourceNotice(text: "Offline — showing results saved on", savedOn: Moment(savedOn))
        case .offlineCatalogue: SourceNotice(text: "Offline — \(provider) can’t be reached, showing PopcornSwirl’s built-in catalogue", savedOn: nil)
        case .kept: SourceNotice(text: "Not on iTunes — kept from an import by its IMDb id, with what OMDb knows of it", savedOn: nil)
        case .local: SourceNotice(text: "From PopcornSwirl’s own catalogue — \(provider) will be asked again in a moment", savedOn: nil)
        case .saved(let on): SourceNotice(text: "Your saved copy — a fresh one is on its way. Saved on", savedOn: Moment(on))
        }
    }

    /// "12,000": counts on the pages, written the same in every locale.
    static func number(_ value: Int) -> String { value.formatted(.number.locale(Locale(identifier: "en_US"))) }

    /// A `yyyy-MM-dd` day (TVMaze's premiere, a diary day) in the pages' one date style: "20 January 2008".
    static func day(_ isoDay: String?) -> String? { isoDay.map(WatchView.longDay) }

    /// "Monday 30 November" for `yyyy-MM-dd` (nil when it is no day).
    static func weekday(_ isoDay: String) -> String? {
        guard let noon = UTCFormatters.noon(ofDay: isoDay) else { return nil }
        let name = noon.formatted(Date.FormatStyle(timeZone: TimeZone(identifier: "UTC")!).locale(Locale(identifier: "en_GB")).weekday(.wide))
        let long = WatchView.longDay(isoDay)
        return name + " " + long.split(separator: " ").prefix(2).joined(separator: " ")
    }

    /// OMDb's "20 Jan 2008" in the pages' style; its text as it is when it is not such a day ("N/A" is none).
    static func omdbDay(_ text: String?) -> String? {
        guard let text, text != "N/A" else { return nil }
        let parts = text.split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard parts.count == 3, let day = Int(parts[0]), let month = months.firstIndex(of: String(parts[1])), let year = Int(parts[2]) else {
            return text
        }
        let iso = String(format: "%04d-%02d-%02d", year, month + 1, day)
        return UTCFormatters.noon(ofDay: iso) == nil ? text : WatchView.longDay(iso)
    }

    /// "1 film", "2 films", "1,200 show watches": a count with its noun in the right number.
    static func count(_ value: Int, _ one: String, _ many: String) -> String { "\(number(value)) \(value == 1 ? one : many)" }

    /// "Nov" (`.abbreviated`) or "November 2026" (`.wide`) for the month `2026-11`, in UTC.
    static func month(_ key: String, _ style: Date.FormatStyle.Symbol.Month) -> String {
        guard let date = try? Date(key + "-15T12:00:00Z", strategy: .iso8601) else { return key }
        let format = Date.FormatStyle(timeZone: TimeZone(identifier: "UTC")!).locale(Locale(identifier: "en_US")).month(style)
        return style == .abbreviated ? date.formatted(format) : date.formatted(format.year())
    }

    static func runtime(_ minutes: Int?) -> String? {
        guard let minutes, minutes > 0 else { return nil }
        return minutes >= 60 ? "\(minutes / 60) h \(minutes % 60) min" : "\(minutes) min"
    }

    static let priceLocale = Locale(identifier: "en_US")

    static func price(_ price: Double?, currency: String?) -> String? {
        guard let price else { return nil }
        // A format style, whose ICU formatter Foundation keeps: a `NumberFormatter` made per call
        // was 5 % of a film page's CPU.
        return price.formatted(.currency(code: currency ?? "USD").locale(Self.priceLocale))
    }
}

/// The banner of a page that is not live; a stale one says when its data was saved.
struct SourceNotice {
    let text: String
    let savedOn: Moment?
}

/// A moment shown to a person (`shared/moment`): written in UTC on the server ("24 Nov 2026,
/// 08:00 UTC"), and app.js rewrites every `<time data-local>` in the browser's time zone and
/// language. Pages stay the same for everyone, so they can be cached.
struct Moment {
    let iso: String
    let text: String

    init(_ date: Date) {
        iso = date.ISO8601Format()
        text = UTCFormatters.moment.string(from: date)
    }
}

/// Every page's layout opens the notice (and its moment) when there is one: answered by a switch.
extension SourceNotice: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "text": text
        case "savedOn": savedOn
        default: nil
        }
    }
}

extension Moment: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "iso": iso
        case "text": text
        default: nil
        }
    }
}
