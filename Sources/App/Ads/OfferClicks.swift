import Foundation
import SQLKit

/// Why a click was recorded but not counted (`offer_clicks.discarded`; NULL there is a counted click).
public enum DiscardedClick: String, Sendable, CaseIterable {
    /// The same visitor already clicked this offer in the same 30-minute window.
    case repeated = "repeat"
    /// Another site's page made the browser request the link without the visitor following it
    /// (an image, a script, a fetch, a frame).
    case crossSite = "cross-site"
    /// Past the clicks counted from one client address on this offer today (`OfferTracker.AddressCaps`).
    case overAddressCap = "address-cap"
}

/// Who sees an offer or follows it: the visitor's id ("" for a client that is not counted) and the
/// client's address, keyed (the caps per address count it; "" when the connection has none, as
/// over a Unix socket or in-process, which no cap per address applies to).
public struct OfferViewer: Sendable, Hashable {
    public var id: String
    public var address: String

    public init(id: String, address: String) {
        self.id = id
        self.address = address
    }
}

extension OfferTracker {
    /// A click is counted once per visitor, offer and window: fixed 30-minute UTC windows.
    static let clickWindow: TimeInterval = 30 * 60
    /// Counted clicks and impressions per client address, offer and UTC day: fresh visitor ids from
    /// one address (a script clearing its cookies) cannot inflate an offer's counts. 0: no cap.
    public struct AddressCaps: Sendable, Equatable {
        public var clicks = 3
        public var impressions = 10

        /// The bound a count is compared with: none for an unknown address or a cap of 0.
        static func bound(_ cap: Int, address: String) -> Int { address.isEmpty || cap == 0 ? Int.max : cap }
    }

    struct Click: Sendable {
        var id = UUID()
        let offer: Int
        let advertiser: Int
        let visitor: String
        /// The client address, keyed (`OfferViewer.address`).
        let address: String
        let title: String?
        let day: String
        let at: Date
        /// Nil: counted if it is the first of its window. Otherwise recorded as discarded for this reason.
        let discarded: DiscardedClick?

        /// The start of the click's window in seconds since 1970 (UTC).
        var window: Int {
            let seconds = Int(at.timeIntervalSince1970.rounded(.down))
            let size = Int(OfferTracker.clickWindow)
            return seconds - ((seconds % size) + size) % size
        }

        /// Unique among counted clicks: offer and window are numbers, so the visitor last cannot make two keys alike.
        var dedupeKey: String { "\(offer):\(window):\(visitor)" }
    }

    /// Writes one click and says whether it counted (nil) or why not. A candidate is inserted with its
    /// `dedupe_key` while its address has counted fewer than its cap of clicks on the offer
    /// today; the unique index lets only the first of its window in (whatever the number of
    /// concurrent requests, servers or transactions). A click not counted adds one to its reason's
    /// count in `offer_discarded_clicks`: a row per discarded click let a script grow the table at will.
    @discardableResult
    static func insert(_ click: Click, cap: Int, on sql: any SQLDatabase) async throws -> DiscardedClick? {
        if click.discarded == nil {
            let counted = try await sql.raw(
                """
                INSERT INTO offer_clicks (id, offer_id, advertiser_id, visitor, title, day, clicked_at, dedupe_key, address)
                SELECT \(bind: click.id), \(bind: click.offer), \(bind: click.advertiser), \(bind: click.visitor), \(bind: click.title),
                \(bind: click.day), \(bind: click.at), \(bind: click.dedupeKey), \(bind: click.address)
                WHERE (SELECT COUNT(*) FROM offer_clicks WHERE offer_id = \(bind: click.offer) AND day = \(bind: click.day)
                AND address = \(bind: click.address) AND discarded IS NULL) < \(bind: AddressCaps.bound(cap, address: click.address))
                ON CONFLICT DO NOTHING RETURNING id
                """
            ).first()
            if counted != nil { return nil }
        }
        let reason: DiscardedClick
        if let discarded = click.discarded {
            reason = discarded
        } else {
            let repeated = try await sql.raw("SELECT 1 AS found FROM offer_clicks WHERE dedupe_key = \(bind: click.dedupeKey)").first()
            reason = repeated == nil ? .overAddressCap : .repeated
        }
        try await sql.raw(
            """
            INSERT INTO offer_discarded_clicks (offer_id, advertiser_id, day, reason, clicks)
            VALUES (\(bind: click.offer), \(bind: click.advertiser), \(bind: click.day), \(bind: reason.rawValue), 1)
            ON CONFLICT (offer_id, day, reason) DO UPDATE SET clicks = offer_discarded_clicks.clicks + 1
            """
        ).run()
        return reason
    }
}
