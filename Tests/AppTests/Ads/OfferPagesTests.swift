import FluentKit
import Foundation
import Hummingbird
import HummingbirdTesting
import SQLKit
import Testing

@testable import App

@Suite("Partner offers on the pages")
struct OfferPagesTests {
    // MARK: Detail pages

    @Test("a film page shows the best offer as a Sponsored banner and each related shop once under 'Shop related products'")
    func movieDetail() async throws {
        try await TestApp.with { app in
            try await app.removeAllOffers()
            let snacks = try await app.addAdvertiser("Reel Snacks", description: "Gourmet popcorn for movie nights.")
            let lumen = try await app.addAdvertiser("Lumen Den", domains: ["lumenden.example.com"])
            let prints = try await app.addAdvertiser("Spooky Prints")
            let best = try await app.addOffer(advertiser: snacks, headline: "Thriller Night Popcorn", genres: ["thriller"], weight: 9, priceText: "$12.50")
            let second = try await app.addOffer(advertiser: snacks, headline: "Second Snack Box", genres: ["thriller"], weight: 2)
            let soundbar = try await app.addOffer(
                advertiser: lumen, headline: "Thunder Soundbar", landingURL: "https://lumenden.example.com/soundbar", genres: ["thriller"], weight: 5
            )
            let unrelated = try await app.addOffer(advertiser: prints, headline: "Haunted House Poster", genres: ["horror"], keywords: ["ghost"], weight: 50)
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
                #expect(banner.contains(#"href="/offers/\#(best)/go?title=movie:1001""#))
                #expect(banner.contains(#"rel="sponsored""#))
                #expect(html.contains("Shop related products"))
                let snacksRow = try #require(html.range(of: #"<li class="shop" data-offer-id="\#(best)""#))
                let lumenRow = try #require(html.range(of: #"<li class="shop" data-offer-id="\#(soundbar)""#))
                #expect(snacksRow.lowerBound < lumenRow.lowerBound)
                #expect(html.contains("Gourmet popcorn for movie nights."))
                #expect(html.contains(#"href="/offers/\#(soundbar)/go?title=movie:1001""#))
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
        try await TestApp.with { app in
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
        try await TestApp.with { app in
            try await app.removeAllOffers()
            let shop = try await app.addAdvertiser("Binge Supplies")
            let showOffer = try await app.addOffer(advertiser: shop, headline: "Midnight Binge Box", genres: ["sci-fi"], media: .show, weight: 3)
            let filmOnly = try await app.addOffer(advertiser: shop, headline: "Film Only Projector", genres: ["sci-fi", "adventure"], media: .movie, weight: 50)
            try await app.test { client in
                let html = try await client.get("/shows/45499").text
                #expect(html.contains("The Midnight Gospel"))
                #expect(html.contains(#"<aside class="offer-banner" aria-label="Sponsored offer" data-offer-id="\#(showOffer)">"#))
                #expect(html.contains("Midnight Binge Box"))
                #expect(html.contains(#"href="/offers/\#(showOffer)/go?title=show:45499""#))
                #expect(!html.contains("Film Only Projector"))
                #expect(!html.contains(#"data-offer-id="\#(filmOnly)""#))

                // "Last Year's Hit" is Action & Adventure: the film offer, never the show offer.
                let film = try await client.get("/movies/2001").text
                #expect(film.contains("Film Only Projector"))
                #expect(film.contains(#"href="/offers/\#(filmOnly)/go?title=movie:2001""#))
                #expect(!film.contains("Midnight Binge Box"))
            }
        }
    }

    @Test("offer text from the shop is escaped on every page")
    func escaping() async throws {
        try await TestApp.with(upstream: .withListings()) { app in
            try await app.removeAllOffers()
            let shop = try await app.addAdvertiser("<b>Evil</b> & Sons", description: "\"><img src=x onerror=alert(1)>")
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
        try await TestApp.with(upstream: .withListings(films: 20)) { app in
            try await app.removeAllOffers()
            let shop = try await app.addAdvertiser("Drama Club")
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
                    #expect(card.contains(#"href="/offers/\#(filmOffer)/go""#))
                    #expect(!html.contains("Show Only Deal") && !html.contains(#"data-offer-id="\#(showOnly)""#))
                    // The signed-in page is that visitor's own page: their favourite is pressed.
                    #expect(html.contains(#"aria-pressed="true">Favorite ✓"#) == (cookie != nil))
                }
            }
        }
    }

    @Test("sponsored cards follow every full run of 12 cards, each slot a different offer", arguments: [
        (11, [Int]()), (12, [12]), (23, [12]), (24, [12, 25]),
    ])
    func slotsPerCardCount(films: Int, expected: [Int]) async throws {
        try await TestApp.with(upstream: .withListings(films: films)) { app in
            try await app.removeAllOffers()
            let shop = try await app.addAdvertiser("Drama Club")
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
        try await TestApp.with(upstream: .withListings(shows: 20)) { app in
            try await app.removeAllOffers()
            let shop = try await app.addAdvertiser("Binge Supplies")
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
                    // The signed-in page is that visitor's own page: their favourite offers Delete.
                    #expect(String(OfferHTML.cards(html)[0]).contains("btn-delete-show") == (cookie != nil))
                }
            }
        }
    }

