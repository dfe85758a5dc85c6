import Foundation
import Hummingbird
import Mustache
import NIOCore

/// One partner offer as the banner, a shop row or a sponsored card show it.
struct OfferCardView: Page {
    static let template = "offers/sponsored_card"

    let id: Int
    let headline: String
    let description: String
    let priceText: String
    let advertiserName: String
    let advertiserDescription: String
    let clickURL: String
    let imageURL: String
    let logoURL: String
    let demo: Bool

    init(_ placed: PlacedOffer) {
        id = placed.offer.id
        headline = placed.offer.headline
        description = placed.offer.description
        priceText = placed.offer.priceText
        advertiserName = placed.advertiser.name
        advertiserDescription = placed.advertiser.description
        clickURL = placed.clickURL
        imageURL = placed.imageURL
        logoURL = placed.logoURL
        demo = placed.offer.demo
    }
}

/// The detail pages' offers: the bottom banner and "Shop related products".
struct TitleOffersView {
    let banner: OfferCardView?
    let shops: [OfferCardView]
    let hasShops: Bool

    init(_ offers: OfferService.TitleOffers) {
        banner = offers.banner.map(OfferCardView.init)
        shops = offers.shops.map(OfferCardView.init)
        hasShops = !shops.isEmpty
    }
}

/// A detail page's offers are a section inside the film's (or the show's): looked up by a switch,
/// as the page around them is (`PageViewLookupTests` keeps the answers equal to reflection's).
extension OfferCardView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "headline": headline
        case "description": description
        case "priceText": priceText
        case "advertiserName": advertiserName
        case "advertiserDescription": advertiserDescription
        case "clickURL": clickURL
        case "imageURL": imageURL
        case "logoURL": logoURL
        case "demo": demo
        default: nil
        }
    }
}

extension TitleOffersView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "banner": banner
        case "shops": shops
        case "hasShops": hasShops
        default: nil
        }
    }
}

/// Cards in runs of `SponsoredSlots.every`, each run followed by a slot for a sponsored card.
struct CardGroup<Card> {
    let cards: [Card]
    let slot: Bool
}

extension CardGroup: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "cards": cards
        case "slot": slot
        default: nil
        }
    }
}

/// Listing pages are rendered with a marker after every 12th card; each request fills the markers
/// with that visitor's sponsored cards (or nothing). The rest of the page can then be cached.
enum SponsoredSlots {
    static let every = 12
    static let marker = PageParts.sponsoredMarker

    /// A slot after every full run of 12, and one at the end of a listing shorter than 12 cards
    /// (an empty listing has none: it shows its empty message instead).
    static func groups<Card>(_ cards: [Card]) -> [CardGroup<Card>] {
        stride(from: 0, to: cards.count, by: every).map { start in
            let end = min(start + every, cards.count)
            return CardGroup(cards: Array(cards[start..<end]), slot: end - start == every || cards.count < every)
        }
    }

    /// Rendered cards as one piece of HTML with the slots' markers, joined here rather than by the
    /// template: a listing of 200 cards looked each one up in the template's context, which was a
    /// fifth of the server's CPU on `scripts/bench --mix`.
    static func grid(_ cards: [RenderedCard]) -> String {
        var html = ""
        html.reserveCapacity(cards.reduce(0) { $0 + $1.html.utf8.count } + cards.count / every * marker.utf8.count + marker.utf8.count)
        for group in groups(cards) {
            for card in group.cards { html += card.html }
            if group.slot { html += marker }
        }
        return html
    }
}

extension PageResponder {
    /// A rendered listing with this visitor's sponsored cards in its slots.
    func listingResponse(_ parts: PageParts, listing: ListingContext, offers: OfferService) async -> Response {
        let slots = parts.sponsoredSlots
        let chosen = slots > 0 ? await offers.forListing(listing, slots: slots, viewer: viewer) : []
        return response(parts, cards: chosen.compactMap { try? renderer.html(OfferCardView($0)) })
    }

    func listingResponse(_ page: some Page, listing: ListingContext, offers: OfferService) async throws -> Response {
        await listingResponse(PageParts(try renderer.html(page)), listing: listing, offers: offers)
    }
}

extension ListingContext {
    /// A page of a person's saved titles (My Lists, TV Favorites), from their snapshots.
    init(items: [LibraryItem], kind: MediaKind?, name: String) {
        self.init(titles: items.map { ($0.title, $0.genre.map { [$0] } ?? []) }, kind: kind, name: name)
    }

    /// A page of films, of shows, or of both (`kind` nil: any offer may fit). `name`: the listing
    /// as shops are told it (`ps_listing`).
    init(movies: [Movie] = [], shows: [Show] = [], kind: MediaKind?, name: String) {
        let titles = movies.map { ($0.title, $0.genre.map { [$0] } ?? []) } + shows.map { ($0.name, $0.genres) }
        self.init(titles: titles, kind: kind, name: name)
    }
}
