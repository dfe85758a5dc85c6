import Foundation
import Mustache
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

    /// Every stored field of `view` is answered by `lookup` with the value reflection sees.
    static func expectLookupMatchesReflection(_ view: Any, fields: Int, _ lookup: (String) -> Any?) {
        let children = Mirror(reflecting: view).children
        #expect(children.count >= fields)
        for child in children {
            let label = child.label!
            let answered = lookup(label).map { String(describing: $0) }
            let reflected = Self.unwrapped(child.value).map { String(describing: $0) }
            #expect(answered == reflected, "\(label)")
        }
    }

    /// The same for a view that answers lookups itself, which must have exactly `fields` stored
    /// fields (so a field added later is counted) and answer no other name.
    static func expectLookupMatchesReflection(_ view: some MustacheParent, fields: Int) {
        #expect(Mirror(reflecting: view).children.count == fields, "\(type(of: view))")
        #expect(view.child(named: "noSuchName") == nil)
        expectLookupMatchesReflection(view, fields: fields) { view.child(named: $0) }
    }

    @Test("the fast field lookup of cards and their film fields answers every stored field with the same value reflection sees")
    func lookupMatchesFields() async throws {
        let movie = Movie(id: 5, title: "T", genre: nil, releaseDate: ITunesDates.parse("2026-01-02"))
        let state = LibraryItem(kind: .movie, itemID: "5", title: "T", genre: "Drama", favorite: true, watched: true, note: "n", updatedAt: Date())
        for card in [MovieCardView(movie: movie, state: nil, returnTo: "/"), MovieCardView(item: state, list: .watched, returnTo: "/")] {
            Self.expectLookupMatchesReflection(card, fields: 12) { card.child(named: $0) }
            Self.expectLookupMatchesReflection(card.film, fields: 10) { card.film.child(named: $0) }
        }
        let picker = RatingPicker(actionURL: "/library/movies/5", returnTo: "/library", anchor: "movie-5", title: "T", rating: 7)
        Self.expectLookupMatchesReflection(picker, fields: 5) { picker.child(named: $0) }
        for option in RatingPicker.options(selected: 7) { Self.expectLookupMatchesReflection(option, fields: 3) { option.child(named: $0) } }
        #expect(
            picker.optionsHTML.contains(#"<option value="7" selected>3½ stars</option>"#)
                && picker.optionsHTML.hasPrefix(#"<option value="0">No rating</option>"#))
        let show = ShowCardView(
            item: LibraryItem(kind: .show, itemID: "9", title: "S", favorite: true, watched: false, updatedAt: Date()), returnTo: "/")
        Self.expectLookupMatchesReflection(show, fields: 12) { show.child(named: $0) }
        let page = MyListsPage(
            list: .all, filter: LibraryFilter(), genres: ["Drama"], page: LibraryPage(items: [state], total: 61, page: 1),
            renderer: try await PageRenderer.load())
        Self.expectLookupMatchesReflection(page, fields: 17) { page.child(named: $0) }
        #expect(page.grid.hasSuffix(SponsoredSlots.marker), "one card, then its slot")
    }
}
