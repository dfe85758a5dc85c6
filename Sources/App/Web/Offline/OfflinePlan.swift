import Crypto
import Foundation

/// What the service worker keeps on the phone for a person, so it opens offline: every page of My
/// Lists (All saved, Favorites, Watched), TV Favorites, their own lists, the diary's first page,
/// the detail page of each saved title (most recently changed first), the last search, Up Next and
/// the page of each show in it (`maxShows`, most recently watched first: an episode checked
/// offline is queued from it). Bounded (`maxListPages`, `maxDetails`), whatever the library's size. `scope` names the person's caches
/// in the browser without being their id.
struct OfflinePlan: Encodable, Sendable {
    static let maxListPages = 10
    static let maxLists = 50
    static let maxDetails = 300
    static let maxShows = 50

    /// nil for a browser with no profile yet: nothing of anybody's to keep.
    let scope: String?
    /// Pages whose content changes with every change to the library: fetched again after a change.
    let lists: [String]
    /// Pages of one title: fetched once, then again when visited.
    let details: [String]

    static func scope(of profile: UUID) -> String {
        Hex.string(TextDigest.sha256("popcornswirl-offline|", profile.uuidString.lowercased()).prefix(16))
    }

    static func make(
        profile: UUID?, library: LibraryService, lists customLists: CustomListService, search: SearchService, episodes: EpisodeService
    ) async throws -> OfflinePlan {
        guard let profile else { return OfflinePlan(scope: nil, lists: [], details: []) }
        var lists = [Route.diary.path, Route.lists.path]
        var details: [String] = []
        for list in [LibraryList.all, .favorites, .watched] {
            var page = 1
            repeat {
                let result = try await library.list(profile: profile, list: list, page: page)
                lists.append(Route.libraryList(list, page: page))
                if list == .all, details.count < maxDetails {
                    details += result.items.prefix(maxDetails - details.count).map { Route.titlePage($0.kind, $0.itemID) }
                }
                page += 1
                if page > result.pageCount { break }
            } while page <= maxListPages
        }
        let shows = try await library.list(profile: profile, list: .favorites, page: 1, kind: .show)
        lists += (1...min(shows.pageCount, maxListPages)).map { $0 > 1 ? Route.showFavoritesPage($0) : Route.showFavorites.path }
        for list in try await customLists.lists(profile: profile).prefix(maxLists) {
            let pages = LibraryPage.pageCount(total: list.itemCount, pageSize: CustomListPage.pageSize)
            lists += (1...min(pages, maxListPages)).map { Route.customListPage(list.id, page: $0) }
        }
        if let last = try await search.last(profile: profile) { lists.append(Route.searchFor(last.query)) }
        // Up Next and its shows' pages change with every episode checked: kept as lists are.
        lists += [Route.upNext.path, Route.upNextPage(.waiting)]
        lists += try await episodes.upNext(profile: profile, limit: maxShows).map { Route.show.link($0.showID) }
        return OfflinePlan(scope: scope(of: profile), lists: lists, details: details)
    }
}
