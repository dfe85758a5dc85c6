import Foundation
import Synchronization

/// The same offer at most `limit` times per visitor in a sliding `window`. Kept in memory: it is
/// consulted on every page, so it must cost nothing; a restart forgets at most an hour of views.
final class FrequencyCap: Sendable {
    let limit: Int
    let window: TimeInterval
    let maxVisitors: Int
    private let views = Mutex<[String: Seen]>([:])

    /// A visitor's views in the window, and the offers they cap, worked out once and kept while no
    /// view is added or leaves the window: every page with offers asks (a listing's sponsored
    /// cards, a title's banner), and counting up to `limit` × offers views each time was 2.4 % of
    /// the sorted My Lists page's CPU (perf, scripts/bench).
    private struct Seen {
        var views: [(offer: Int, at: Date)] = []
        var capped: Set<Int> = []
        /// `capped` holds from this moment until `until`, when the oldest counted view leaves the window.
        var since = Date.distantFuture
        var until = Date.distantPast

        mutating func capped(now: Date, window: TimeInterval, limit: Int) -> Set<Int> {
            if since <= now, now < until { return capped }
            (capped, until) = FrequencyCap.capped(in: views, now: now, window: window, limit: limit)
            since = now
            return capped
        }
    }

    init(limit: Int = 3, window: TimeInterval = 3600, maxVisitors: Int = 100_000) {
        self.limit = limit
        self.window = window
        self.maxVisitors = maxVisitors
    }

    /// The offers this visitor has already seen `limit` times within the window.
    func capped(visitor: String, now: Date) -> Set<Int> {
        views.withLock { $0[visitor]?.capped(now: now, window: window, limit: limit) ?? [] }
    }

    /// One view of each offer (a page showing an offer twice counts it once).
    func record(visitor: String, offers: [Int], now: Date) {
        views.withLock { record(in: &$0, visitor: visitor, offers: offers, now: now) }
    }

    /// In one step, so two pages opened at once by one visitor cannot both show an offer's last
    /// allowed view: the ids of `ranked` this visitor may still see (in order), recording
    /// `pick(thoseIDs)` as seen.
    func claim(visitor: String, now: Date, ranked: [Int], pick: ([Int]) -> [Int]) -> [Int] {
        views.withLock { table in
            let capped = table[visitor]?.capped(now: now, window: window, limit: limit) ?? []
            let allowed = capped.isEmpty ? ranked : ranked.filter { !capped.contains($0) }
            record(in: &table, visitor: visitor, offers: pick(allowed), now: now)
            return allowed
        }
    }

    /// The offers seen `limit` times in the window at `now`, and when that may next change (the
    /// oldest counted view's end; never, while fewer than `limit` views are counted).
    private static func capped(in seen: [(offer: Int, at: Date)], now: Date, window: TimeInterval, limit: Int) -> (Set<Int>, Date) {
        guard seen.count >= limit else { return ([], .distantFuture) }
        var counts: [Int: Int] = Dictionary(minimumCapacity: seen.count)
        var capped: Set<Int> = []
        var until = Date.distantFuture
        for view in seen where now.timeIntervalSince(view.at) < window {
            until = min(until, view.at.addingTimeInterval(window))
            counts[view.offer, default: 0] += 1
            if counts[view.offer] == limit { capped.insert(view.offer) }
        }
        return (capped, until)
    }

    private func record(in table: inout [String: Seen], visitor: String, offers: [Int], now: Date) {
        guard !offers.isEmpty else { return }
        if table[visitor] == nil, table.count >= maxVisitors {
            table = table.filter { $0.value.views.contains { now.timeIntervalSince($0.at) < window } }
        }
        if table.count >= maxVisitors { table.removeAll(keepingCapacity: true) }
        var seen = Seen(views: table[visitor]?.views.filter { now.timeIntervalSince($0.at) < window } ?? [])
        for offer in Set(offers).sorted() { seen.views.append((offer, now)) }
        table[visitor] = seen
    }
}
