import Foundation
import Hummingbird
import Mustache
import Synchronization

/// A film's and a show's page. A visitor without a profile gets the page every such visitor gets,
/// kept per title and catalogue answer (`Caches.sharedPages`); a person's is drawn for them. The
/// page is cut where its offers go (`PageParts`' sponsored hole), which each request fills with
/// that visitor's banner and shops: the frequency cap is per visitor and per view, so they are
/// never kept with the page.
struct TitlePages: Sendable {
    let sharedPages: DeclaredCache<SharedPageKey, SharedPage>
    let offers: OfferService
    let renderer: PageRenderer
    let sections = DrawnOnce<OfferService.TitleOffers>()
    let contexts = TitleContexts()

    /// `page` and `source` name the title and the catalogue answer its page is drawn from
    /// (`CatalogSource.identity`); `render` gives the page with `PageParts.sponsoredMarker` where
    /// the offers go.
    func response(
        _ page: String, source: String, profile: UUID?, offers made: @autoclosure () -> OfferContext, responder: PageResponder,
        render: @escaping @Sendable () async throws -> String
    ) async throws -> Response {
        let context = contexts.context("\(page)|\(source)", make: made)
        let listing = ListingContext(items: [], kind: nil, key: nil, name: page)
        let parts =
            profile == nil
            ? try await sharedPages.page(SharedPageKey(page: page, source: source)) { (try await render(), listing) }.parts
            : PageParts(try await render())
        let chosen = await offers.forTitle(context, viewer: responder.viewer)
        return responder.response(parts, cards: [try sections.html(chosen, title: context.title, renderer: renderer)])
    }
}

/// HTML drawn for a value the same few of which come back view after view, kept under a short key
/// and reused only for a value equal in every field, so an offer edited in the console is drawn
/// anew. A title's offers section (6 % of a cached show page's CPU was drawing it again) and a
/// listing's sponsored cards (17 on the 200-film Movies page) are kept this way.
final class DrawnOnce<Value: Equatable & Sendable>: Sendable {
    static var capacity: Int { 1024 }
    private let table = Mutex<[String: (value: Value, html: String)]>([:])

    func html(_ value: Value, key: String, draw: () throws -> String) rethrows -> String {
        if let kept = table.withLock({ $0[key] }), kept.value == value { return kept.html }
        let html = try draw()
        table.withLock { table in
            if table.count >= Self.capacity { table.removeAll(keepingCapacity: true) }
            table[key] = (value, html)
        }
        return html
    }
}

extension DrawnOnce where Value == OfferService.TitleOffers {
    /// A title's offers section (`offers/title_offers`).
    func html(_ offers: Value, title: TitleRef, renderer: PageRenderer) throws -> String {
        let key = "\(title)|\(offers.banner?.offer.id ?? 0)|" + offers.shops.map { String($0.offer.id) }.joined(separator: ",")
        return try html(offers, key: key) { try renderer.html(TitleOffersSection(offers: TitleOffersView(offers))) }
    }
}

extension DrawnOnce where Value == PlacedOffer {
    /// A listing's sponsored card (`offers/sponsored_card`).
    func html(_ offer: Value, renderer: PageRenderer) throws -> String {
        let key = "\(offer.offer.id)|\(offer.placement)|\(offer.listing ?? "")|\(offer.title.map { "\($0)" } ?? "")"
        return try html(offer, key: key) { try renderer.html(OfferCardView(offer)) }
    }
}

/// The detail pages' offers on their own (`offers/title_offers`), for the hole their page leaves.
struct TitleOffersSection: Page, MustacheParent {
    static let template = "offers/title_offers"
    let offers: TitleOffersView

    func child(named name: String) -> Any? { name == "offers" ? offers : nil }
}

/// Each title's offers context, made once per catalogue answer (the key names both): making it for
/// every view (canonical genres, the name and synopsis hashed, a show's summary read as text) was
/// 2.9 % of a kept show page's CPU and 1.3 % of a film's. Counted at about 2 KiB each: some 500.
final class TitleContexts: Sendable {
    private let table = Mutex(ByteBoundedTable<OfferContext>(maxBytes: 1024 * 1024))

    func context(_ key: String, make: () -> OfferContext) -> OfferContext {
        if let kept = table.withLock({ $0[key] }) { return kept }
        let made = make()
        table.withLock { $0.put(key, made, bytes: 2048) }
        return made
    }
}
