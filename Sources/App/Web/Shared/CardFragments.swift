import Mustache
import Synchronization

/// Cards rendered once for as long as what they show stays the same. The key is the card's view
/// itself (every field its template reads), so a stored card is never a stale one and nothing needs
/// invalidating, on this instance or another: a page drawn again after one title was rated renders
/// only that title's card. A cold My Lists page of 60 cards spent most of its time in
/// the template engine's lookups (perf: 6.8 of 12 ms), card by card.
///
/// Bounded by bytes in two generations (an approximate least-recently-used order): a card found in
/// the older one moves to the newer; when the newer is full it becomes the older and the older goes.
final class CardFragments: Sendable {
    enum Key: Hashable {
        case movie(MovieCardView)
        case show(ShowCardView)
    }

    private struct State {
        var current: [Key: String] = [:]
        var previous: [Key: String] = [:]
        var currentBytes = 0
        var previousBytes = 0

        mutating func insert(_ key: Key, _ html: String, generationLimit: Int) {
            let cost = CardFragments.cost(html)
            if currentBytes + cost > generationLimit {
                previous = current
                previousBytes = currentBytes
                current = [:]
                currentBytes = 0
            }
            if current.updateValue(html, forKey: key) == nil { currentBytes += cost }
        }
    }

    /// Both generations together stay under this.
    let maxBytes: Int
    private let state = Mutex(State())

    init(maxBytes: Int = 4 << 20) {
        self.maxBytes = maxBytes
    }

    /// A card's bytes and a share for its key (the view's strings: about a third of the card).
    static func cost(_ html: String) -> Int { html.utf8.count * 3 / 2 }

    var bytes: Int { state.withLock { $0.currentBytes + $0.previousBytes } }

    func html(_ key: Key, render: () -> String) -> String {
        let limit = maxBytes / 2
        let found: String? = state.withLock { state in
            if let html = state.current[key] { return html }
            guard let html = state.previous.removeValue(forKey: key) else { return nil }
            state.previousBytes -= Self.cost(html)
            state.insert(key, html, generationLimit: limit)
            return html
        }
        if let found { return found }
        let html = render()
        state.withLock { $0.insert(key, html, generationLimit: limit) }
        return html
    }
}

/// A card already rendered: the page's template writes it as it is.
struct RenderedCard: MustacheParent {
    let html: String

    func child(named name: String) -> Any? { name == "html" ? html : nil }
}
