import CoreMetrics
import Synchronization

/// What one in-memory cache is, said where it is made (`Caches`): its name on `/metrics`, what it
/// keeps, its byte budget and what makes an entry stale.
struct CacheDeclaration: Sendable {
    /// The `cache` label of `popcornswirl_cache_{hits,misses,evictions}_total`.
    let name: String
    let keeps: String
    let budgetBytes: Int
    let staleWhen: String
}

/// A byte-bounded cache with a typed key, counting its hits, misses and evictions on `/metrics`.
///
/// Two generations make an approximate least-recently-used order without bookkeeping per read: a
/// value found in the older one moves to the newer; when the newer is full it becomes the older and
/// the older is evicted whole. Each generation holds half the budget.
final class DeclaredCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Generations {
        var current: [Key: (value: Value, bytes: Int)] = [:]
        var previous: [Key: (value: Value, bytes: Int)] = [:]
        var currentBytes = 0
        /// Moved by every `remove`: a value made from a read begun before it is not kept.
        var removals = 0

        /// Stores `value`; returns how many entries went.
        mutating func insert(_ key: Key, _ value: Value, bytes: Int, limit: Int) -> Int {
            var evicted = 0
            if currentBytes + bytes > limit {
                evicted = previous.count
                previous = current
                current = [:]
                currentBytes = 0
            }
            currentBytes += bytes - (current.updateValue((value, bytes), forKey: key)?.bytes ?? 0)
            return evicted
        }
    }

    let declaration: CacheDeclaration
    private let state = Mutex(Generations())
    private let counts = Mutex((hits: 0, misses: 0, evictions: 0))
    private let hitCounter: CoreMetrics.Counter?
    private let missCounter: CoreMetrics.Counter?
    private let evictionCounter: CoreMetrics.Counter?

    init(_ declaration: CacheDeclaration, metrics: AppMetrics?) {
        self.declaration = declaration
        let label = [("cache", declaration.name)]
        hitCounter = metrics?.counter("popcornswirl_cache_hits_total", label)
        missCounter = metrics?.counter("popcornswirl_cache_misses_total", label)
        evictionCounter = metrics?.counter("popcornswirl_cache_evictions_total", label)
    }

    /// The value kept under `key` when `isFresh` says it still holds, counted as a hit or a miss.
    func get(_ key: Key, isFresh: (Value) -> Bool = { _ in true }) -> Value? {
        let limit = declaration.budgetBytes / 2
        var evicted = 0
        let found: Value? = state.withLock { state in
            if let entry = state.current[key] { return isFresh(entry.value) ? entry.value : nil }
            guard let entry = state.previous.removeValue(forKey: key), isFresh(entry.value) else { return nil }
            evicted = state.insert(key, entry.value, bytes: entry.bytes, limit: limit)
            return entry.value
        }
        count(hit: found != nil, evicted: evicted)
        return found
    }

    func put(_ key: Key, _ value: Value, bytes: Int) {
        let limit = declaration.budgetBytes / 2
        guard bytes <= limit else { return }
        let evicted = state.withLock { $0.insert(key, value, bytes: bytes, limit: limit) }
        if evicted > 0 { count(evicted: evicted) }
    }

    /// The kept value, else `load`'s (nil: nothing to keep), kept at `bytes(value)` unless entries
    /// were removed while it was made (it may have been read before the change that removed them).
    func loaded(_ key: Key, bytes: (Value) -> Int, isFresh: (Value) -> Bool = { _ in true }, load: () async throws -> Value?) async rethrows
        -> Value?
    {
        if let kept = get(key, isFresh: isFresh) { return kept }
        let removals = state.withLock { $0.removals }
        guard let made = try await load() else { return nil }
        let size = bytes(made)
        guard size <= declaration.budgetBytes / 2 else { return made }
        let evicted = state.withLock { state in
            state.removals == removals ? state.insert(key, made, bytes: size, limit: declaration.budgetBytes / 2) : 0
        }
        if evicted > 0 { count(evicted: evicted) }
        return made
    }

    /// Drops the entries `drop` names (what a change on the feed made stale, `Caches`); not counted as evictions.
    func remove(where drop: (Key, Value) -> Bool = { _, _ in true }) {
        state.withLock { state in
            state.current = state.current.filter { !drop($0.key, $0.value.value) }
            state.previous = state.previous.filter { !drop($0.key, $0.value.value) }
            state.currentBytes = state.current.values.reduce(0) { $0 + $1.bytes }
            state.removals += 1
        }
    }

    /// The kept value, else `make`'s, kept at `bytes(value)`.
    func value(_ key: Key, bytes: (Value) -> Int, isFresh: (Value) -> Bool = { _ in true }, make: () throws -> Value) rethrows -> Value {
        if let kept = get(key, isFresh: isFresh) { return kept }
        let made = try make()
        put(key, made, bytes: bytes(made))
        return made
    }

    /// Every value kept, uncounted: for a search among them by something other than their key.
    var values: [Value] { state.withLock { $0.current.values.map(\.value) + $0.previous.values.map(\.value) } }

    /// Hits, misses and evictions so far (what `/metrics` shows, for tests and the benchmark).
    var statistics: (hits: Int, misses: Int, evictions: Int) { counts.withLock { $0 } }

    private func count(hit: Bool? = nil, evicted: Int = 0) {
        counts.withLock { counts in
            if hit == true { counts.hits += 1 }
            if hit == false { counts.misses += 1 }
            counts.evictions += evicted
        }
        if let hit { (hit ? hitCounter : missCounter)?.increment() }
        if evicted > 0 { evictionCounter?.increment(by: evicted) }
    }
}
