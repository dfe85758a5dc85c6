import Foundation
import Hummingbird
import Mustache
import Synchronization

/// A film's and a show's page, rendered once per person, title and catalogue answer and reused
/// while the person's `LibraryVersions` counter is unchanged (and for `PersonalPageCache.maxAge` at
/// most: another server's write, a kept film refreshed, today's date). The page is cut where its
/// offers go (`PageParts`' sponsored hole), which each request fills with that visitor's banner and
/// shops: the frequency cap is per visitor and per view, so they are never kept with the page.
///
/// Measured before this (`scripts/bench --only film`): a film's page rendered whole for every
/// request, 33 % of its CPU in swift-mustache, 11 % in SQLite's three queries, 1,144 req/s.
struct TitlePages: Sendable {
    let pages: PersonalPageCache
    let versions: LibraryVersions
    let offers: OfferService
    let renderer: PageRenderer
    let sections = OfferSections()

    /// `key` names the title and the catalogue answer its page is drawn from (`CatalogSource.identity`);
    /// `render` gives the page with `PageParts.sponsoredMarker` where the offers go (run on a miss only).
    func response(
        _ key: String, profile: UUID?, offers context: OfferContext, visitor: String,
        render: @escaping @Sendable () async throws -> String
    ) async throws -> Response {
        // A visitor without lists sees what every such visitor sees: one page for all of them.
        let owner = profile.map { "\($0)" } ?? "-"
        let version = profile.map(versions.current) ?? 0
        let page = try await pages.page("\(owner)|\(key)", version: version, listing: key, render: render)
        let chosen = await offers.forTitle(context, visitor: visitor)
        return page.parts.response(cards: [try sections.html(chosen, title: context.title, renderer: renderer)])
    }
}

/// The offers section as rendered for a title and a choice of offers: the same few choices come
/// back view after view (6 % of a cached show page's CPU was rendering them again). An entry is
/// reused only for offers equal in every field, so an offer edited in the console is drawn anew.
final class OfferSections: Sendable {
    static let capacity = 1024
    private let table = Mutex<[String: (offers: OfferService.TitleOffers, html: String)]>([:])

    func html(_ offers: OfferService.TitleOffers, title: TitleRef, renderer: PageRenderer) throws -> String {
        let key = "\(title)|\(offers.banner?.offer.id ?? 0)|" + offers.shops.map { String($0.offer.id) }.joined(separator: ",")
        if let kept = table.withLock({ $0[key] }), kept.offers == offers { return kept.html }
        let html = try renderer.html(TitleOffersSection(offers: TitleOffersView(offers)))
        table.withLock { table in
            if table.count >= Self.capacity { table.removeAll(keepingCapacity: true) }
            table[key] = (offers, html)
        }
        return html
    }
}

/// Sponsored cards as rendered for a placed offer: the same few offers fill the slots of every
/// listing view (17 on the 200-film Movies page), rendered again each time before. An entry is
/// reused only for a placed offer equal in every field, so an offer edited in the console is drawn anew.
final class SponsoredCards: Sendable {
    static let capacity = 1024
    private let table = Mutex<[String: (offer: PlacedOffer, html: String)]>([:])

    func html(_ offer: PlacedOffer, renderer: PageRenderer) throws -> String {
        let key = "\(offer.offer.id)|\(offer.placement)|\(offer.listing ?? "")|\(offer.title.map { "\($0)" } ?? "")"
        if let kept = table.withLock({ $0[key] }), kept.offer == offer { return kept.html }
        let html = try renderer.html(OfferCardView(offer))
        table.withLock { table in
            if table.count >= Self.capacity { table.removeAll(keepingCapacity: true) }
            table[key] = (offer, html)
        }
        return html
    }
}

/// The detail pages' offers on their own (`offers/title_offers`), for the hole their page leaves.
struct TitleOffersSection: Page, MustacheParent {
    static let template = "offers/title_offers"
    let offers: TitleOffersView

    func child(named name: String) -> Any? { name == "offers" ? offers : nil }
}
