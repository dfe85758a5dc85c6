import Foundation
import Hummingbird
import Mustache

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
    let touchIcon = Route.touchIcon
    let manifest = Route.manifest
    let script = Route.script
}

/// Every page's layout reads some twenty names of its chrome: answered by a switch, not reflection
/// (`StatsViewsTests` keeps the answers equal to reflection's).
extension Chrome: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "pageTitle": pageTitle
        case "isMovies": isMovies
        case "isSearch": isSearch
        case "isShows": isShows
        case "isLibrary": isLibrary
        case "isAccount": isAccount
        case "notice": notice
        case "noticeRetryURL": noticeRetryURL
        case "bodyClass": bodyClass
        case "tvCredit": tvCredit
        case "noindex": noindex
        case "paths": paths
        default: nil
        }
    }
}

extension NavPaths: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "home": home
        case "search": search
        case "shows": shows
        case "library": library
        case "showFavorites": showFavorites
        case "account": account
        case "tvmaze": tvmaze
        case "stylesheet": stylesheet
        case "icon": icon
        case "touchIcon": touchIcon
        case "manifest": manifest
        case "script": script
        default: nil
        }
    }
}

extension Route {
    /// The tab a page's address belongs to, read from the route it matches (nil: none, or not a page).
    static func tab(of path: String) -> Chrome.Tab? {
        let bare = path.prefix { $0 != "?" }
        guard let route = allCases.first(where: { $0.method == .get && $0.matches(bare) }) else { return nil }
        return switch route {
        case .home, .movies, .movie, .movieNote: .movies
        case .library, .confirmRemoveMovie, .confirmRemoveShow, .diary, .editWatch, .confirmDeleteWatch, .statistics, .lists, .customList,
            .confirmDeleteList, .imports:
            .library
        case .shows, .showFavorites, .show: .shows
        default: nil
        }
    }
}
