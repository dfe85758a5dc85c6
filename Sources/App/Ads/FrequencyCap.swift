import Foundation
import Synchronization

/// The same offer at most `limit` times per visitor in a sliding `window`. Kept in memory: it is
/// consulted on every page, so it must cost nothing; a restart forgets at most an hour of views.
final class FrequencyCap: Sendable {
    let limit: Int
    let window: TimeInterval
    let maxVisitors: Int
    private let views = Mutex<[String: [(offer: Int, at: Date)]]>([:])

    init(limit: Int = 3, window: TimeInterval = 3600, maxVisitors: Int = 100_000) {
        self.limit = limit
        self.window = window
        self.maxVisitors = maxVisitors
    }

    /// The offers this visitor has already seen `limit` times within the window.
    func capped(visitor: String, now: Date) -> Set<Int> {
        views.withLock { Self.capped(in: $0[visitor] ?? [], now: now, window: window, limit: limit) }
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
            let capped = Self.capped(in: table[visitor] ?? [], now: now, window: window, limit: limit)
            let allowed = ranked.filter { !capped.contains($0) }
            record(in: &table, visitor: visitor, offers: pick(allowed), now: now)
            return allowed
        }
    }

    private static func capped(in seen: [(offer: Int, at: Date)], now: Date, window: TimeInterval, limit: Int) -> Set<Int> {
        // On every page with sponsored cards: counted in place, no filtered copy of the counts.
        guard seen.count >= limit else { return [] }
        var counts: [Int: Int] = Dictionary(minimumCapacity: seen.count)
        var capped: Set<Int> = []
        for view in seen where now.timeIntervalSince(view.at) < window {
            counts[view.offer, default: 0] += 1
            if counts[view.offer] == limit { capped.insert(view.offer) }
        }
        return capped
    }

    private func record(in table: inout [String: [(offer: Int, at: Date)]], visitor: String, offers: [Int], now: Date) {
        guard !offers.isEmpty else { return }
        if table[visitor] == nil, table.count >= maxVisitors { table = table.filter { $0.value.contains { now.timeIntervalSince($0.at) < window } } }
        if table.count >= maxVisitors { table.removeAll(keepingCapacity: true) }
        var seen = table[visitor, default: []].filter { now.timeIntervalSince($0.at) < window }
        for offer in Set(offers).sorted() { seen.append((offer, now)) }
        table[visitor] = seen
    }
}
