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
        views.withLock { table in
            guard let seen = table[visitor] else { return [] }
            var counts: [Int: Int] = [:]
            for view in seen where now.timeIntervalSince(view.at) < window { counts[view.offer, default: 0] += 1 }
            return Set(counts.filter { $0.value >= limit }.keys)
        }
    }

    /// One view of each offer (a page showing an offer twice counts it once).
    func record(visitor: String, offers: [Int], now: Date) {
        guard !offers.isEmpty else { return }
        views.withLock { table in
            if table[visitor] == nil, table.count >= maxVisitors { table = table.filter { $0.value.contains { now.timeIntervalSince($0.at) < window } } }
            if table.count >= maxVisitors { table.removeAll(keepingCapacity: true) }
            var seen = table[visitor, default: []].filter { now.timeIntervalSince($0.at) < window }
            for offer in Set(offers).sorted() { seen.append((offer, now)) }
            table[visitor] = seen
        }
    }
}
