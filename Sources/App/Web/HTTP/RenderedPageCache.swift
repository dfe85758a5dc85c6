import NIOCore
import Synchronization

/// Rendered HTML shared by every anonymous visitor (no per-visitor state on the page), kept cut at
/// its sponsored-card slots (`SponsoredSlots`). Keys include the catalogue answer's identity, so
/// new data never meets an old page.
final class RenderedPageCache: Sendable {
    /// A page's pieces and what its sponsored cards are chosen for.
    struct Entry: Sendable {
        let parts: PageParts
        let listing: ListingContext
    }

    let capacity: Int
    private let pages = Mutex<[String: Entry]>([:])

    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    func get(_ key: String) -> Entry? {
        pages.withLock { $0[key] }
    }

    /// Stores and returns the page; a full cache starts over rather than tracking recency.
    func put(_ key: String, _ html: String, listing: ListingContext) -> Entry {
        let entry = Entry(parts: PageParts(html, cached: true), listing: listing)
        pages.withLock { table in
            if table.count >= capacity { table.removeAll(keepingCapacity: true) }
            table[key] = entry
        }
        return entry
    }
}
