import Foundation
import Testing

@testable import App

@Suite("Frequency cap: the same offer at most 3 times an hour per visitor")
struct FrequencyCapTests {
    let start = Date(timeIntervalSince1970: 1_795_000_000)

    @Test("three views within the hour cap the offer; other offers and other visitors are unaffected")
    func capsAfterThree() {
        let cap = FrequencyCap()
        cap.record(visitor: "alice", offers: [7, 8], now: start)
        cap.record(visitor: "alice", offers: [7], now: start.addingTimeInterval(600))
        #expect(cap.capped(visitor: "alice", now: start.addingTimeInterval(601)).isEmpty)
        cap.record(visitor: "alice", offers: [7], now: start.addingTimeInterval(1200))
        #expect(cap.capped(visitor: "alice", now: start.addingTimeInterval(1201)) == [7])
        #expect(cap.capped(visitor: "bob", now: start.addingTimeInterval(1201)).isEmpty)
    }

    @Test("the window slides: an hour and a second after the first view the offer is shown again")
    func windowSlides() {
        let cap = FrequencyCap()
        for minute in [0, 10, 20] { cap.record(visitor: "alice", offers: [7], now: start.addingTimeInterval(Double(minute) * 60)) }
        #expect(cap.capped(visitor: "alice", now: start.addingTimeInterval(3599)) == [7])
        #expect(cap.capped(visitor: "alice", now: start.addingTimeInterval(3601)).isEmpty)
        // The third view still counts: one more view caps it again.
        cap.record(visitor: "alice", offers: [7], now: start.addingTimeInterval(3602))
        #expect(cap.capped(visitor: "alice", now: start.addingTimeInterval(3603)) == [7])
    }

    @Test("an offer shown twice on one page (banner and shop row) is one view")
    func oneViewPerPage() {
        let cap = FrequencyCap()
        cap.record(visitor: "alice", offers: [7, 7], now: start)
        cap.record(visitor: "alice", offers: [7, 7, 7], now: start.addingTimeInterval(1))
        #expect(cap.capped(visitor: "alice", now: start.addingTimeInterval(2)).isEmpty)
        cap.record(visitor: "alice", offers: [7], now: start.addingTimeInterval(3))
        #expect(cap.capped(visitor: "alice", now: start.addingTimeInterval(4)) == [7])
    }

    @Test("the capped offers it keeps between views are what counting every view says, over 3,000 random views and questions")
    func keptAnswerIsCounted() {
        var random = SplitMix(seed: 7)
        let cap = FrequencyCap(limit: 3, window: 600)
        var views: [(visitor: String, offer: Int, at: Double)] = []
        var now = 0.0
        for _ in 0..<3_000 {
            // Forward in time, sometimes asked again at the same moment.
            now += Double.random(in: 0...90, using: &random).rounded(.down)
            let visitor = ["alice", "bob"].randomElement(using: &random)!
            let at = start.addingTimeInterval(now)
            if Bool.random(using: &random) {
                let offers = (0..<Int.random(in: 1...2, using: &random)).map { _ in Int.random(in: 1...4, using: &random) }
                let allowed = cap.claim(visitor: visitor, now: at, ranked: offers, pick: { $0 })
                views += Set(allowed).map { (visitor, $0, now) }
            }
            let counted = Dictionary(grouping: views.filter { $0.visitor == visitor && now - $0.at < 600 }, by: \.offer)
            #expect(cap.capped(visitor: visitor, now: at) == Set(counted.filter { $0.value.count >= 3 }.keys), "at \(now)")
        }
    }

    @Test("a full visitor table makes room for a new visitor instead of growing")
    func boundedVisitors() {
        let cap = FrequencyCap(limit: 1, window: 3600, maxVisitors: 2)
        cap.record(visitor: "a", offers: [1], now: start)
        cap.record(visitor: "b", offers: [1], now: start)
        cap.record(visitor: "c", offers: [1], now: start.addingTimeInterval(10))
        #expect(cap.capped(visitor: "c", now: start.addingTimeInterval(11)) == [1])
    }

