import Foundation
import Synchronization

/// What one server remembers of credential lookups (sessions and API tokens, keyed by the token's
/// hash). An answer is trusted for `recheckInterval`, then the database is asked again, so a
/// sign-out, password change or revoked token elsewhere holds on every server within that time.
///
/// Bounded: at most `capacity` answers. Past it, answers older than `recheckInterval` (of no use
/// any more) go first, then the oldest, down to 90 % of `capacity`, so the sorting that finds the
/// oldest runs once per tenth of the capacity rather than on every lookup. A flood of distinct
/// tokens therefore costs lookups, never memory.
final class RememberedLookups<Value: Sendable>: Sendable {
    static var recheckInterval: TimeInterval { 30 }
    /// Far more sessions than one server sees active within 30 s; a few MB at most.
    static var defaultCapacity: Int { 10_000 }

    let capacity: Int
    private let table = Mutex<[String: (value: Value, checkedAt: Date)]>([:])

    init(capacity: Int = defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    /// The remembered answer, while it is younger than `recheckInterval`.
    func get(_ key: String, now: Date) -> Value? {
        table.withLock { table in
            table[key].flatMap { now.timeIntervalSince($0.checkedAt) < Self.recheckInterval ? $0.value : nil }
        }
    }

    func remember(_ value: Value, for key: String, at now: Date) {
        table.withLock { table in
            table[key] = (value, now)
            guard table.count > capacity else { return }
            table = table.filter { now.timeIntervalSince($0.value.checkedAt) < Self.recheckInterval }
            let keep = capacity - capacity / 10
            guard table.count > keep else { return }
            let oldest = table.sorted { $0.value.checkedAt < $1.value.checkedAt }.prefix(table.count - keep)
            for entry in oldest { table.removeValue(forKey: entry.key) }
        }
    }

    /// How many answers are remembered.
    var count: Int { table.withLock { $0.count } }

    func forget(_ key: String) {
        table.withLock { _ = $0.removeValue(forKey: key) }
    }

    func forget(where shouldForget: (String, Value) -> Bool) {
        table.withLock { table in table = table.filter { !shouldForget($0.key, $0.value.value) } }
    }
}
