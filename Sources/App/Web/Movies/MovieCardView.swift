import Foundation
import Mustache

/// One poster card: used on the Movies grid and in My Lists.
struct MovieCardView: Hashable {
    let isShow = false
    let film: FilmFields
    let year: String?
    let genre: String?
    /// "2026 · Drama": one string, so a wrapped line never starts with the separator.
    let meta: String
    let returnTo: String
    let note: String?
    let noteURL: String
    let removeURL: String
    /// What Remove takes away (`RemovalText`), for the remove dialog.
    let removeText: String?
    /// My Lists only: which move buttons to show.
    let inList: Bool
    /// The Favorite and Watched toggles: on the Movies grid and in All saved (where a card may be either or both).
    let showToggles: Bool
    let canMoveToWatched: Bool
    let canMoveToFavorites: Bool
    /// My Lists only.
    let ratingPicker: RatingPicker?

    let favoriteLabel: String
    let watchedLabel: String

    init(movie: Movie, state: LibraryItem?, returnTo: String) {
        self.init(
            id: movie.id, title: movie.title, year: movie.year, genre: movie.genre, artworkURL: movie.artworkURL,
            state: state, returnTo: returnTo, list: nil
        )
    }

    init(item: LibraryItem, list: LibraryList, returnTo: String) {
        self.init(
            id: Int(item.itemID) ?? 0, title: item.title, year: item.year, genre: item.genre, artworkURL: item.artworkURL,
            state: item, returnTo: returnTo, list: list
        )
    }

    private init(
        id: Int, title: String, year: Int?, genre: String?, artworkURL: String?, state: LibraryItem?, returnTo: String,
        list: LibraryList?
    ) {
        film = FilmFields(id: id, title: title, artworkURL: artworkURL, saved: state)
        self.year = year.map(String.init)
        self.genre = genre
        meta = state?.titleState.map { TitleStateText.film($0, id: id) } ?? [year.map(String.init), genre].compactMap { $0 }.joined(separator: " · ")
        self.returnTo = returnTo
        favoriteLabel = film.favorite ? "Favorite ✓" : "Favorite"
        watchedLabel = film.watched ? "Watched ✓" : "Watched"
        self.note = state?.watched == true ? state?.note : nil
        self.noteURL = Route.note(id, returnTo: returnTo)
        self.removeURL = Route.removeMovieConfirmation(id, returnTo: returnTo)
        self.removeText = state.map { RemovalText.movie(title: title, item: $0) }
        self.inList = list != nil
        self.showToggles = list == nil || list == .all
        // A move leaves one list for the other: a film already in both has nowhere to move (moving
        // it would only take it out of Favorites, unasked).
        self.canMoveToWatched = list == .favorites && state?.watched != true
        self.canMoveToFavorites = list == .watched && state?.favorite != true
        ratingPicker =
            list == nil
            ? nil : RatingPicker(actionURL: film.actionURL, returnTo: returnTo, anchor: film.anchor, title: title, rating: state?.rating)
    }
}

extension MovieCardView: MustacheParent {
    /// Templates look fields up by name. A switch is far cheaper than reflection for the 60–200
    /// cards a page renders (see scripts/bench); `MovieCardViewTests` keeps it answering exactly what
    /// reflection would, nil optionals included (mustache then looks further up, as with reflection).
    func child(named name: String) -> Any? {
        switch name {
        case "isShow": isShow
        case "film": film
        case "year": year
        case "genre": genre
        case "meta": meta
        case "returnTo": returnTo
        case "note": note
        case "noteURL": noteURL
        case "removeURL": removeURL
        case "removeText": removeText
        case "inList": inList
        case "showToggles": showToggles
        case "canMoveToWatched": canMoveToWatched
        case "canMoveToFavorites": canMoveToFavorites
        case "favoriteLabel": favoriteLabel
        case "watchedLabel": watchedLabel
        case "ratingPicker": ratingPicker
        default: nil
        }
    }
}

/// What a saved title's card says while its details are not the catalogue's (`TitleState`).
enum TitleStateText {
    static func film(_ state: TitleState, id: Int) -> String {
        switch state {
        case .pending: "Details on their way from iTunes"
        case .unknown: "No longer in the film catalogue: remove it, or search for it by name"
        }
    }

    static func show(_ state: TitleState, id: Int) -> String {
        switch state {
        case .pending: "Details on their way from TVMaze"
        case .unknown: "No longer in the TV catalogue: delete it, or search for it by name"
        }
    }
}
