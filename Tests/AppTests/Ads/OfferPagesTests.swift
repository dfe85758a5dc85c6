import FluentKit
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import App

/// Where offers appear: a title's banner and shops, and the listings' sponsored cards.
@Suite("Partner offers on the pages")
struct OfferPagesTests {
    // MARK: Detail pages

    @Test("a film page shows the best offer as a Sponsored banner and each related shop once under 'Shop related products'")
    func movieDetail() async throws {
        try await TestApp.withOffers(.shop("Reel Snacks", description: "Gourmet popcorn for movie nights.")) { app, snacks in
            let lumen = try await app.addAdvertiser("Lumen Den", domains: ["lumenden.example.com"])
            let prints = try await app.addAdvertiser("Spooky Prints")
            let best = try await app.addOffer(
                advertiser: snacks, headline: "Thriller Night Popcorn", genres: ["thriller"], weight: 9, priceText: "$12.50")
            let second = try await app.addOffer(advertiser: snacks, headline: "Second Snack Box", genres: ["thriller"], weight: 2)
            let soundbar = try await app.addOffer(
                advertiser: lumen, headline: "Thunder Soundbar", landingURL: "https://lumenden.example.com/soundbar", genres: ["thriller"], weight: 5
            )
            let unrelated = try await app.addOffer(
                advertiser: prints, headline: "Haunted House Poster", genres: ["horror"], keywords: ["ghost"], weight: 50)
            try await app.test { client in
                let response = try await client.get("/movies/1001")
                #expect(response.status == .ok)
                let html = response.text
                #expect(html.contains("<h1>Middle Of The Year"))
                let banner = try #require(html.range(of: #"<aside class="offer-banner""#).map { String(html[$0.lowerBound...].prefix(1200)) })
                #expect(banner.contains(#"data-offer-id="\#(best)""#))
                #expect(banner.contains("Sponsored · Reel Snacks"))
                #expect(banner.contains("Thriller Night Popcorn"))
                #expect(banner.contains("$12.50 · Shop now"))
                #expect(banner.contains(#"href="/offers/\#(best)/go?placement=banner&amp;title=movie:1001""#))
                #expect(banner.contains(#"rel="sponsored""#))
                #expect(html.contains("Shop related products"))
                let snacksRow = try #require(html.range(of: #"<li class="shop" data-offer-id="\#(best)""#))
                let lumenRow = try #require(html.range(of: #"<li class="shop" data-offer-id="\#(soundbar)""#))
                #expect(snacksRow.lowerBound < lumenRow.lowerBound)
                #expect(html.contains("Gourmet popcorn for movie nights."))
                #expect(html.contains(#"href="/offers/\#(soundbar)/go?placement=shop&amp;title=movie:1001""#))
                #expect(html.contains("Lumen Den"))
                // One row per shop (its best offer); unrelated offers nowhere.
                #expect(!html.contains("Second Snack Box"))
                #expect(!html.contains(#"data-offer-id="\#(second)""#))
                #expect(!html.contains("Haunted House Poster") && !html.contains("Spooky Prints"))
                #expect(!html.contains(#"data-offer-id="\#(unrelated)""#))
                #expect(Set(OfferHTML.offerIDs(html)) == [best, soundbar])
            }
        }
    }

    @Test("a fresh install shows the seeded demo offers, marked as demo")
    func demoSeed() async throws {
        try await TestApp.withOffers(.demo) { app, _ in
            let seeded = try await OfferModel.query(on: app.db).filter(\.$demo == true).count()
            #expect(seeded > 0)
            try await app.test { client in
                let html = try await client.get("/movies/1001").text
                #expect(html.contains(#"<aside class="offer-banner""#))
                #expect(html.contains("· demo</span>"))
                #expect(html.contains("Shop related products"))
                #expect(OfferHTML.offerIDs(html).count >= 2)
            }
        }
    }

    @Test("a show page shows a show offer and never a film-only offer; a film page never a show-only offer")
    func showDetail() async throws {
        try await TestApp.withOffers(.shop("Binge Supplies")) { app, shop in
            let showOffer = try await app.addOffer(advertiser: shop, headline: "Midnight Binge Box", genres: ["sci-fi"], media: .show, weight: 3)
            let filmOnly = try await app.addOffer(
                advertiser: shop, headline: "Film Only Projector", genres: ["sci-fi", "adventure"], media: .movie, weight: 50)
            try await app.test { client in
                let html = try await client.get("/shows/45499").text
                #expect(html.contains("The Midnight Gospel"))
                #expect(html.contains(#"<aside class="offer-banner" aria-label="Sponsored offer" data-offer-id="\#(showOffer)">"#))
                #expect(html.contains("Midnight Binge Box"))
                #expect(html.contains(#"href="/offers/\#(showOffer)/go?placement=banner&amp;title=show:45499""#))
                #expect(!html.contains("Film Only Projector"))
                #expect(!html.contains(#"data-offer-id="\#(filmOnly)""#))

                // "Last Year's Hit" is Action & Adventure: the film offer, never the show offer.
                let film = try await client.get("/movies/2001").text
                #expect(film.contains("Film Only Projector"))
                #expect(film.contains(#"href="/offers/\#(filmOnly)/go?placement=banner&amp;title=movie:2001""#))
                #expect(!film.contains("Midnight Binge Box"))
            }
        }
    }

