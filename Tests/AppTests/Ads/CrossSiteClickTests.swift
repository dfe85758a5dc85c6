import Foundation
import Hummingbird
import HummingbirdTesting
import PopcornAPI
import Testing

@testable import App

/// Another site's page cannot inflate an offer's clicks by embedding its link: what a browser marks
/// as a cross-site sub-resource is answered 204 and kept as a discarded click, never counted.
@Suite("Offer clicks: cross-site requests")
struct CrossSiteClickTests {
    @Test("a cross-site <img> of the click link: 204, no redirect, 0 counted and 1 discarded click")
    func crossSiteImage() async throws {
        try await TestApp.withOffers { app, shop in
            let id = try await app.addOffer(advertiser: shop, headline: "Popcorn Trio")
            try await app.test { client in
                let response = try await client.click(id, visitor: 1, fetch: .crossSiteImage, title: "movie:1001")
                #expect(response.status == .noContent)
                #expect(response.headers[.location] == nil && response.body.readableBytes == 0)
                #expect(response.headers[.cacheControl] == "no-store")
                let totals = try await app.clickTotals(id)
                #expect(totals.clicks == 0 && totals.discarded == 1 && totals.crossSite == 1 && totals.repeats == 0)
                #expect(try await app.clickRows() == ["cross-site": 1])
            }
        }
    }

    @Test(
        "cross-site requests that are not a followed link are discarded, whatever the destination or mode",
        arguments: [
            FetchHeaders(site: "cross-site", mode: "no-cors", dest: "script"),
            FetchHeaders(site: "cross-site", mode: "cors", dest: "empty"),
            FetchHeaders(site: "cross-site", mode: "no-cors", dest: "empty"),
            FetchHeaders(site: "cross-site", mode: "navigate", dest: "iframe"),
            FetchHeaders(site: "cross-site", mode: "no-cors", dest: "document"),
            FetchHeaders(site: "CROSS-SITE", mode: "no-cors", dest: "IMAGE"),
        ])
    func crossSiteSubresources(_ fetch: FetchHeaders) async throws {
        try await TestApp.withOffers { app, shop in
            let id = try await app.addOffer(advertiser: shop, headline: "Popcorn Trio")
            try await app.test { client in
                #expect(try await client.click(id, visitor: 1, fetch: fetch).status == .noContent)
                let totals = try await app.clickTotals(id)
                #expect(totals.clicks == 0 && totals.crossSite == 1)
            }
        }
    }

    @Test("a link followed from another site (navigate, document) counts, and a later cross-site image does not add to it")
    func crossSiteNavigation() async throws {
        try await TestApp.withOffers { app, shop in
            let id = try await app.addOffer(advertiser: shop, headline: "Popcorn Trio", landingURL: "https://shop.example.com/p")
            try await app.test { client in
                let followed = try await client.click(id, visitor: 1, fetch: .crossSiteLink)
                #expect(followed.status == .seeOther)
                #expect(followed.headers[.location]?.hasPrefix("https://shop.example.com/p?utm_source=popcornswirl&") == true)
                _ = try await client.click(id, visitor: 2, fetch: .crossSiteImage)
                let totals = try await app.clickTotals(id)
                #expect(totals.clicks == 1 && totals.crossSite == 1 && totals.repeats == 0)
            }
        }
    }

    @Test("a cross-site image first does not use up the visitor's window: their own click afterwards counts")
    func crossSiteDoesNotBlockRealClick() async throws {
        try await TestApp.withOffers { app, shop in
            let id = try await app.addOffer(advertiser: shop, headline: "Popcorn Trio")
            try await app.test { client in
                for _ in 0..<5 { _ = try await client.click(id, visitor: 1, fetch: .crossSiteImage) }
                #expect(try await client.click(id, visitor: 1, fetch: .ownLink).status == .seeOther)
                let totals = try await app.clickTotals(id)
                #expect(totals.clicks == 1 && totals.crossSite == 5)
            }
        }
    }

    @Test("the console's report, its CSV, the dashboard and the admin API show counted and discarded clicks apart; CTR from counted ones")
    func reportShowsDiscarded() async throws {
        try await TestApp.withOffers(.demo) { app, _ in
            try await app.test { client in
                let cookie = try await app.seedAdmin(token: testToken("clicks"))
                let offer = try await app.storedOffer(5)
                for visitor in ["a", "b", "c", "d"] { app.services.offers.tracker.impressions([offer], viewer: .test(visitor)) }
                for _ in 0..<3 { _ = try await client.click(5, visitor: 1) }
                _ = try await client.click(5, visitor: 2, fetch: .crossSiteImage)
                let today = UTCFormatters.day.string(from: app.clock.now())
                let html = try await client.get("/admin/offers/5/report?from=\(today)&to=\(today)", cookie: cookie).text
                #expect(html.contains(#"<th scope="col" class="num">Clicks</th><th scope="col" class="num">Discarded</th>"#))
                #expect(
                    html.contains(
                        #"<th scope="row">\#(today)</th><td class="num">4</td><td class="num">1</td><td class="num">3</td><td class="num">25.0 %</td>"#
                    ))
                #expect(html.contains("Discarded in this range: 2 repeated within 30 minutes, 1 requested by another site"))
                #expect(html.contains("\(today): 1 clicks counted, 3 discarded"))
                let csv = try await client.get("/admin/offers/5/report.csv?from=\(today)&to=\(today)", cookie: cookie).text
                #expect(
                    csv
                        == "day,impressions,clicks,ctr_percent,discarded_repeat,discarded_cross_site,orders,revenue_usd,conversion_percent,"
                        + "discarded_address_cap\r\n" + "\(today),4,1,25.00,2,1,0,0.00,0.00,0\r\n")
                let dashboard = try await client.get("/admin/offers?from=\(today)&to=\(today)", cookie: cookie).text
                #expect(
                    dashboard.contains(#"<td class="num">4</td>"# + "\n    " + #"<td class="num">1</td>"# + "\n    " + #"<td class="num">3</td>"#))

                var headers = HTTPFields()
                headers[.authorization] = "Bearer \(testToken("clicks"))"
                headers[.accept] = "application/json"
                let api = try await client.execute(uri: "/api/v1/admin/offers/5/report?from=\(today)&to=\(today)", method: .get, headers: headers)
                let report = try APITests.decode(Schemas.OfferReport.self, api)
                #expect(report.totals.clicks == 1 && report.totals.discarded == 3 && report.totals.ctr == 25)
                #expect(report.totals.discardedRepeats == 2 && report.totals.discardedCrossSite == 1)
                #expect(report.rows.map(\.discarded) == [3])
            }
        }
    }
}
