import Foundation
import Hummingbird

extension ShowsController {
    /// A page of TVMaze's shows (the index or a name search) as drawn from one catalogue answer.
    struct Listed: Sendable {
        let shows: [Show]
        let source: CatalogSource
        let query: String?
        let page: Int?
        let isEnd: Bool
        /// The listing's name in a sponsored card's click.
        let name: String
    }

    /// The page with the person's favorites marked on its cards (every visitor without a profile
    /// gets one page per catalogue answer, `Caches.sharedPages`), and this visitor's sponsored cards.
    func listing(_ view: Listed, returnTo: String, _ context: AppRequestContext) async throws -> Response {
        let key = SharedPageKey(page: returnTo, source: view.source.identity)
        @Sendable func render(_ saved: Set<Int>) throws -> (html: String, listing: ListingContext) {
            let cards = view.shows.map { renderer.card(ShowCardView(show: $0, saved: saved.contains($0.id), returnTo: returnTo)) }
            let page = ShowsPage(cards: cards, source: view.source, query: view.query, page: view.page, isEnd: view.isEnd)
            return (
                try renderer.html(page), ListingContext(shows: view.shows, kind: .show, key: "\(returnTo)|\(view.source.identity)", name: view.name)
            )
        }
        guard let profile = context.profileID else {
            let page = try sharedPages.page(key) { try render([]) }
            return await renderer.listingResponse(page.parts, listing: page.listing, offers: offers, viewer: context.viewer)
        }
        // A show's row may hold only a rating: TV Favorites are the rows marked favorite.
        let states = try await library.states(profile: profile, movieIDs: view.shows.map(\.id), kind: .show)
        let made = try render(Set(states.filter(\.value.favorite).keys))
        return await renderer.listingResponse(PageParts(made.html), listing: made.listing, offers: offers, viewer: context.viewer)
    }
}
