import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SQLKit
import Testing

@testable import App

/// What is recorded when an offer is shown or followed through the pages.
@Suite("Partner offers: clicks and impressions")
struct OfferRecordingTests {
    // MARK: Click-through

    @Test("a click is counted and answered 303 to the shop with campaign, title and store parameters, never cached")
    func clickThrough() async throws {
        try await TestApp.withOffers { app, shop in
            let landing = "https://shop.example.com/products/popcorn-trio"
            let id = try await app.addOffer(advertiser: shop, headline: "Popcorn Trio", landingURL: landing)
            try await app.test { client in
                let response = try await client.get("/offers/\(id)/go?title=movie:1005")
                #expect(response.status == .seeOther)
                let ours = "?utm_source=popcornswirl&utm_medium=offer&utm_campaign=\(id)&ps_click="
                #expect(response.headers[.location]?.hasPrefix(landing + ours) == true)
                let sent = try SmartMarketTests.parameters(response)
                #expect(sent["ps_title_kind"] == "movie" && sent["ps_title_id"] == "1005" && sent["ps_title_name"] == "Undated <Mystery> & Co")
                #expect(sent["ps_title_year"] == nil, "an undated film has no year to pass on")
                #expect(sent["ps_store"] == "popcornswirl" && sent["ps_store_country"] == "US" && sent["ps_placement"] == "banner")
                #expect(response.headers[.location]?.contains("&ps_title_name=Undated%20%3CMystery%3E%20%26%20Co&") == true)
                #expect(response.headers[.cacheControl] == "no-store")
                #expect(try await app.rows("offer_clicks") == 1)

                let show = try SmartMarketTests.parameters(try await client.get("/offers/\(id)/go?title=show:45499"))
                #expect(show["ps_title_kind"] == "show" && show["ps_title_id"] == "45499" && show["ps_title_name"] == "The Midnight Gospel")
                #expect(show["ps_title_year"] == "2020")

                let plain = try SmartMarketTests.parameters(try await client.get("/offers/\(id)/go"))
                #expect(plain["ps_title_kind"] == nil && plain["ps_title_id"] == nil && plain["ps_store"] == "popcornswirl")

                // A title that does not exist is left out rather than passed to the shop.
                let unknown = try await client.get("/offers/\(id)/go?title=movie:999999")
                #expect(unknown.status == .seeOther)
                #expect(try SmartMarketTests.parameters(unknown)["ps_title_id"] == nil)

                // This client (one visitor) is counted once in the window: that click is a row with its
                // title; the repeats are a count of the offer's day (no row each).
                _ = try await client.get("/offers/\(id)/go?title=movie:1005")
                #expect(try await app.rows("offer_clicks") == 1)
                #expect(try await app.clickRows() == ["counted": 1, "repeat": 4])
                let rows = try await app.services.database.sql.raw(
                    """
                    SELECT offer_id, advertiser_id, title, day FROM offer_clicks ORDER BY clicked_at, title
                    """
                ).all()
                #expect(try rows.map { try $0.decode(column: "title", as: String?.self) } == ["movie:1005"])
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
        try await TestApp.withOffers { app, shop in
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
        try await TestApp.withOffers { app, snacks in
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

                // Another User-Agent from the same address, still without a cookie, is not a new
                // visitor: changing it cannot inflate the counts.
                var headers = HTTPFields()
                headers[.userAgent] = "Another Browser/1.0"
                headers[FetchMetadata.siteHeader] = "none"
                let sameAddress = try await client.execute(uri: "/movies/1001", method: .get, headers: headers)
                #expect(sameAddress.visitorCookie == visitor)
                #expect(try await app.impressionRows() == shown.count)

                // A browser with its own visitor cookie is another visitor.
                _ = try await client.get("/movies/1001", cookie: Visitors.cookie(7))
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

    @Test("a page the offline worker keeps in the background counts no impression and uses none of the visitor's cap")
    func backgroundKeep() async throws {
        try await TestApp.withOffers { app, shop in
            try await app.addOffer(advertiser: shop, headline: "Thriller Night Popcorn", genres: ["thriller"])
            try await app.test { client in
                let visitor = try #require(try await client.get("/offline").visitorCookie)
                var headers = HTTPFields()
                headers[.cookie] = visitor
                headers[FetchMetadata.siteHeader] = "same-origin"
                headers[FetchMetadata.backgroundKeepHeader] = "1"
                for _ in 1...4 {
                    let kept = try await client.execute(uri: "/movies/1001", method: .get, headers: headers)
                    #expect(kept.status == .ok)
                }
                #expect(try await app.impressionRows() == 0)

                // The person then opens the page: the offer is shown and counted once.
                let seen = try await client.get("/movies/1001", cookie: visitor)
                #expect(seen.text.contains(#"<aside class="offer-banner""#))
                #expect(try await app.impressionRows() == 1)
            }
        }
    }

    @Test("a sponsored card counts an impression for its offer")
    func listingImpressions() async throws {
        try await TestApp.withOffers(.shop("Drama Club"), upstream: .withListings()) { app, shop in
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
        try await TestApp.withOffers { app, shop in
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

    @Test("a crawler (no cookies, no Sec-Fetch headers) gets its pages but writes no impression rows")
    func crawler() async throws {
        try await TestApp.withOffers { app, shop in
            try await app.addOffer(advertiser: shop, headline: "Thriller Night Popcorn", genres: ["thriller"])
            let statuses = try await app.test { client in
                var statuses: [HTTPResponse.Status] = []
                for path in ["/movies/1001", "/", "/movies/1001", "/search?q=Spider"] {
                    statuses.append(try await client.get(path, browser: false).status)
                }
                return statuses
            }
            #expect(statuses.allSatisfy { $0 == .ok })
            #expect(try await app.impressionRows() == 0)
        }
    }
}
