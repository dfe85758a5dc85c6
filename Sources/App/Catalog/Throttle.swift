import Foundation
import Synchronization

/// A sliding-window limit per host: at most `limit` calls in any `window`.
public final class HostThrottle: Sendable {
    let limit: Int
    let window: TimeInterval
    let clock: any AppClock
    private let calls = Mutex<[String: [Date]]>([:])

    public init(limit: Int, window: TimeInterval, clock: any AppClock) {
        self.limit = limit
        self.window = window
        self.clock = clock
    }

    /// Takes a slot for `host`, or returns false when the window is full.
    public func tryAcquire(_ host: String) -> Bool {
        let now = clock.now()
        return calls.withLock { table in
            var recent = (table[host] ?? []).filter { now.timeIntervalSince($0) < window }
            guard recent.count < limit else {
                table[host] = recent
                return false
            }
            recent.append(now)
            table[host] = recent
            return true
        }
    }
}

/// After a host could not be reached, refuse calls to it for `coolDown` so pages are served
/// from cache at once instead of waiting for another timeout.
public final class HostBreaker: Sendable {
    let coolDown: TimeInterval
    let clock: any AppClock
    private let downUntil = Mutex<[String: Date]>([:])

    public init(coolDown: TimeInterval = 30, clock: any AppClock) {
        self.coolDown = coolDown
        self.clock = clock
    }

    public func isOpen(_ host: String) -> Bool {
        let now = clock.now()
        return downUntil.withLock { table in
            guard let until = table[host] else { return false }
            if until <= now {
                table[host] = nil
                return false
            }
            return true
        }
    }

    public func recordUnreachable(_ host: String) {
        let until = clock.now().addingTimeInterval(coolDown)
        downUntil.withLock { $0[host] = until }
    }

    public func recordSuccess(_ host: String) {
        downUntil.withLock { $0[host] = nil }
    }
}
