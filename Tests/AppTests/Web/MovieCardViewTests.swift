import Foundation
import Testing

@testable import App

@Suite("Card view model")
struct MovieCardViewTests {
    /// What swift-mustache's reflection lookup yields for a stored value: optionals unwrapped, nil as nil.
    static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first?.value
    }

    @Test("the fast field lookup answers every stored field with the same value reflection sees")
    func lookupMatchesFields() {
        let movie = Movie(id: 5, title: "T", genre: nil, releaseDate: ITunesDates.parse("2026-01-02"))
        let state = LibraryItem(kind: .movie, itemID: "5", title: "T", genre: "Drama", favorite: true, watched: true, note: "n", updatedAt: Date())
        for card in [MovieCardView(movie: movie, state: nil, returnTo: "/"), MovieCardView(item: state, list: .watched, returnTo: "/")] {
            let children = Mirror(reflecting: card).children
            #expect(children.count > 15)
            for child in children {
                let label = child.label!
                let answered = card.child(named: label).map { String(describing: $0) }
                let reflected = Self.unwrapped(child.value).map { String(describing: $0) }
                #expect(answered == reflected, "\(label)")
            }
        }
    }
}
