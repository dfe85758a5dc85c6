import Foundation
import SQLKit

/// What a report shows for a day or an offer: impressions, counted clicks, the clicks recorded but
/// not counted (by reason), and the orders shops reported with their revenue. Click-through rates
/// and conversion use counted clicks only.
public struct OfferCounts: Sendable, Equatable {
    public var impressions = 0
    public var clicks = 0
    public var repeats = 0
    public var crossSite = 0
    /// Clicks past the day's counted clicks from one client address.
    public var capped = 0
    public var orders = 0
    /// The reported orders' totals, in the store currency's minor units.
    public var revenueCents: Int64 = 0

    public init(
        impressions: Int = 0, clicks: Int = 0, repeats: Int = 0, crossSite: Int = 0, capped: Int = 0, orders: Int = 0, revenueCents: Int64 = 0
    ) {
        self.impressions = impressions
        self.clicks = clicks
        self.repeats = repeats
        self.crossSite = crossSite
        self.capped = capped
        self.orders = orders
        self.revenueCents = revenueCents
    }

    public var discarded: Int { repeats + crossSite + capped }

    static func + (lhs: Self, rhs: Self) -> Self {
        Self(
            impressions: lhs.impressions + rhs.impressions, clicks: lhs.clicks + rhs.clicks, repeats: lhs.repeats + rhs.repeats,
            crossSite: lhs.crossSite + rhs.crossSite, capped: lhs.capped + rhs.capped, orders: lhs.orders + rhs.orders,
            revenueCents: lhs.revenueCents + rhs.revenueCents)
    }
}

extension OfferTracker {
    enum Scope {
        case offer(Int)
        case advertiser(Int)

        var column: String {
            switch self {
            case .offer: "offer_id"
            case .advertiser: "advertiser_id"
            }
        }

        var id: Int {
            switch self {
            case .offer(let id), .advertiser(let id): id
            }
        }
    }

    /// Impressions and clicks per day in `from...to` (UTC days), for one offer or one advertiser.
    func daily(_ scope: Scope, from: String, to: String) async throws -> [String: OfferCounts] {
        try await counts(by: "day", as: String.self, scope: scope, from: from, to: to)
    }

    /// Totals per offer in `from...to`, for the console's list.
    func totalsPerOffer(from: String, to: String) async throws -> [Int: OfferCounts] {
        try await counts(by: "offer_id", as: Int.self, scope: nil, from: from, to: to)
    }

    /// Impression, click and order counts in `from...to` grouped by `column`, after writing what is queued.
    /// Clicks are grouped by `discarded` too: NULL is counted (every click recorded before clicks were
    /// deduplicated is too), "repeat" and "cross-site" are not; `offer_discarded_clicks` adds the
    /// discarded clicks counted since they stopped being rows.
    private func counts<Key: Hashable & Decodable>(
        by column: String, as _: Key.Type, scope: Scope?, from: String, to: String
    ) async throws -> [Key: OfferCounts] {
        await flush()
        var counts: [Key: OfferCounts] = [:]
        // Impressions; clicks grouped by `discarded` (rows discarded before the counts table came stay
        // there); and the discarded clicks' counts.
        let tables: [(table: String, reason: SQLQueryString, amount: SQLQueryString, byReason: Bool)] = [
            ("offer_impressions", "NULL", "COUNT(*)", false), ("offer_clicks", "discarded", "COUNT(*)", true),
            ("offer_discarded_clicks", "reason", "SUM(clicks)", true),
        ]
        for source in tables {
            var query: SQLQueryString = """
                SELECT \(ident: column) AS k, \(source.reason) AS reason, CAST(\(source.amount) AS BIGINT) AS n FROM \(ident: source.table)
                WHERE day >= \(bind: from) AND day <= \(bind: to)
                """
            if let scope { query += " AND \(ident: scope.column) = \(bind: scope.id)" }
            query += " GROUP BY \(ident: column)"
            if source.byReason { query += ", " + source.reason }
            for row in try await database.sql.raw(query).all() {
                let key = try row.decode(column: "k", as: Key.self)
                let count = try row.decode(column: "n", as: Int.self)
                switch (source.byReason, try row.decode(column: "reason", as: String?.self).map(DiscardedClick.init(rawValue:))) {
                case (false, _): counts[key, default: .init()].impressions = count
                case (true, nil): counts[key, default: .init()].clicks += count
                case (true, .some(.repeated)): counts[key, default: .init()].repeats += count
                case (true, .some(.crossSite)): counts[key, default: .init()].crossSite += count
                case (true, .some(.overAddressCap)): counts[key, default: .init()].capped += count
                case (true, .some(nil)): break  // not a reason any server writes
                }
            }
        }
        var orders: SQLQueryString = """
            SELECT \(ident: column) AS k, COUNT(*) AS n, CAST(SUM(total_cents) AS BIGINT) AS revenue FROM shop_orders
            WHERE day >= \(bind: from) AND day <= \(bind: to)
            """
        if let scope { orders += " AND \(ident: scope.column) = \(bind: scope.id)" }
        orders += " GROUP BY \(ident: column)"
        for row in try await database.sql.raw(orders).all() {
            let key = try row.decode(column: "k", as: Key.self)
            counts[key, default: .init()].orders = try row.decode(column: "n", as: Int.self)
            counts[key, default: .init()].revenueCents = try row.decode(column: "revenue", as: Int64?.self) ?? 0
        }
        return counts
    }
}
