import Foundation
import Hummingbird

/// The frame around every page: title, the active tab, and an optional banner.
struct Chrome {
    enum Tab { case movies, search, shows, library, account }

    var pageTitle: String
    var isMovies = false
    var isSearch = false
    var isShows = false
    var isLibrary = false
    var isAccount = false
    var notice: SourceNotice?
    /// The page's own address, offered as Retry beside a notice that it is a fallback (stale or built-in data).
    var noticeRetryURL: String?
    /// A class on <body>: the show detail page has its own header colour.
    var bodyClass: String?
    /// TVMaze's data is CC BY-SA: TV pages credit it.
    var tvCredit: Bool
    /// Search engines are asked not to index or follow the page (a shared list's link is private to whoever has it).
    var noindex = false
    let paths = NavPaths()

    init(_ title: String, tab: Tab?, notice: SourceNotice? = nil, retryURL: String? = nil, bodyClass: String? = nil, tvCredit: Bool = false) {
        pageTitle = title
        self.notice = notice
        noticeRetryURL = notice == nil ? nil : retryURL
        self.bodyClass = bodyClass
        self.tvCredit = tvCredit
        switch tab {
        case .movies: isMovies = true
        case .search: isSearch = true
        case .shows: isShows = true
        case .library: isLibrary = true
        case .account: isAccount = true
        case nil: break
        }
    }
}

struct NavPaths {
    let home = Route.home.path
    let search = Route.search.path
    let shows = Route.shows.path
    let library = Route.libraryList(.all)
    let showFavorites = Route.showFavorites.path
    let account = Route.account.path
    let tvmaze = Route.tvmazeCredit
    let stylesheet = Route.stylesheet
    let icon = Route.icon
    let manifest = Route.manifest
    let script = Route.script
}
