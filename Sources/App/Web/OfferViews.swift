import Foundation
import Hummingbird
import NIOCore

/// One partner offer as the banner, a shop row or a sponsored card show it.
struct OfferCardView {
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

/// Cards in runs of `SponsoredSlots.every`, each run followed by a slot for a sponsored card.
struct CardGroup<Card> {
    let cards: [Card]
    let slot: Bool
}

/// Listing pages are rendered with a marker after every 12th card; each request fills the markers
/// with that visitor's sponsored cards (or nothing). The rest of the page can then be cached.
enum SponsoredSlots {
    static let every = 12
    static let marker = "<!--ps:sponsored-->"

    static func groups<Card>(_ cards: [Card]) -> [CardGroup<Card>] {
        stride(from: 0, to: cards.count, by: every).map { start in
            let end = min(start + every, cards.count)
            return CardGroup(cards: Array(cards[start..<end]), slot: end - start == every)
        }
    }

    /// The page cut at its markers: n markers give n + 1 pieces.
    static func split(_ html: String) -> [ByteBuffer] {
        html.components(separatedBy: marker).map { ByteBuffer(string: $0) }
    }

    /// The pieces with one card per marker (markers without a card stay empty), as buffers written
    /// one after the other: the shared pieces are never copied.
    static func join(_ pieces: [ByteBuffer], cards: [String]) -> [ByteBuffer] {
        var out: [ByteBuffer] = []
        out.reserveCapacity(pieces.count * 2)
        for (index, piece) in pieces.enumerated() {
            if index > 0, index - 1 < cards.count { out.append(ByteBuffer(string: cards[index - 1])) }
            out.append(piece)
        }
        return out
    }
}

extension PageRenderer {
    /// A rendered listing with this visitor's sponsored cards in its slots.
    func listingResponse(_ pieces: [ByteBuffer], listing: ListingContext, offers: OfferService, visitor: String) async -> Response {
        let slots = pieces.count - 1
        let chosen = slots > 0 ? await offers.forListing(listing, slots: slots, visitor: visitor) : []
        let cards = chosen.compactMap { try? html("sponsored_card", OfferCardView($0)) }
        return Self.htmlResponse(ResponseBody(contentsOf: SponsoredSlots.join(pieces, cards: cards)))
    }

    func listingResponse(_ template: String, _ view: Any, listing: ListingContext, offers: OfferService, visitor: String) async throws -> Response {
        await listingResponse(SponsoredSlots.split(try html(template, view)), listing: listing, offers: offers, visitor: visitor)
    }
}

extension OfferContext {
    init(movie: Movie) {
        self.init(title: TitleRef(kind: .movie, id: movie.id), name: movie.title, genreNames: movie.genre.map { [$0] } ?? [], synopsis: movie.synopsis)
    }

    init(show: Show) {
        let summary = show.summaryHTML?.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
        self.init(title: TitleRef(kind: .show, id: show.id), name: show.name, genreNames: show.genres, synopsis: summary)
    }
}

extension ListingContext {
    /// A page of films, of shows, or of both (`kind` nil: any offer may fit). `key`: the page and
    /// catalogue answer the titles came from (see `ListingContext.key`).
    init(movies: [Movie] = [], shows: [Show] = [], kind: MediaKind?, key: String?) {
        let titles = movies.map { ($0.title, $0.genre.map { [$0] } ?? []) } + shows.map { ($0.name, $0.genres) }
        self.init(titles: titles, kind: kind, key: key)
    }
}
