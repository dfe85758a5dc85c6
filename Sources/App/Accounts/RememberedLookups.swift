import Foundation
import Synchronization

/// What one server remembers of credential lookups (sessions and API tokens, keyed by the token's
/// hash). An answer is trusted for `recheckInterval`, then the database is asked again, so a
/// sign-out, password change or revoked token elsewhere holds on every server within that time.
final class RememberedLookups<Value: Sendable>: Sendable {
    static var recheckInterval: TimeInterval { 30 }

    private let table = Mutex<[String: (value: Value, checkedAt: Date)]>([:])

    /// The remembered answer, while it is younger than `recheckInterval`.
    func get(_ key: String, now: Date) -> Value? {
        table.withLock { table in
            table[key].flatMap { now.timeIntervalSince($0.checkedAt) < Self.recheckInterval ? $0.value : nil }
        }
    }

    func remember(_ value: Value, for key: String, at now: Date) {
        table.withLock { $0[key] = (value, now) }
    }

    func forget(_ key: String) {
        table.withLock { _ = $0.removeValue(forKey: key) }
    }

    func forget(where shouldForget: (String, Value) -> Bool) {
        table.withLock { table in table = table.filter { !shouldForget($0.key, $0.value.value) } }
    }
}
