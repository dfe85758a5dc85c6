import Foundation
import Synchronization

/// Upstream answers decoded once: the value read from a cached body is kept while the cache engine
/// hands out the same answer (same key, same fetch time and length), so a page does not decode
/// TVMaze's JSON on every view (59 % of TV Shows' CPU and 25 % of a show page's, perf).
///
/// Bounded by the bytes of the answers it has decoded (`maxBytes`): past it the table starts over.
final class DecodedAnswers<Value: Sendable>: Sendable {
    private struct Entry {
        let fetchedAt: Date
        let bytes: Int
        let value: Value
    }

    private let table: Mutex<ByteBoundedTable<Entry>>

    init(maxBytes: Int = 4 * 1024 * 1024) {
        table = Mutex(ByteBoundedTable(maxBytes: maxBytes))
    }

    /// The value decoded from `body` under `key`: kept, or decoded now and kept.
    func value(_ key: String, _ body: CachedBody, decode: (Data) throws -> Value) rethrows -> Value {
        if let hit = table.withLock({ $0[key] }), hit.fetchedAt == body.fetchedAt, hit.bytes == body.body.count {
            return hit.value
        }
        let value = try decode(body.body)
        let entry = Entry(fetchedAt: body.fetchedAt, bytes: body.body.count, value: value)
        table.withLock { $0.put(key, entry, bytes: entry.bytes) }
        return value
    }
}