    @Test("offer text from the shop is escaped on every page")
    func escaping() async throws {
        try await TestApp.withOffers(.shop("<b>Evil</b> & Sons", description: "\"><img src=x onerror=alert(1)>"), upstream: .withListings()) {
            app, shop in
            try await app.addOffer(advertiser: shop, headline: "<script>alert(1)</script> Deal", priceText: "<i>$1</i>")
            try await app.test { client in
                for (number, path) in ["/movies/1001", "/movies?year=2024", "/shows/45499", "/shows"].enumerated() {
                    let html = try await client.get(path, cookie: Visitors.cookie(number)).text
                    #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; Deal"), "\(path)")
                    #expect(!html.contains("<script>alert(1)"), "\(path)")
                    #expect(!html.contains("<b>Evil</b>") && !html.contains("<i>$1</i>") && !html.contains("<img src=x"), "\(path)")
                }
            }
        }
    }

    // MARK: Listings

    @Test("the Movies grid has exactly one Sponsored card, right after the 12th film, for anonymous and signed-in visitors")
    func moviesGrid() async throws {
        try await TestApp.withOffers(.shop("Drama Club"), upstream: .withListings(films: 20)) { app, shop in
            let filmOffer = try await app.addOffer(advertiser: shop, headline: "Drama Club Box", genres: ["drama"], media: .movie, weight: 5)
            let showOnly = try await app.addOffer(advertiser: shop, headline: "Show Only Deal", genres: ["drama"], media: .show, weight: 50)
            try await app.test { client in
                let session = try #require(try await client.postForm("/library/movies/7001", [("favorite", "1")]).sessionCookie)
                for cookie in [nil, session] {
                    let response = try await client.get("/movies?year=2024", cookie: cookie)
                    #expect(response.status == .ok)
                    let html = response.text
                    #expect(OfferHTML.cards(html).count == 21, "\(cookie ?? "anonymous")")
                    #expect(OfferHTML.sponsoredIndexes(html) == [12], "\(cookie ?? "anonymous")")
                    let card = String(OfferHTML.cards(html)[12])
                    #expect(card.contains(#"data-offer-id="\#(filmOffer)""#))
                    #expect(card.contains("Sponsored"))
                    #expect(card.contains("Drama Club Box"))
                    #expect(card.contains(#"href="/offers/\#(filmOffer)/go?placement=sponsored&amp;listing=movies-2024""#))
                    #expect(!html.contains("Show Only Deal") && !html.contains(#"data-offer-id="\#(showOnly)""#))
                    // The signed-in page is that visitor's own page: their favorite is pressed.
                    #expect(html.contains(#"aria-pressed="true">Favorite ✓"#) == (cookie != nil))
                }
            }
        }
    }

    @Test(
        "sponsored cards follow every full run of 12 cards, and close a listing shorter than 12; each slot a different offer",
        arguments: [
            (1, [1]), (11, [11]), (12, [12]), (23, [12]), (24, [12, 25]),
        ])
    func slotsPerCardCount(films: Int, expected: [Int]) async throws {
        try await TestApp.withOffers(.shop("Drama Club"), upstream: .withListings(films: films)) { app, shop in
            try await app.addOffer(advertiser: shop, headline: "First Box", genres: ["drama"], weight: 5)
            try await app.addOffer(advertiser: shop, headline: "Second Box", genres: ["comedy"], weight: 4)
            try await app.test { client in
                let html = try await client.get("/movies?year=2024").text
                #expect(OfferHTML.cards(html).count == films + expected.count)
                #expect(OfferHTML.sponsoredIndexes(html) == expected)
                #expect(OfferHTML.offerIDs(html).count == expected.count)
                #expect(!html.contains(SponsoredSlots.marker))
            }
        }
    }

    @Test("the TV Shows grid has exactly one Sponsored card after the 12th show, with a show offer, for anonymous and signed-in visitors")
    func showsGrid() async throws {
        try await TestApp.withOffers(.shop("Binge Supplies"), upstream: .withListings(shows: 20)) { app, shop in
            let showOffer = try await app.addOffer(advertiser: shop, headline: "Binge Box", genres: ["drama"], media: .show, weight: 5)
            try await app.addOffer(advertiser: shop, headline: "Film Only Deal", genres: ["drama"], media: .movie, weight: 50)
            try await app.test { client in
                let session = try #require(try await client.postForm("/library/shows/9001", [("favorite", "1")]).sessionCookie)
                for cookie in [nil, session] {
                    let response = try await client.get("/shows", cookie: cookie)
                    #expect(response.status == .ok)
                    let html = response.text
                    #expect(html.contains("Generated Show 1"))
                    #expect(OfferHTML.cards(html).count == 21, "\(cookie ?? "anonymous")")
                    #expect(OfferHTML.sponsoredIndexes(html) == [12], "\(cookie ?? "anonymous")")
                    let card = String(OfferHTML.cards(html)[12])
                    #expect(card.contains(#"data-offer-id="\#(showOffer)""#) && card.contains("Binge Box") && card.contains("Sponsored"))
                    #expect(!html.contains("Film Only Deal"))
                    // The signed-in page is that visitor's own page: their favorite offers Delete.
                    #expect(String(OfferHTML.cards(html)[0]).contains("btn-delete-show") == (cookie != nil))
                }
            }
        }
    }
}
