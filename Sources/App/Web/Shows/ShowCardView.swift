import Foundation
import Mustache

/// One TV show row/card: poster, name, and its single action — green "Favorite" when not saved,
/// red "Delete" (with confirmation) when saved.
struct ShowCardView: MustacheParent, Hashable {
    let isShow = true
    let id: Int
    let name: String
    let meta: String
    let posterURL: String
    let detailURL: String
    let actionURL: String
    let removeActionURL: String
    let removeURL: String
    /// The card's element id, where a no-JavaScript change comes back to.
    let anchor: String
    let returnTo: String
    let saved: Bool
    /// On cards of saved shows (My Lists, TV Favorites).
    let ratingPicker: RatingPicker?

    init(show: Show, saved: Bool, returnTo: String) {
        self.init(
            id: show.id, name: show.name, year: show.premieredYear, genre: show.genres.first, artworkURL: show.imageMedium, saved: saved,
            returnTo: returnTo, rating: nil)
    }

    init(item: LibraryItem, returnTo: String) {
        self.init(
            id: Int(item.itemID) ?? 0, name: item.title, year: item.year, genre: item.genre, artworkURL: item.artworkURL,
            saved: item.favorite, returnTo: returnTo, rating: .some(item.rating), state: item.titleState)
    }

    /// `rating`: `.some` on a card of the person's lists (which offers the rating picker).
    private init(
        id: Int, name: String, year: Int?, genre: String?, artworkURL: String?, saved: Bool, returnTo: String, rating: Int??,
        state: TitleState? = nil
    ) {
        self.id = id
        self.name = name
        meta = state.map { TitleStateText.show($0, id: id) } ?? [year.map(String.init), genre].compactMap { $0 }.joined(separator: " · ")
        posterURL = Route.posterImage(source: artworkURL, seed: id, title: name)
        detailURL = Route.show.link(id)
        actionURL = Route.saveShow.link(id)
        removeActionURL = Route.removeShow.link(id)
        removeURL = Route.removeShowConfirmation(id, returnTo: returnTo)
        anchor = Route.cardAnchor(show: id)
        self.returnTo = returnTo
        self.saved = saved
        let (action, anchor) = (actionURL, anchor)
        ratingPicker = rating.map { RatingPicker(actionURL: action, returnTo: returnTo, anchor: anchor, title: name, rating: $0) }
    }

    /// Lists of up to 250 shows: answer template lookups without reflection (same values as reflection).
    func child(named name: String) -> Any? {
        switch name {
        case "isShow": isShow
        case "id": id
        case "name": self.name
        case "meta": meta
        case "posterURL": posterURL
        case "detailURL": detailURL
        case "actionURL": actionURL
        case "removeActionURL": removeActionURL
        case "removeURL": removeURL
        case "ratingPicker": ratingPicker
        case "anchor": anchor
        case "returnTo": returnTo
        case "saved": saved
        default: nil
        }
    }
}