    // MARK: Paused, ended, unknown

    @Test("paused, ended and not-yet-started offers appear on no page, and their click-through is a 404")
    func notLive() async throws {
        try await TestApp.with(upstream: .withListings()) { app in
            try await app.removeAllOffers()
            let shop = try await app.addAdvertiser("Any Shop")
            let live = try await app.addOffer(advertiser: shop, headline: "Live Deal", weight: 1)
            let paused = try await app.addOffer(advertiser: shop, headline: "Paused Deal", weight: 50, active: false)
            let expired = try await app.addOffer(advertiser: shop, headline: "Expired Deal", endsOn: "2026-11-17", weight: 50)
            let scheduled = try await app.addOffer(advertiser: shop, headline: "Scheduled Deal", startsOn: "2026-11-19", weight: 50)
            try await app.test { client in
                // Each page as a different visitor: the one live offer is never capped.
                for (number, path) in ["/movies/1001", "/movies?year=2024", "/shows/45499", "/shows"].enumerated() {
                    let html = try await client.get(path, cookie: Visitors.cookie(number)).text
                    #expect(html.contains("Live Deal"), "\(path)")
                    for hidden in ["Paused Deal", "Expired Deal", "Scheduled Deal"] { #expect(!html.contains(hidden), "\(path): \(hidden)") }
                    #expect(Set(OfferHTML.offerIDs(html)) == [live], "\(path)")
                }
                for id in [paused, expired, scheduled] {
                    let response = try await client.get("/offers/\(id)/go?title=movie:1001")
                    #expect(response.status == .notFound, "\(id)")
                    #expect(response.headers[.location] == nil)
                    #expect(response.text.contains("This offer has ended or does not exist"))
                }
                #expect(try await client.get("/offers/\(live)/go").status == .seeOther)
                let clicks = try await app.rows("offer_clicks")
                #expect(clicks == 1)
            }
        }
    }

    @Test("unknown and malformed offer ids are a 404", arguments: [
        "/offers/999999/go", "/offers/abc/go", "/offers/0/go", "/offers/-1/go", "/offers/1.5/go", "/offers/99999999999999999999/go",
        "/offers/%31/go", "/offers/1e3/go",
    ])
    func unknownOffer(path: String) async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let response = try await client.get(path)
                #expect(response.status == .notFound)
                #expect(response.headers[.location] == nil)
            }
            let clicks = try await app.rows("offer_clicks")
            #expect(clicks == 0)
        }
    }

    @Test("pausing an offer stops its clicks at once, even while pages still hold the old list; its last day ends at midnight UTC")
    func pauseAndEnd() async throws {
        try await TestApp.with { app in
            try await app.removeAllOffers()
            let shop = try await app.addAdvertiser("Any Shop")
            let paused = try await app.addOffer(advertiser: shop, headline: "Soon Paused", weight: 5)
            let lastDay = try await app.addOffer(advertiser: shop, headline: "Last Day Deal", endsOn: "2026-11-18", weight: 1)
            try await app.test { client in
                #expect(try await client.get("/movies/1001").text.contains("Soon Paused"))
                let row = try #require(try await OfferModel.find(paused, on: app.db))
                row.active = false
                try await row.save(on: app.db)
                // No invalidate(): another server paused it.
                #expect(try await client.get("/offers/\(paused)/go").status == .notFound)
                #expect(try await client.get("/offers/\(lastDay)/go").status == .seeOther)
                app.clock.advance(24 * 3600)
                #expect(try await client.get("/offers/\(lastDay)/go").status == .notFound)
                #expect(!(try await client.get("/movies/1001").text.contains("Last Day Deal")))
            }
        }
    }

    // MARK: Click-through

    @Test("a click is counted and answered 303 to the shop with campaign, title and store parameters, never cached")
    func clickThrough() async throws {
        try await TestApp.with { app in
            try await app.removeAllOffers()
            let shop = try await app.addAdvertiser("Reel Snacks")
            let landing = "https://shop.example.com/products/popcorn-trio"
            let id = try await app.addOffer(advertiser: shop, headline: "Popcorn Trio", landingURL: landing)
            try await app.test { client in
                let response = try await client.get("/offers/\(id)/go?title=movie:1005")
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == landing
                    + "?utm_source=popcornswirl&utm_medium=offer&utm_campaign=\(id)&title_id=movie%3A1005"
                    + "&title_name=Undated%20%3CMystery%3E%20%26%20Co&store=US")
                #expect(response.headers[.cacheControl] == "no-store")
                #expect(try await app.rows("offer_clicks") == 1)

                let show = try await client.get("/offers/\(id)/go?title=show:45499")
                #expect(show.headers[.location] == landing
                    + "?utm_source=popcornswirl&utm_medium=offer&utm_campaign=\(id)&title_id=show%3A45499&title_name=The%20Midnight%20Gospel&store=US")

                let plain = try await client.get("/offers/\(id)/go")
                #expect(plain.headers[.location] == landing + "?utm_source=popcornswirl&utm_medium=offer&utm_campaign=\(id)&store=US")

                // A title that does not exist is left out rather than passed to the shop.
                let unknown = try await client.get("/offers/\(id)/go?title=movie:999999")
                #expect(unknown.status == .seeOther)
                #expect(unknown.headers[.location] == landing + "?utm_source=popcornswirl&utm_medium=offer&utm_campaign=\(id)&store=US")

                // Every click is a row, repeat clicks included.
                _ = try await client.get("/offers/\(id)/go?title=movie:1005")
                #expect(try await app.rows("offer_clicks") == 5)
                let rows = try await app.services.database.sql.raw("""
                    SELECT offer_id, advertiser_id, title, day FROM offer_clicks ORDER BY clicked_at, title
                    """).all()
                let titles = try rows.map { try $0.decode(column: "title", as: String?.self) }
                #expect(titles.filter { $0 == "movie:1005" }.count == 2)
                #expect(titles.filter { $0 == "show:45499" }.count == 1)
                #expect(titles.filter { $0 == nil }.count == 2)
                for row in rows {
                    #expect(try row.decode(column: "offer_id", as: Int.self) == id)
                    #expect(try row.decode(column: "advertiser_id", as: Int.self) == shop)
                    #expect(try row.decode(column: "day", as: String.self) == "2026-11-18")
                }
            }
        }
    }

    @Test("a click the database cannot record still takes the visitor to the shop")
    func clickWithoutRecord() async throws {
        try await TestApp.with { app in
            try await app.removeAllOffers()
            let shop = try await app.addAdvertiser("Reel Snacks")
            let id = try await app.addOffer(advertiser: shop, headline: "Popcorn Trio", landingURL: "https://shop.example.com/p")
            try await app.services.database.sql.raw("DROP TABLE offer_clicks").run()
            try await app.test { client in
                let response = try await client.get("/offers/\(id)/go?title=movie:1001")
                #expect(response.status == .seeOther)
                #expect(response.headers[.location]?.hasPrefix("https://shop.example.com/p?utm_source=popcornswirl&") == true)
            }
        }
    }

    // MARK: Impressions

    @Test("impressions: one per visitor, shown offer and day, whatever the number of views")
    func impressions() async throws {
        try await TestApp.with { app in
            try await app.removeAllOffers()
            let snacks = try await app.addAdvertiser("Reel Snacks")
            let lumen = try await app.addAdvertiser("Lumen Den")
            try await app.addOffer(advertiser: snacks, headline: "Thriller Night Popcorn", genres: ["thriller"], weight: 9)
            try await app.addOffer(advertiser: lumen, headline: "Thunder Soundbar", genres: ["thriller"], weight: 5)
            try await app.test { client in
                let first = try await client.get("/movies/1001")
                let visitor = try #require(first.visitorCookie)
                let shown = OfferHTML.offerIDs(first.text)
                #expect(shown.count == 2)
                #expect(try await app.impressionRows() == shown.count)

                let again = try await client.get("/movies/1001", cookie: visitor)
                #expect(again.visitorCookie == nil)
                #expect(Set(OfferHTML.offerIDs(again.text)) == Set(shown))
                #expect(try await app.impressionRows() == shown.count)

                // Another browser (no cookie yet, another User-Agent) is another visitor.
                var headers = HTTPFields()
                headers[.userAgent] = "Another Browser/1.0"
                let other = try await client.execute(uri: "/movies/1001", method: .get, headers: headers)
                #expect(other.visitorCookie != nil && other.visitorCookie != visitor)
                #expect(try await app.impressionRows() == 2 * shown.count)

                app.clock.advance(24 * 3600)
                _ = try await client.get("/movies/1001", cookie: visitor)
                #expect(try await app.impressionRows() == 3 * shown.count)
                let days = try await app.services.database.sql.raw("SELECT DISTINCT day FROM offer_impressions ORDER BY day").all()
                    .map { try $0.decode(column: "day", as: String.self) }
                #expect(days == ["2026-11-18", "2026-11-19"])
            }
        }
    }

    @Test("a sponsored card counts an impression for its offer")
    func listingImpressions() async throws {
        try await TestApp.with(upstream: .withListings()) { app in
            try await app.removeAllOffers()
            let shop = try await app.addAdvertiser("Drama Club")
            let id = try await app.addOffer(advertiser: shop, headline: "Drama Club Box", genres: ["drama"])
            try await app.test { client in
                let page = try await client.get("/movies?year=2024")
                #expect(OfferHTML.offerIDs(page.text) == [id])
                let visitor = try #require(page.visitorCookie)
                _ = try await client.get("/movies?year=2024", cookie: visitor)
                #expect(try await app.impressionRows() == 1)
                let row = try await app.services.database.sql.raw("SELECT offer_id, advertiser_id FROM offer_impressions").first()
                #expect(try row?.decode(column: "offer_id", as: Int.self) == id)
                #expect(try row?.decode(column: "advertiser_id", as: Int.self) == shop)
            }
        }
    }

    @Test("a client that keeps no cookies stays one visitor: one impression a day, and capped after three views")
    func cookielessClient() async throws {
        try await TestApp.with { app in
            try await app.removeAllOffers()
            let shop = try await app.addAdvertiser("Reel Snacks")
            let id = try await app.addOffer(advertiser: shop, headline: "Thriller Night Popcorn", genres: ["thriller"])
            try await app.test { client in
                var banners = 0
                for _ in 1...5 {
                    let html = try await client.get("/movies/1001").text
                    if html.contains(#"<aside class="offer-banner""#) { banners += 1 }
                }
                #expect(banners == 3)
                #expect(try await app.impressionRows() == 1)
                let row = try await app.services.database.sql.raw("SELECT offer_id FROM offer_impressions").first()
                #expect(try row?.decode(column: "offer_id", as: Int.self) == id)
            }
        }
    }

    // MARK: Failure

    @Test("without the offers table every page still works, just without offers")
    func offersTableGone() async throws {
        try await TestApp.with(upstream: .withListings()) { app in
            app.services.offers.store.invalidate()
            try await app.services.database.sql.raw("DROP TABLE offers").run()
            try await app.test { client in
                let detail = try await client.get("/movies/1001")
                #expect(detail.status == .ok)
                #expect(detail.text.contains("<h1>Middle Of The Year"))
                #expect(!OfferHTML.hasOfferMarkup(detail.text))

                let grid = try await client.get("/movies?year=2024")
                #expect(grid.status == .ok)
                #expect(grid.text.contains("Generated Film 1"))
                #expect(OfferHTML.cards(grid.text).count == 20)
                #expect(!OfferHTML.hasOfferMarkup(grid.text))
                #expect(!grid.text.contains(SponsoredSlots.marker))

                let session = try #require(try await client.postForm("/library/movies/1001", [("favorite", "1")]).sessionCookie)
                let personal = try await client.get("/movies?year=2024", cookie: session)
                #expect(personal.status == .ok)
                #expect(!OfferHTML.hasOfferMarkup(personal.text))

                for path in ["/shows/45499", "/shows", "/"] {
                    let response = try await client.get(path)
                    #expect(response.status == .ok, "\(path)")
                    #expect(!OfferHTML.hasOfferMarkup(response.text), "\(path)")
                }
            }
        }
    }

    @Test("when impressions cannot be written, pages are unaffected and nothing is lost once the table is back")
    func impressionsTableGone() async throws {
        try await TestApp.with { app in
            try await app.removeAllOffers()
            let shop = try await app.addAdvertiser("Reel Snacks")
            try await app.addOffer(advertiser: shop, headline: "Thriller Night Popcorn", genres: ["thriller"])
            try await app.services.database.sql.raw("ALTER TABLE offer_impressions RENAME TO offer_impressions_away").run()
            try await app.test { client in
                let response = try await client.get("/movies/1001")
                #expect(response.status == .ok)
                #expect(response.text.contains("Thriller Night Popcorn"))
                await app.services.offers.tracker.flush()
                try await app.services.database.sql.raw("ALTER TABLE offer_impressions_away RENAME TO offer_impressions").run()
                #expect(try await app.impressionRows() == 1)
            }
        }
    }
}
