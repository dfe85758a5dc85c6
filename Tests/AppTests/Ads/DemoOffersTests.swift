import Foundation
import Hummingbird
import HummingbirdTesting
import PopcornAPI
import Testing

@testable import App

/// `DEMO_OFFERS`: the seeded demo shops reach visitors only when it is set; the console says which.
@Suite("Demo offers (DEMO_OFFERS)")
struct DemoOffersTests {
    /// A fresh install as a deployment runs it: `DEMO_OFFERS` as an empty environment leaves it
    /// (the other tests switch the demo offers on).
    static func defaultDemoSetting(_ config: inout AppConfig) {
        config.demoOffers = AppConfig().demoOffers
    }

    @Test("DEMO_OFFERS is off unless set to 1 or true; anything but a yes or a no is refused")
    func setting() throws {
        #expect(AppConfig().demoOffers == false)
        #expect(try AppConfig.fromEnvironment([:]).demoOffers == false)
        for on in ["1", "true", "TRUE", "yes"] {
            #expect(try AppConfig.fromEnvironment(["DEMO_OFFERS": on]).demoOffers, "\(on)")
        }
        for off in ["0", "false", "no", " "] {
            #expect(try AppConfig.fromEnvironment(["DEMO_OFFERS": off]).demoOffers == false, "\(off)")
        }
        #expect(throws: AppConfig.ConfigError.self) { try AppConfig.fromEnvironment(["DEMO_OFFERS": "on please"]) }
    }

    @Test("a fresh install with the default configuration shows visitors no demo offer: pages, API, click-through, impressions")
    func hiddenByDefault() async throws {
        try await TestApp.with(upstream: .withListings(), configure: Self.defaultDemoSetting) { app in
            #expect(try await app.rows("offers") > 0, "the seed still ran: the demo offers are in the database")
            try await app.test { client in
                let visitor = try #require(try await client.get("/movies/1001").visitorCookie)
                for path in ["/movies/1001", "/shows/45499", "/movies?year=2024", "/shows", "/search?q=Spider"] {
                    let response = try await client.get(path, cookie: visitor)
                    #expect(response.status == .ok, "\(path)")
                    #expect(!OfferHTML.hasOfferMarkup(response.text), "\(path)")
                    #expect(!response.text.contains("Sponsored") && !response.text.contains(".example"), "\(path)")
                }
                let api = try await client.get("/api/v1/offers?title=movie:1001", cookie: visitor)
                #expect(api.status == .ok)
                let answer = try APITests.decode(Schemas.TitleOffers.self, api)
                #expect(answer.banner == nil && answer.offers.isEmpty)

                let click = try await client.get("/offers/1/go?placement=banner&title=movie:1001", cookie: visitor)
                #expect(click.status == .notFound, "a demo offer's click-through is refused like an unknown offer's")
                #expect(click.headers[.location] == nil)
            }
            #expect(try await app.impressionRows() == 0)
            #expect(try await app.rows("offer_clicks") == 0)
        }
    }

    @Test("with the demo offers hidden, a real shop's offer shows; one added to a demo shop does not")
    func realShopShown() async throws {
        try await TestApp.with(configure: Self.defaultDemoSetting) { app in
            let shop = try await app.addAdvertiser("Reel Cinema Supplies", domains: ["reelsupplies.com"])
            let real = try await app.addOffer(
                advertiser: shop, headline: "Thriller Night Popcorn", landingURL: "https://reelsupplies.com/popcorn", genres: ["thriller"])
            // Shop 1 is the seed's demo "Reel Snacks"; an offer of its own is still a demo shop's.
            let onDemoShop = try await app.addOffer(advertiser: 1, headline: "Demo Shop Extra", genres: ["thriller"], weight: 10)
            try await app.test { client in
                let html = try await client.get("/movies/1001").text
                #expect(OfferHTML.offerIDs(html) == [real])
                #expect(html.contains("Sponsored · Reel Cinema Supplies"))
                #expect(try await client.get("/offers/\(real)/go?placement=banner").status == .seeOther)
                #expect(try await client.get("/offers/\(onDemoShop)/go?placement=banner").status == .notFound)
            }
        }
    }

    @Test("the console lists the demo shops, says visitors do not see them and how to add a real shop")
    func consoleHint() async throws {
        try await TestApp.with(configure: Self.defaultDemoSetting) { app in
            let cookie = try await app.seedAdmin()
            try await app.test { client in
                let html = try await client.get("/admin/offers", cookie: cookie).text
                #expect(html.contains("Reel Snacks"), "the console still manages the demo shops")
                #expect(html.contains("are hidden from visitors. Set <code>DEMO_OFFERS=1</code> to show them."))
                #expect(!html.contains("are shown to visitors"))
                #expect(html.contains("<details open><summary>Adding a real shop</summary>"), "open while no real shop exists")
                #expect(html.contains("<strong>New shop</strong>: its name") && html.contains("<strong>New offer</strong>: choose the shop"))
                #expect(html.contains("the domains its links may point to"))

                try await app.addAdvertiser("Reel Cinema Supplies", domains: ["reelsupplies.com"])
                let later = try await client.get("/admin/offers", cookie: cookie).text
                #expect(later.contains("<details><summary>Adding a real shop</summary>"), "closed once a real shop exists")
            }
        }
    }

    @Test("with DEMO_OFFERS=1 the demo offers show on pages and in the API as before, and the console says so")
    func shownWhenSet() async throws {
        try await TestApp.with(upstream: .withListings(), configure: { $0.demoOffers = true }) { app in
            #expect(app.services.offers.showsDemo)
            let cookie = try await app.seedAdmin()
            try await app.test { client in
                let visitor = try #require(try await client.get("/movies/1001").visitorCookie)
                let film = try await client.get("/movies/1001", cookie: visitor).text
                #expect(film.contains(#"<aside class="offer-banner""#) && film.contains("Shop related products"))
                #expect(film.contains("· demo</span>"))
                let grid = try await client.get("/movies?year=2024", cookie: visitor).text
                #expect(!OfferHTML.sponsoredIndexes(grid).isEmpty)

                let answer = try APITests.decode(Schemas.TitleOffers.self, try await client.get("/api/v1/offers?title=movie:1001", cookie: visitor))
                let banner = try #require(answer.banner)
                #expect(banner.demo && !answer.offers.isEmpty)
                let click = try await client.get(banner.clickURL, cookie: visitor)
                #expect(click.status == .seeOther)
                #expect(click.headers[.location]?.contains(".example") == true)

                let console = try await client.get("/admin/offers", cookie: cookie).text
                #expect(console.contains("<code>DEMO_OFFERS=1</code>: the demo shops and their offers"))
                #expect(console.contains("are shown to visitors") && console.contains("<code>.example</code>"))
                #expect(!console.contains("are hidden from visitors"))
            }
        }
    }
}
