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

    /// The page with the person's favorites marked on its cards, rendered once per person (or once
    /// for every visitor without lists) and catalogue answer, and this visitor's sponsored cards.
    func listing(_ view: Listed, returnTo: String, _ context: AppRequestContext) async throws -> Response {
        let key = "\(returnTo)|\(view.source.identity)"
        let profile = context.profileID
        let owner = library.versions.owner(profile)
        let kept = try await listPages.page("\(owner.key)|\(key)", version: owner.version) { [library, renderer] in
            // A show's row may hold only a rating: TV Favorites are the rows marked favorite.
            let states = try await library.states(profile: profile, movieIDs: view.shows.map(\.id), kind: .show)
            let saved = Set(states.filter(\.value.favorite).keys)
            let cards = view.shows.map { renderer.card(ShowCardView(show: $0, saved: saved.contains($0.id), returnTo: returnTo)) }
            let page = ShowsPage(cards: cards, source: view.source, query: view.query, page: view.page, isEnd: view.isEnd)
            return (try renderer.html(page), ListingContext(shows: view.shows, kind: .show, key: key, name: view.name))
        }
        return await renderer.listingResponse(kept.parts, listing: kept.listing, offers: offers, viewer: context.viewer)
    }
}
