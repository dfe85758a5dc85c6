import Foundation
import Mustache

/// What every film view (card, detail page, search's best match) shows of a film and its place in
/// the person's lists. Templates open it as a section (`{{#film}}…{{/film}}`); names it lacks are
/// looked up in the view around it.
struct FilmFields: MustacheParent, Hashable {
    let id: Int
    let title: String
    let posterURL: String
    let detailURL: String
    let actionURL: String
    let removeActionURL: String
    /// The card's element id, where a no-JavaScript change comes back to.
    let anchor: String
    let favorite: Bool
    let watched: Bool
    /// What the Favorite and Watched buttons send: the opposite of the current state.
    let favoriteValue: String
    let watchedValue: String

    init(id: Int, title: String, artworkURL: String?, saved: LibraryItem?) {
        self.id = id
        self.title = title
        posterURL = Route.posterImage(source: artworkURL, seed: id, title: title)
        detailURL = Route.movie.link(id)
        actionURL = Route.saveMovie.link(id)
        removeActionURL = Route.removeMovie.link(id)
        anchor = Route.cardAnchor(movie: id)
        favorite = saved?.favorite ?? false
        watched = saved?.watched ?? false
        favoriteValue = favorite ? "0" : "1"
        watchedValue = watched ? "0" : "1"
    }

    /// Every card has one: answer without reflection (`FilmFieldsTests` keeps it equal to reflection).
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "title": title
        case "posterURL": posterURL
        case "detailURL": detailURL
        case "actionURL": actionURL
        case "removeActionURL": removeActionURL
        case "anchor": anchor
        case "favorite": favorite
        case "watched": watched
        case "favoriteValue": favoriteValue
        case "watchedValue": watchedValue
        default: nil
        }
    }
}
