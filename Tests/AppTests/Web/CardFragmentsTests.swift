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
        let cards = Caches.forTests().cards
        let renderer = try await PageRenderer.load(cards: cards)
        let first = renderer.card(Self.card(1, rating: 6))
        #expect(first.html.contains(#"<option value="6" selected>"#) && first.html.contains("Film 1"))
        #expect(renderer.card(Self.card(1, rating: 6)).html == first.html)
        #expect(cards.statistics.hits == 1 && cards.statistics.misses == 1)
        let rerated = renderer.card(Self.card(1, rating: 8))
        #expect(rerated.html.contains(#"<option value="8" selected>"#) && !rerated.html.contains(#"<option value="6" selected>"#))
        let noted = renderer.card(Self.card(1, rating: 8, note: "Saw it <twice>"))
        #expect(noted.html.contains("Saw it &lt;twice&gt;"))
        #expect(cards.statistics.misses == 3)
    }
}
