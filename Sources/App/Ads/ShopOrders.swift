import Foundation
import SQLKit

/// Orders the partner shops report back, each from a click-through (`ps_click`): a signed
/// server-to-server call, idempotent by the shop's own order id (`shop_orders`).
struct ShopOrders: Sendable {
    /// An order is credited to a click at most this long after it.
    static let attributionWindow: TimeInterval = 30 * 24 * 60 * 60
    static let maxTotalCents: Int64 = 100_000_000

    /// An order as the shop reports it, before any check.
    struct Report: Sendable {
        let orderID: String
        let clickID: String
        let totalCents: Int64
        let currency: String
    }

    struct Recorded: Sendable, Equatable {
        let orderID: String
        let clickID: UUID
        let offerID: Int
        let totalCents: Int64
        let currency: String
        let day: String
        let reportedAt: Date
    }

    enum Outcome: Sendable, Equatable {
        /// `new`: false when the same order was reported before (nothing changed).
        case recorded(Recorded, new: Bool)
        case refused(Refusal)
    }

    /// Why a report was refused; its `message` tells the shop what to fix.
    enum Refusal: Sendable, Equatable {
        case badSignature, staleTimestamp
        case invalid(String)
        case unknownClick, differentOrder

        var message: String {
            switch self {
            case .badSignature:
                "The signature does not match: sign \"<PopcornSwirl-Timestamp>.<body>\" with HMAC-SHA256 and the shop's current key (hex)."
            case .staleTimestamp:
                "PopcornSwirl-Timestamp must be the current time in seconds since 1970 (within 5 minutes of ours)."
            case .invalid(let reason): reason
            case .unknownClick:
                "clickId is not a click-through to this shop in the last 30 days: send the ps_click the visitor arrived with."
            case .differentOrder:
                "This orderId was already reported with another click, total or currency; an order is reported once."
            }
        }
    }

    let database: AppDatabase
    let clock: any AppClock
    let secrets: ShopSecrets
    let store: ReferringStore

    /// Checks the signature over the exact body, then the timestamp, the values and the click, and
    /// records the order once.
    func report(
        _ order: Report, shop: Int, timestamp: String, signature: String, body: [UInt8]
    ) async throws -> Outcome {
        let keys = try await secrets.verifying(shop)
        guard timestamp.utf8.count <= 12,
            ShopSignature.isValid(signature, for: ShopSignature.orderMessage(timestamp: timestamp, body: body), secrets: keys)
        else { return .refused(.badSignature) }
        let now = clock.now()
        guard let seconds = Int(timestamp), abs(now.timeIntervalSince1970 - Double(seconds)) <= ShopSignature.tolerance else {
            return .refused(.staleTimestamp)
        }
        if let problem = problem(order) { return .refused(.invalid(problem)) }
        guard let clickID = UUID(uuidString: order.clickID), let offerID = try await click(clickID, shop: shop, now: now) else {
            return .refused(.unknownClick)
        }
        let recorded = Recorded(
            orderID: order.orderID, clickID: clickID, offerID: offerID, totalCents: order.totalCents, currency: order.currency,
            day: UTCFormatters.day.string(from: now), reportedAt: now)
        let inserted = try await database.writeSQL { sql in
            try await sql.raw(
                """
                INSERT INTO shop_orders (id, advertiser_id, shop_order_id, click_id, offer_id, total_cents, currency, day, reported_at)
                VALUES (\(bind: UUID()), \(bind: shop), \(bind: recorded.orderID), \(bind: clickID), \(bind: offerID),
                \(bind: recorded.totalCents), \(bind: recorded.currency), \(bind: recorded.day), \(bind: now))
                ON CONFLICT (advertiser_id, shop_order_id) DO NOTHING RETURNING id
                """
            ).first() != nil
        }
        if inserted { return .recorded(recorded, new: true) }
        guard let earlier = try await existing(order.orderID, shop: shop),
            earlier.clickID == clickID, earlier.totalCents == order.totalCents, earlier.currency == order.currency
        else { return .refused(.differentOrder) }
        return .recorded(earlier, new: false)
    }

    private func problem(_ order: Report) -> String? {
        if !(1...64).contains(order.orderID.utf8.count)
            || !order.orderID.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F })
        {
            return "orderId must be 1-64 printable ASCII characters without spaces."
        }
        if !(0...Self.maxTotalCents).contains(order.totalCents) {
            return "totalCents must be the order's total in minor units, from 0 to \(Self.maxTotalCents)."
        }
        if order.currency != store.currency { return "currency must be \(store.currency), the currency this store reports in." }
        return nil
    }

    /// The click's offer when it is this shop's, followed (not a cross-site request) and recent enough.
    private func click(_ id: UUID, shop: Int, now: Date) async throws -> Int? {
        guard
            let row = try await database.sql.raw(
                "SELECT offer_id, advertiser_id, clicked_at, discarded FROM offer_clicks WHERE id = \(bind: id)"
            ).first(),
            try row.decode(column: "advertiser_id", as: Int.self) == shop,
            try row.decode(column: "discarded", as: String?.self) != DiscardedClick.crossSite.rawValue
        else { return nil }
        let at = try row.decode(column: "clicked_at", as: Date.self)
        guard at <= now.addingTimeInterval(60), now.timeIntervalSince(at) <= Self.attributionWindow else { return nil }
        return try row.decode(column: "offer_id", as: Int.self)
    }

    private func existing(_ orderID: String, shop: Int) async throws -> Recorded? {
        guard
            let row = try await database.sql.raw(
                """
                SELECT click_id, offer_id, total_cents, currency, day, reported_at FROM shop_orders
                WHERE advertiser_id = \(bind: shop) AND shop_order_id = \(bind: orderID)
                """
            ).first()
        else { return nil }
        return Recorded(
            orderID: orderID, clickID: try row.decode(column: "click_id", as: UUID.self), offerID: try row.decode(column: "offer_id", as: Int.self),
            totalCents: try row.decode(column: "total_cents", as: Int64.self), currency: try row.decode(column: "currency", as: String.self),
            day: try row.decode(column: "day", as: String.self), reportedAt: try row.decode(column: "reported_at", as: Date.self))
    }
}