    @Test("OfferService: the 4th page for the same visitor gets the next best offer, others still the best; an hour later the best again")
    func serviceSkipsCapped() async throws {
        try await TestApp.withOffers(.shop("Night Shop")) { app, shop in
            let best = try await app.addOffer(advertiser: shop, headline: "Best", genres: ["thriller"], weight: 9)
            let next = try await app.addOffer(advertiser: shop, headline: "Next", genres: ["thriller"], weight: 5)
            let offers = app.services.offers
            let context = OfferFixtures.movie("Night Drive", genres: ["Thriller"], id: 1001)
            for _ in 1...3 {
                let page = await offers.forTitle(context, viewer: .test("alice"))
                #expect(page.banner?.offer.id == best)
                #expect(page.shops.map(\.offer.id) == [best])
            }
            let fourth = await offers.forTitle(context, viewer: .test("alice"))
            #expect(fourth.banner?.offer.id == next)
            #expect(fourth.shops.map(\.offer.id) == [next])
            let other = await offers.forTitle(context, viewer: .test("bob"))
            #expect(other.banner?.offer.id == best)

            app.clock.advance(3601)
            let later = await offers.forTitle(context, viewer: .test("alice"))
            #expect(later.banner?.offer.id == best)
        }
    }

    @Test("OfferService: a title's ranking is kept per title, but a title whose synopsis changed is ranked again")
    func titleRankingFollowsTheTitle() async throws {
        try await TestApp.withOffers(.shop("Night Shop")) { app, shop in
            let genre = try await app.addOffer(advertiser: shop, headline: "Genre", genres: ["thriller"], weight: 5)
            let keyword = try await app.addOffer(advertiser: shop, headline: "Keyword", keywords: ["submarine"], weight: 9)
            let offers = app.services.offers
            let plain = OfferFixtures.movie("Night Drive", genres: ["Thriller"], synopsis: "A drive at night.", id: 1001)
            #expect(await offers.forTitle(plain, viewer: .test("alice")).banner?.offer.id == genre)
            #expect(await offers.forTitle(plain, viewer: .test("bob")).banner?.offer.id == genre)
            let rewritten = OfferFixtures.movie("Night Drive", genres: ["Thriller"], synopsis: "A drive in a submarine.", id: 1001)
            #expect(await offers.forTitle(rewritten, viewer: .test("carol")).banner?.offer.id == keyword)
            let other = OfferFixtures.movie("Deep Blue", genres: ["Thriller"], synopsis: "A submarine.", id: 1002)
            #expect(await offers.forTitle(other, viewer: .test("dave")).banner?.offer.id == keyword)
        }
    }

    @Test("OfferService: a listing's sponsored card rotates to the next offer after three views")
    func listingSkipsCapped() async throws {
        try await TestApp.withOffers(.shop("Night Shop")) { app, shop in
            let best = try await app.addOffer(advertiser: shop, headline: "Best", genres: ["drama"], weight: 9)
            let next = try await app.addOffer(advertiser: shop, headline: "Next", genres: ["drama"], weight: 5)
            let listing = ListingContext(titles: [("Quiet Autumn", ["Drama"])], kind: .movie)
            var shown: [Int] = []
            for _ in 1...4 {
                shown += await app.services.offers.forListing(listing, slots: 1, viewer: .test("alice")).map(\.offer.id)
            }
            #expect(shown == [best, best, best, next])
            let other = await app.services.offers.forListing(listing, slots: 1, viewer: .test("bob"))
            #expect(other.map(\.offer.id) == [best])
        }
    }

    @Test("when every relevant offer is capped the page shows none rather than repeating one")
    func allCapped() async throws {
        try await TestApp.withOffers(.shop("Night Shop")) { app, shop in
            try await app.addOffer(advertiser: shop, headline: "Only", genres: ["thriller"])
            let context = OfferFixtures.movie("Night Drive", genres: ["Thriller"], id: 1001)
            for _ in 1...3 { _ = await app.services.offers.forTitle(context, viewer: .test("alice")) }
            let fourth = await app.services.offers.forTitle(context, viewer: .test("alice"))
            #expect(fourth.banner == nil)
            #expect(fourth.shops.isEmpty)
        }
    }
}
