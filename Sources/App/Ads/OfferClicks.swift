import Foundation
import SQLKit

/// Why a click was recorded but not counted (`offer_clicks.discarded`; NULL there is a counted click).
public enum DiscardedClick: String, Sendable, CaseIterable {
    /// The same visitor already clicked this offer in the same 30-minute window.
    case repeated = "repeat"
    /// Another site's page made the browser request the link without the visitor following it
    /// (an image, a script, a fetch, a frame).
    case crossSite = "cross-site"
}

extension OfferTracker {
    /// A click is counted once per visitor, offer and window: fixed 30-minute UTC windows.
    static let clickWindow: TimeInterval = 30 * 60

    struct Click: Sendable {
        var id = UUID()
        let offer: Int
        let advertiser: Int
        let visitor: String
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
    /// `dedupe_key`; the unique index lets only the first of its window in (whatever the number of
    /// concurrent requests, servers or transactions), and the others are inserted again as `repeat`s
    /// without a key. Both inserts ignore any conflict, so writing a click a second time (a queued
    /// click whose first insert did commit) leaves one row.
    @discardableResult
    static func insert(_ click: Click, on sql: any SQLDatabase) async throws -> DiscardedClick? {
        if click.discarded == nil {
            let counted = try await sql.raw(
                """
                INSERT INTO offer_clicks (id, offer_id, advertiser_id, visitor, title, day, clicked_at, dedupe_key)
                VALUES (\(bind: click.id), \(bind: click.offer), \(bind: click.advertiser), \(bind: click.visitor), \(bind: click.title),
                \(bind: click.day), \(bind: click.at), \(bind: click.dedupeKey))
                ON CONFLICT DO NOTHING RETURNING id
                """
            ).first()
            if counted != nil { return nil }
        }
        let reason = click.discarded ?? .repeated
        try await sql.raw(
            """
            INSERT INTO offer_clicks (id, offer_id, advertiser_id, visitor, title, day, clicked_at, discarded)
            VALUES (\(bind: click.id), \(bind: click.offer), \(bind: click.advertiser), \(bind: click.visitor), \(bind: click.title),
            \(bind: click.day), \(bind: click.at), \(bind: reason.rawValue))
            ON CONFLICT DO NOTHING
            """
        ).run()
        return reason
    }
}
