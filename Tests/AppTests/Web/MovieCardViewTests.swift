import Foundation
import Testing

@testable import App

@Suite("Card view model")
struct MovieCardViewTests {
    @Test("the fast field lookup answers every stored field with the same value reflection sees")
    func lookupMatchesFields() {
        let movie = Movie(id: 5, title: "T", genre: "Drama", releaseDate: ITunesDates.parse("2026-01-02"))
        let state = LibraryItem(kind: .movie, itemID: "5", title: "T", favorite: true, watched: true, note: "n", updatedAt: Date())
        for card in [MovieCardView(movie: movie, state: nil, returnTo: "/"), MovieCardView(item: state, list: .watched, returnTo: "/")] {
            let children = Mirror(reflecting: card).children
            #expect(children.count > 15)
            for child in children {
                let label = child.label!
                let answered = card.child(named: label)
                #expect(answered != nil, "\(label) is not answered")
                #expect(String(describing: answered!) == String(describing: child.value), "\(label)")
            }
        }
    }
}
