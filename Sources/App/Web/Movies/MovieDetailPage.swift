import Foundation
import Hummingbird
import Mustache

struct MovieDetailPage: Page {
    static let template = "movies/detail"

    let chrome: Chrome
    let film: FilmFields
    let year: String?
    let genre: String?
    let director: String?
    let releaseDate: String?
    let releaseDateISO: String?
    let contentRating: String?
    let runtime: String?
    let price: String?
    let synopsis: String?
    let storeURL: String?
    /// The iTunes preview to play (nil: none, or not from Apple's preview host).
    let previewURL: String?
    let returnTo: String
    let inLibrary: Bool
    let note: String?
    let noteURL: String
    let removeURL: String
    /// What Remove takes away (`RemovalText`), for the remove dialog.
    let removeText: String?
    let ratingPicker: RatingPicker
    let titleDiary: TitleDiaryView
    let titleLists: TitleListsView

    let favoriteLabel: String
    let watchedLabel: String

    init(movie: Movie, source: CatalogSource, saved: LibraryItem?, personal: PersonalTitleState, now: Date) {
        chrome = Chrome(movie.title, tab: .movies, notice: Formats.sourceNotice(source), retryURL: Route.movie.link(movie.id))
        film = FilmFields(id: movie.id, title: movie.title, artworkURL: movie.artworkURL, saved: saved)
        year = movie.year.map(String.init)
        genre = movie.genre
        director = movie.director
        releaseDate = movie.releaseDate.map(UTCFormatters.longDay.string)
        releaseDateISO = movie.releaseDate?.formatted(UTCFormatters.dayStyle)
        contentRating = movie.contentRating
        runtime = Formats.runtime(movie.runtimeMinutes)
        price = Formats.price(movie.price, currency: movie.currency)
        synopsis = movie.synopsis
        storeURL = movie.storeURL
        previewURL = ITunesPreview.playable(movie.previewURL)
        returnTo = Route.movie.link(movie.id)
        favoriteLabel = film.favorite ? "Favorite ✓" : "Favorite"
        watchedLabel = film.watched ? "Watched ✓" : "Watched"
        inLibrary = saved != nil
        note = saved?.note
        noteURL = Route.note(movie.id, returnTo: Route.movie.link(movie.id))
        removeURL = Route.removeMovieConfirmation(movie.id, returnTo: Route.movie.link(movie.id))
        removeText = saved.map { RemovalText.movie(title: movie.title, item: $0, watches: personal.watches.count) }
        ratingPicker = RatingPicker(
            actionURL: film.actionURL, returnTo: returnTo, anchor: film.anchor, title: movie.title, rating: saved?.rating)
        titleDiary = TitleDiaryView(kind: .movie, id: movie.id, title: movie.title, watches: personal.watches, saved: saved != nil, now: now)
        titleLists = TitleListsView(kind: .movie, id: movie.id, title: movie.title, lists: personal.lists, holding: personal.holding)
    }
}

struct NotePage: Page {
    static let template = "movies/note"

    let chrome: Chrome
    let id: Int
    let title: String
    let note: String
    let actionURL: String
    let returnTo: String
    let error: String?
    let limit = LibraryService.noteLimit

    init(id: Int, title: String, note: String, returnTo: String, error: String?) {
        // The tab of the page the note was opened from (Movies, My Lists…).
        chrome = Chrome("Note for \(title)", tab: Route.tab(of: returnTo))
        self.id = id
        self.title = title
        self.note = note
        self.actionURL = Route.saveMovie.link(id)
        self.returnTo = returnTo
        self.error = error
    }
}

/// The film page's names are looked up through its film section and up the stack: answered by a
/// switch, not reflection (`PageViewLookupTests` keeps the answers equal to reflection's).
extension MovieDetailPage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": chrome
        case "film": film
        case "year": year
        case "genre": genre
        case "director": director
        case "releaseDate": releaseDate
        case "releaseDateISO": releaseDateISO
        case "contentRating": contentRating
        case "runtime": runtime
        case "price": price
        case "synopsis": synopsis
        case "storeURL": storeURL
        case "previewURL": previewURL
        case "returnTo": returnTo
        case "inLibrary": inLibrary
        case "note": note
        case "noteURL": noteURL
        case "removeURL": removeURL
        case "removeText": removeText
        case "ratingPicker": ratingPicker
        case "titleDiary": titleDiary
        case "titleLists": titleLists
        case "favoriteLabel": favoriteLabel
        case "watchedLabel": watchedLabel
        default: nil
        }
    }
}

extension NotePage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": chrome
        case "id": id
        case "title": title
        case "note": note
        case "actionURL": actionURL
        case "returnTo": returnTo
        case "error": error
        case "limit": limit
        default: nil
        }
    }
}
