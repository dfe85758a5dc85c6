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

    let maxBytes: Int
    private let table = Mutex<(entries: [String: Entry], bytes: Int)>(([:], 0))

    init(maxBytes: Int = 4 * 1024 * 1024) {
        self.maxBytes = maxBytes
    }

    /// The value decoded from `body` under `key`: kept, or decoded now and kept.
    func value(_ key: String, _ body: CachedBody, decode: (Data) throws -> Value) rethrows -> Value {
        if let hit = table.withLock({ $0.entries[key] }), hit.fetchedAt == body.fetchedAt, hit.bytes == body.body.count {
            return hit.value
        }
        let value = try decode(body.body)
        let entry = Entry(fetchedAt: body.fetchedAt, bytes: body.body.count, value: value)
        table.withLock { table in
            if table.bytes + entry.bytes > maxBytes {
                table.entries.removeAll(keepingCapacity: true)
                table.bytes = 0
            }
            table.bytes += entry.bytes - (table.entries[key]?.bytes ?? 0)
            table.entries[key] = entry
        }
        return value
    }
}
