import NIOCore
import Synchronization

/// Rendered HTML shared by every anonymous visitor (no per-visitor state on the page), kept cut at
/// its sponsored-card slots (`SponsoredSlots`). Keys include the catalogue answer's identity, so
/// new data never meets an old page.
final class RenderedPageCache: Sendable {
    let capacity: Int
    private let pages = Mutex<[String: [ByteBuffer]]>([:])

    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    func get(_ key: String) -> [ByteBuffer]? {
        pages.withLock { $0[key] }
    }

    /// Stores and returns the page's pieces; a full cache starts over rather than tracking recency.
    func put(_ key: String, _ html: String) -> [ByteBuffer] {
        let pieces = SponsoredSlots.split(html)
        pages.withLock { table in
            if table.count >= capacity { table.removeAll(keepingCapacity: true) }
            table[key] = pieces
        }
        return pieces
    }
}
