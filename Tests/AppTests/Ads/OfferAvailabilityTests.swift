import FluentKit
import Foundation
import Hummingbird
import HummingbirdTesting
import SQLKit
import Testing

@testable import App

/// Offers that must not be shown or followed, and pages that work without the offer tables.
@Suite("Partner offers: paused, ended, unknown, and missing tables")
struct OfferAvailabilityTests {
    // MARK: Paused, ended, unknown

    @Test("paused, ended and not-yet-started offers appear on no page, and their click-through is a 404")
    func notLive() async throws {
        try await TestApp.withOffers(.shop("Any Shop"), upstream: .withListings()) { app, shop in
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

    @Test(
        "unknown and malformed offer ids are a 404",
        arguments: [
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
        try await TestApp.withOffers(.shop("Any Shop")) { app, shop in
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
        try await TestApp.withOffers { app, shop in
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
