import Foundation
import Logging

/// Chooses, places and counts partner offers. Pages call it and never fail because of it: any
/// error means "no offers on this page".
public final class OfferService: Sendable {
    /// Advertisers listed under "Shop related products".
    static let shopLimit = 6
    /// Rankings before the cap, by all they read (`Caches.rankings`): a busy page is ranked once.
    let rankings: DeclaredCache<RankingKey, RankedOffers>

    let store: OfferStore
    let tracker: OfferTracker
    let cap: FrequencyCap
    let clock: any AppClock
    let logger: Logger
    /// The store orders are made for, pushed to shops with every click.
    let referringStore: ReferringStore
    let secrets: ShopSecrets
    /// `DEMO_OFFERS`: whether visitors are shown the seeded demo shops and offers (`demo`), whose
    /// landing pages are `.example` addresses that never load. When not, a demo offer is never
    /// chosen, counted or clicked through, as if it did not exist; the console still lists it.
    let showsDemo: Bool

    init(
        store: OfferStore, rankings: DeclaredCache<RankingKey, RankedOffers>, tracker: OfferTracker, cap: FrequencyCap = FrequencyCap(),
        clock: any AppClock, logger: Logger, referringStore: ReferringStore = ReferringStore(), showsDemo: Bool = false
    ) {
        self.store = store
        self.rankings = rankings
        self.tracker = tracker
        self.cap = cap
        self.clock = clock
        self.logger = logger
        self.referringStore = referringStore
        self.showsDemo = showsDemo
        secrets = ShopSecrets(database: store.database, clock: clock)
    }

    public struct TitleOffers: Sendable, Equatable {
        public let banner: PlacedOffer?
        public let shops: [PlacedOffer]
        static let none = TitleOffers(banner: nil, shops: [])
    }

    /// The best offer for a title (the banner) and each related shop with its best offer.
    func forTitle(_ context: OfferContext, viewer: OfferViewer) async -> TitleOffers {
        let pick = { (offers: [Offer]) in (offers.first.map { [$0] } ?? []) + OfferTargeting.bestPerAdvertiser(offers, limit: Self.shopLimit) }
        guard
            let (snapshot, allowed) = await choose(viewer: viewer, kind: context.title.kind, target: context.target, pick: pick)
        else { return .none }
        return TitleOffers(
            banner: allowed.first.flatMap { place($0, snapshot, title: context.title, .banner) },
            shops: OfferTargeting.bestPerAdvertiser(allowed, limit: Self.shopLimit).compactMap { place($0, snapshot, title: context.title, .shop) }
        )
    }

    /// Up to `slots` different offers for a listing's sponsored cards, best first.
    func forListing(_ listing: ListingContext, slots: Int, viewer: OfferViewer) async -> [PlacedOffer] {
        guard slots > 0,
            let (snapshot, allowed) = await choose(viewer: viewer, kind: listing.kind, target: listing.target, pick: { Array($0.prefix(slots)) })
        else { return [] }
        return allowed.prefix(slots).compactMap { place($0, snapshot, title: nil, .sponsored, listing: listing.name) }
    }

    /// A live offer by id, read from the database (not the page copy), so a pause anywhere takes
    /// effect at once. Nil: unknown, paused, expired, or its shop is gone or paused; demo, unless
    /// demo offers are shown.
    func liveOffer(_ id: Int) async throws -> Offer? {
        guard let row = try await OfferModel.find(id, on: store.database.db), let offer = OfferStore.offer(row),
            offer.isLive(on: tracker.day()),
            let shop = try await AdvertiserModel.find(offer.advertiserID, on: store.database.db), shop.pausedAt == nil,
            shows(offer, OfferStore.advertiser(shop))
        else { return nil }
        return offer
    }

