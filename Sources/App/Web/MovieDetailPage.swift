import Foundation
import Hummingbird

struct MovieDetailPage {
    let chrome: Chrome
    let id: Int
    let title: String
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
    let posterURL: String
    let actionURL: String
    let returnTo: String
    let favorite: Bool
    let watched: Bool
    let inLibrary: Bool
    let note: String?
    let noteURL: String
    let removeURL: String
    let offers: TitleOffersView

    let favoriteValue: String
    let watchedValue: String
    let favoriteLabel: String
    let watchedLabel: String

    init(movie: Movie, source: CatalogSource, saved: LibraryItem?, offers: OfferService.TitleOffers) {
        chrome = Chrome(movie.title, tab: .movies, notice: Formats.sourceNotice(source))
        id = movie.id
        title = movie.title
        year = movie.year.map(String.init)
        genre = movie.genre
        director = movie.director
        releaseDate = movie.releaseDate.map(Formats.longDay.string)
        releaseDateISO = movie.releaseDate.map(Formats.day.string)
        contentRating = movie.contentRating
        runtime = Formats.runtime(movie.runtimeMinutes)
        price = Formats.price(movie.price, currency: movie.currency)
        synopsis = movie.synopsis
        storeURL = movie.storeURL
        posterURL = Paths.poster(source: movie.artworkURL, seed: movie.id, title: movie.title)
        actionURL = Paths.libraryMovie(movie.id)
        returnTo = Paths.movie(movie.id)
        favorite = saved?.favorite ?? false
        watched = saved?.watched ?? false
        favoriteValue = favorite ? "0" : "1"
        watchedValue = watched ? "0" : "1"
        favoriteLabel = favorite ? "Bookmarked ✓" : "Bookmark"
        watchedLabel = watched ? "Watched ✓" : "Add to Watched"
        inLibrary = saved != nil
        note = saved?.note
        noteURL = Paths.note(movie.id, returnTo: Paths.movie(movie.id))
        removeURL = Paths.removeConfirmation(movie.id, returnTo: Paths.movie(movie.id))
        self.offers = TitleOffersView(offers)
    }
}

struct NotePage {
    let chrome: Chrome
    let id: Int
    let title: String
    let note: String
    let actionURL: String
    let returnTo: String
    let error: String?
    let limit = LibraryService.noteLimit

    init(id: Int, title: String, note: String, returnTo: String, error: String?) {
        chrome = Chrome("Note for \(title)", tab: .library)
        self.id = id
        self.title = title
        self.note = note
        self.actionURL = Paths.libraryMovie(id)
        self.returnTo = returnTo
        self.error = error
    }
}

struct MessagePage {
    let chrome: Chrome
    let heading: String
    let message: String
    let retryURL: String?
    let backURL: String
    let backLabel: String
    let retryForm: RetryForm?

    init(chrome: Chrome, heading: String, message: String, retryURL: String?, backURL: String, retryForm: RetryForm? = nil) {
        self.chrome = chrome
        self.heading = heading
        self.message = message
        self.retryURL = retryURL
        self.backURL = backURL
        self.retryForm = retryForm
        backLabel = switch backURL {
        case let url where url.hasPrefix("/shows"): "Back to TV Shows"
        case let url where url.hasPrefix("/library"): "Back to My Lists"
        case let url where url == Paths.home || url.hasPrefix("/movies") || url.hasPrefix("/?"): "Back to Movies"
        default: "Go back"
        }
    }
}

/// The spec's error texts, used for pages and dialogs alike.
enum ErrorTexts {
    static let title = "Oops, something went wrong"
    static let fetchFailed = "An error occurred while fetching data. Do you want to try again?"
    static let saveFailed = "There was a problem saving/deleting this movie. Do you want to try again?"
    static let saveShowFailed = "There was a problem saving/deleting this TV Show. Do you want to try again?"
}

enum ErrorPages {
    static func notFound(_ renderer: PageRenderer, _ message: String) throws -> Response {
        let page = MessagePage(chrome: Chrome("Not found", tab: nil), heading: "Not found", message: message, retryURL: nil, backURL: Paths.home)
        return try renderer.response("message", page, status: .notFound)
    }

    static func badRequest(_ renderer: PageRenderer, _ message: String, backURL: String = Paths.home) throws -> Response {
        let page = MessagePage(chrome: Chrome("Check your request", tab: nil), heading: "Check your request", message: message, retryURL: nil, backURL: backURL)
        return try renderer.response("message", page, status: .badRequest)
    }

    /// An action failed: the retry dialog as a page, whose Retry posts the same action again.
    static func retry(_ renderer: PageRenderer, message: String, form: RetryForm) throws -> Response {
        let page = MessagePage(
            chrome: Chrome(ErrorTexts.title, tab: nil), heading: ErrorTexts.title, message: message, retryURL: nil,
            backURL: Paths.safeReturnPath(form.fields.first { $0.name == "return_to" }?.value, fallback: Paths.home), retryForm: form
        )
        return try renderer.response("message", page, status: .serviceUnavailable)
    }

    /// Upstream failed and nothing is known: the retry page (503, so nobody caches it).
    static func fetchFailed(_ renderer: PageRenderer, retryURL: String) throws -> Response {
        let page = MessagePage(chrome: Chrome(ErrorTexts.title, tab: nil), heading: ErrorTexts.title, message: ErrorTexts.fetchFailed, retryURL: retryURL, backURL: Paths.home)
        return try renderer.response("message", page, status: .serviceUnavailable)
    }
}
