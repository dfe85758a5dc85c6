import Foundation
import Hummingbird
import Mustache

/// A film's and a show's page. A visitor without a profile gets the page every such visitor gets,
/// kept per title and catalogue answer (`Caches.sharedPages`); a person's is drawn for them. The
/// page is cut where its offers go (`PageParts`' sponsored hole), which each request fills with
/// that visitor's banner and shops: the frequency cap is per visitor and per view, so they are
/// never kept with the page.
struct TitlePages: Sendable {
    let sharedPages: DeclaredCache<SharedPageKey, SharedPage>
    let offers: OfferService
    let renderer: PageRenderer

    /// `page` and `source` name the title and the catalogue answer its page is drawn from
    /// (`CatalogSource.identity`); `render` gives the page with `PageParts.sponsoredMarker` where
    /// the offers go.
    func response(
        _ page: String, source: String, profile: UUID?, offers context: OfferContext, responder: PageResponder,
        render: @escaping @Sendable () async throws -> String
    ) async throws -> Response {
        let listing = ListingContext(titles: [], kind: nil, name: page)
        let parts =
            profile == nil
            ? try await sharedPages.page(SharedPageKey(page: page, source: source)) { (try await render(), listing) }.parts
            : PageParts(try await render())
        let chosen = await offers.forTitle(context, viewer: responder.viewer)
        return responder.response(parts, cards: [try renderer.html(TitleOffersSection(offers: TitleOffersView(chosen)))])
    }
}

/// The detail pages' offers on their own (`offers/title_offers`), for the hole their page leaves.
struct TitleOffersSection: Page, MustacheParent {
    static let template = "offers/title_offers"
    let offers: TitleOffersView

    func child(named name: String) -> Any? { name == "offers" ? offers : nil }
}
