import Foundation
import Testing

@testable import App

@Suite("Rendered cards")
struct CardFragmentsTests {
    static func card(_ id: Int, rating: Int? = nil, note: String? = nil) -> MovieCardView {
        let item = LibraryItem(
            kind: .movie, itemID: String(id), title: "Film \(id)", genre: "Drama", favorite: false, watched: true, note: note, rating: rating,
            updatedAt: Date())
        return MovieCardView(item: item, list: .all, returnTo: "/library?list=all")
    }

    @Test("a card is rendered once while it shows the same; a changed rating or note renders it anew, with the change")
    func reusedUntilChanged() async throws {
        let renderer = try await PageRenderer.load()
        let first = renderer.card(Self.card(1, rating: 6))
        #expect(first.html.contains(#"<option value="6" selected>"#) && first.html.contains("Film 1"))
        var renders = 0
        let again = renderer.cards.html(.movie(Self.card(1, rating: 6))) {
            renders += 1
            return "rendered again"
        }
        #expect(renders == 0 && again == first.html)
        let rerated = renderer.card(Self.card(1, rating: 8))
        #expect(rerated.html.contains(#"<option value="8" selected>"#) && !rerated.html.contains(#"<option value="6" selected>"#))
        let noted = renderer.card(Self.card(1, rating: 8, note: "Saw it <twice>"))
        #expect(noted.html.contains("Saw it &lt;twice&gt;"))
    }

    @Test("the rendered cards never hold more than their budget, and the most recently used survive")
    func bounded() {
        let fragments = CardFragments(maxBytes: 64 * 1024)
        let html = String(repeating: "x", count: 1000)
        for id in 0..<500 {
            _ = fragments.html(.movie(Self.card(id))) { html }
            #expect(fragments.bytes <= 64 * 1024)
        }
        var renders = 0
        _ = fragments.html(.movie(Self.card(499))) {
            renders += 1
            return html
        }
        _ = fragments.html(.movie(Self.card(0))) {
            renders += 1
            return html
        }
        #expect(renders == 1, "the newest card is kept, the oldest long gone")
    }
}
