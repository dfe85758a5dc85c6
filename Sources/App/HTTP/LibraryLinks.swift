import Foundation

/// Links of the library's pages (My Lists, the diary, custom lists), built from `Route`'s cases:
/// no path is written here.
extension Route {
    /// A card's element id (`movie-7`, `show-7`). A no-JavaScript change returns to its page at
    /// that card (`back(to:movie:)`), not at the top of a long list; the title's own page has no card.
    static func cardAnchor(movie id: Int) -> String { "movie-\(id)" }
    static func cardAnchor(show id: Int) -> String { "show-\(id)" }
    /// `return_to` at an element of its page (`#diary`), unless it already names one.
    static func back(to returnTo: String, at anchor: String) -> String { returnTo.contains("#") ? returnTo : "\(returnTo)#\(anchor)" }
    static func back(to returnTo: String, movie id: Int) -> String { back(to: returnTo, at: cardAnchor(movie: id), unless: movie.link(id)) }
    static func back(to returnTo: String, show id: Int) -> String { back(to: returnTo, at: cardAnchor(show: id), unless: show.link(id)) }

    private static func back(to returnTo: String, at anchor: String, unless detailPage: String) -> String {
        let path = returnTo.prefix { $0 != "?" }
        return returnTo.contains("#") || path == detailPage ? returnTo : "\(returnTo)#\(anchor)"
    }

    static func diaryPage(_ page: Int) -> String { diary.link(query: ["page": page > 1 ? "\(page)" : nil]) }
    static func logWatch(_ kind: MediaKind, _ id: Int) -> String { (kind == .movie ? logMovieWatch : logShowWatch).link(id) }
    static func titlePage(_ kind: MediaKind, _ id: String) -> String { (kind == .movie ? movie : show).link(id) }
    static func addToList(_ kind: MediaKind, _ id: Int) -> String { (kind == .movie ? addMovieToList : addShowToList).link(id) }

    static func listLink(_ route: Route, _ id: UUID) -> String { route.link(id.uuidString.lowercased()) }
    static func customListPage(_ id: UUID, page: Int = 1) -> String {
        customList.link(id.uuidString.lowercased(), query: ["page": page > 1 ? "\(page)" : nil])
    }
    static func sharedListPage(_ token: String, page: Int = 1) -> String { sharedList.link(token, query: ["page": page > 1 ? "\(page)" : nil]) }

    static func libraryList(_ list: LibraryList, page: Int = 1, kind: MediaKind? = nil) -> String {
        libraryList(list, page: page, filter: LibraryFilter(kind: kind))
    }

    /// A list with its sort and filters in the address (defaults left out), so it can be bookmarked.
    static func libraryList(_ list: LibraryList, page: Int = 1, filter: LibraryFilter) -> String {
        library.link(query: [
            "list": list.rawValue, "kind": filter.kind?.rawValue, "sort": filter.sort == .changed ? nil : filter.sort.rawValue,
            "genre": filter.genre, "year": filter.year.map(String.init), "rated": filter.rated.map { $0 ? "yes" : "no" }, "q": filter.text,
            "page": page > 1 ? "\(page)" : nil,
        ])
    }
    /// The statistics of all time, or a year in review.
    static func statisticsPage(year: Int? = nil) -> String { statistics.link(query: ["year": year.map(String.init)]) }
    /// A watch's edit form or delete confirmation, coming back to `returnTo` after.
    static func watchLink(_ route: Route, _ id: UUID, returnTo: String? = nil) -> String {
        route.link(id.uuidString.lowercased(), query: ["return_to": returnTo])
    }
}
