import Foundation

/// A report's days: UTC, both inclusive, at most a year.
public struct ReportRange: Sendable, Equatable {
    public static let maxDays = 366
    public static let defaultDays = 30
    public let from: String
    public let to: String

    /// The last `defaultDays` days up to `today` when both are absent; otherwise both must be valid days in order.
    static func parse(from rawFrom: String?, to rawTo: String?, today: String) -> Result<ReportRange, ValidationFailure> {
        let fromText = rawFrom?.trimmingCharacters(in: .whitespaces) ?? ""
        let toText = rawTo?.trimmingCharacters(in: .whitespaces) ?? ""
        let to = toText.isEmpty ? today : OfferRules.day(toText)
        let from = fromText.isEmpty ? to.flatMap { shift($0, by: -(defaultDays - 1)) } : OfferRules.day(fromText)
        guard let from, let to else {
            return .failure(ValidationFailure(problems: ["range": "Dates look like 2026-11-01."]))
        }
        guard from <= to else { return .failure(ValidationFailure(problems: ["range": "“From” must be on or before “to”."])) }
        guard let span = days(from, to), span.count <= maxDays else {
            return .failure(ValidationFailure(problems: ["range": "Choose at most \(maxDays) days."]))
        }
        return .success(ReportRange(from: from, to: to))
    }

    /// Every day in the range, in order.
    var days: [String] { Self.days(from, to) ?? [] }

    static func days(_ from: String, _ to: String) -> [String]? {
        guard var date = UTCFormatters.day.date(from: from), let end = UTCFormatters.day.date(from: to) else { return nil }
        var out: [String] = []
        while date <= end, out.count <= maxDays {
            out.append(UTCFormatters.day.string(from: date))
            date = date.addingTimeInterval(86_400)
        }
        return out
    }

    static func shift(_ day: String, by days: Int) -> String? {
        UTCFormatters.day.date(from: day).map { UTCFormatters.day.string(from: $0.addingTimeInterval(Double(days) * 86_400)) }
    }
}

/// Impressions, counted clicks, discarded clicks, click-through rate, and the orders shops reported
/// (revenue, conversion) per day, with totals, as a table, a CSV file and an SVG chart. The rate is
/// counted clicks per impression; conversion is orders per counted click.
public struct OfferReport: Sendable {
    /// Stored values only: templates read them through reflection.
    public struct Row: Sendable, Equatable {
        public let day: String
        public let impressions: Int
        /// Counted clicks: the first per visitor, offer and 30-minute window.
        public let clicks: Int
        /// Clicks recorded but not counted: `repeats` + `crossSite` + `capped`.
        public let discarded: Int
        public let repeats: Int
        public let crossSite: Int
        /// Clicks past the day's counted clicks from one client address (`OfferTracker.AddressCaps`).
        public let capped: Int
        /// Clicks per impression as a percentage text ("2.5 %"), "–" without impressions.
        public let rate: String
        public let orders: Int
        public let revenueCents: Int64
        /// The revenue in major units ("24.99").
        public let revenue: String
        /// Orders per counted click as a percentage text, "–" without clicks.
        public let conversion: String

        init(day: String, _ counts: OfferCounts) {
            self.day = day
            impressions = counts.impressions
            clicks = counts.clicks
            discarded = counts.discarded
            repeats = counts.repeats
            crossSite = counts.crossSite
            capped = counts.capped
            rate = OfferReport.rate(counts.clicks, counts.impressions)
            orders = counts.orders
            revenueCents = counts.revenueCents
            revenue = OfferReport.money(counts.revenueCents)
            conversion = OfferReport.rate(counts.orders, counts.clicks)
        }
    }

    public let range: ReportRange
    public let rows: [Row]
    public let totals: Row
    /// The store's currency, which every revenue is in.
    public let currency: String

    init(range: ReportRange, counts: [String: OfferCounts], currency: String) {
        self.range = range
        self.currency = currency
        rows = range.days.map { day in Row(day: day, counts[day] ?? OfferCounts()) }
        totals = Row(day: "Total", range.days.reduce(OfferCounts()) { $0 + (counts[$1] ?? OfferCounts()) })
    }

    /// `part` per `whole` as a percentage text ("2.5 %"), "–" when `whole` is 0.
    static func rate(_ part: Int, _ whole: Int) -> String {
        whole == 0 ? "–" : String(format: "%.1f %%", Double(part) * 100 / Double(whole))
    }

    /// Minor units as major units with two decimals ("1234" → "12.34").
    static func money(_ cents: Int64) -> String {
        let sign = cents < 0 ? "-" : ""
        let magnitude = cents.magnitude
        let fraction = magnitude % 100
        return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// `day,impressions,clicks,ctr_percent,discarded_repeat,discarded_cross_site,orders,revenue_<currency>,conversion_percent`:
    /// counted clicks, their CTR (empty without impressions), the clicks not counted by reason, then the
    /// orders shops reported, their revenue in major units and orders per counted click (empty without
    /// clicks). Columns are only ever added last, so older ones read as before. Values are numbers and
    /// ISO days only, so no cell can start a spreadsheet formula.
    public var csv: String {
        var lines = [
            "day,impressions,clicks,ctr_percent,discarded_repeat,discarded_cross_site,orders,revenue_\(currency.lowercased()),conversion_percent,"
                + "discarded_address_cap"
        ]
        func percent(_ part: Int, _ whole: Int) -> String { whole == 0 ? "" : String(format: "%.2f", Double(part) * 100 / Double(whole)) }
        for row in rows {
            lines.append(
                "\(row.day),\(row.impressions),\(row.clicks),\(percent(row.clicks, row.impressions)),\(row.repeats),\(row.crossSite),"
                    + "\(row.orders),\(row.revenue),\(percent(row.orders, row.clicks)),\(row.capped)")
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    static let impressionColor = "#7b61ff", clickColor = "#e8a33d", orderColor = "#1f9d55"

    /// Three bars per day (impressions, counted clicks, orders) on one scale, drawn by the server: no
    /// script, no external file. Each bar's title gives its numbers; the page's table is the full text equivalent.
    public func svgChart(title: String) -> String {
        BarChart(
            id: "chart-title", cssClass: "report-chart", title: title,
            series: [
                .init(cssClass: "bar-impressions", color: Self.impressionColor), .init(cssClass: "bar-clicks", color: Self.clickColor),
                .init(cssClass: "bar-orders", color: Self.orderColor),
            ],
            labels: rows.map { String($0.day.dropFirst(5)) }, values: rows.map { [$0.impressions, $0.clicks, $0.orders] },
            tooltips: rows.map { row in
                [
                    "\(row.day): \(row.impressions) impressions", "\(row.day): \(row.clicks) clicks counted, \(row.discarded) discarded",
                    "\(row.day): \(row.orders) orders, \(row.revenue) \(currency)",
                ]
            }
        ).svg
    }
}