    /// Counts the click (the first per visitor, offer and 30-minute window; later ones are recorded as
    /// discarded repeats) and returns where to send the visitor. A click the database refuses is queued
    /// for the next flush and logged, never shown: the visitor still reaches the shop at once.
    ///
    /// The shop is told the click's id, the referring store, where the offer was and with what
    /// title, signed with the shop's key (`ShopSignature`); a key that cannot be read leaves the
    /// link unsigned rather than the visitor stranded.
    func clickThrough(
        _ offer: Offer, title: ClickDetails.Title?, placement: Placement, listing: String?, viewer: OfferViewer
    ) async -> URL? {
        let clickID = UUID()
        do {
            try await tracker.click(offer, viewer: viewer, title: title?.ref, id: clickID)
        } catch {
            logger.warning("Offer click queued, the database refused it: \(error)", metadata: ["offer": "\(offer.id)"])
        }
        let secret: String?
        do {
            secret = try await secrets.current(offer.advertiserID)
        } catch {
            secret = nil
            logger.warning("Shop key unreadable, click-through sent unsigned: \(error)", metadata: ["offer": "\(offer.id)"])
        }
        let details = ClickDetails(
            clickID: clickID, placement: placement, listing: placement == .sponsored ? listing : nil, title: title,
            store: referringStore, at: clock.now())
        return ClickThrough.destination(offer: offer, details, secret: secret)
    }

    /// Records a request another site's page made for the click link without a visit, as a discarded
    /// click (never counted). Failures are queued and logged like clicks'.
    func discardCrossSite(_ offer: Offer, title: TitleRef?, viewer: OfferViewer) async {
        do {
            try await tracker.click(offer, viewer: viewer, title: title, discarded: .crossSite)
        } catch {
            logger.warning("Cross-site offer request queued, the database refused it: \(error)", metadata: ["offer": "\(offer.id)"])
        }
    }

    /// Ranks the live offers, drops those this visitor has seen too often, and counts what `pick`
    /// takes from the rest (cap and impressions). Nil when the offers cannot be read.
    private func choose(
        viewer: OfferViewer, kind: MediaKind?, target: OfferTarget, pick: ([Offer]) -> [Offer]
    ) async -> (OfferStore.Snapshot, [Offer])? {
        let snapshot: OfferStore.Snapshot
        do {
            snapshot = try await store.snapshot()
        } catch {
            logger.warning("Offers unavailable, page shown without them: \(error)")
            return nil
        }
        let now = clock.now()
        let day = tracker.day(now)
        let key = RankingKey(target: target, kind: kind, day: day, offers: snapshot.version)
        let ranked = rankings.value(key, bytes: { $0.ids.count * 16 + target.text.utf8.count + 256 }) {
            let offers = snapshot.offers.filter { offer in
                snapshot.advertisers[offer.advertiserID].map { $0.active && shows(offer, $0) } ?? false
            }
            return RankedOffers(OfferTargeting.rank(offers, day: day, kind: kind, for: target))
        }
        let byID = ranked.byID
        var shown: [Offer] = []
        let allowed = cap.claim(visitor: viewer.id, now: now, ranked: ranked.ids) { ids in
            shown = pick(ids.compactMap { byID[$0] })
            return shown.map(\.id)
        }.compactMap { byID[$0] }
        // "" is a client that keeps no cookies and is no browser (no `Sec-Fetch-Site`): not counted.
        if !viewer.id.isEmpty { tracker.impressions(shown, viewer: viewer, on: day) }
        return (snapshot, allowed)
    }

    /// Whether visitors may be shown this offer of this shop at all (its dates and pauses aside).
    private func shows(_ offer: Offer, _ shop: Advertiser) -> Bool {
        showsDemo || !(offer.demo || shop.demo)
    }

    private func place(
        _ offer: Offer, _ snapshot: OfferStore.Snapshot, title: TitleRef?, _ placement: Placement, listing: String? = nil
    ) -> PlacedOffer? {
        guard let advertiser = snapshot.advertisers[offer.advertiserID] else { return nil }
        return PlacedOffer(offer: offer, advertiser: advertiser, title: title, placement: placement, listing: listing)
    }
}

/// A ranking's whole input: the page's titles, the kind of offers, the day and the offers copy.
struct RankingKey: Hashable, Sendable {
    let target: OfferTarget
    let kind: MediaKind?
    let day: String
    let offers: Int
}

/// Offers in ranked order, with their ids and a table by id (kept with the ranking, not made per view).
struct RankedOffers: Sendable {
    let ids: [Int]
    let byID: [Int: Offer]

    init(_ offers: [Offer]) {
        ids = offers.map(\.id)
        byID = Dictionary(offers.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
