import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SQLKit
import Testing

@testable import App

/// Smart-Market's loop (functional requirements, step 5): the store the order is for and where the
/// offer was are pushed to the shop, signed with the shop's key; the shop reports orders back, signed;
/// the console's report shows them.
@Suite("Smart-Market: store details pushed to the shop, signed, and orders reported back")
struct SmartMarketTests {
    /// The decoded query parameters of a click-through's `Location`.
    static func parameters(_ response: TestResponse) throws -> [String: String] {
        let location = try #require(response.headers[.location].flatMap(URL.init(string:)))
        var out: [String: String] = [:]
        for item in URLComponents(url: location, resolvingAgainstBaseURL: false)?.queryItems ?? [] { out[item.name] = item.value ?? "" }
        return out
    }

    @Test("a click on a title's related shop pushes the store, the placement and the title (kind, id, name, year), signed with the shop's key")
    func clickPushesStoreAndTitle() async throws {
        try await TestApp.withOffers { app, shop in
            let offer = try await app.addOffer(advertiser: shop, headline: "Popcorn")
            let key = try await app.services.offers.secrets.rotate(shop)
            try await app.test { client in
                let response = try await client.execute(
                    uri: "/offers/\(offer)/go?placement=shop&title=movie:1001", method: .get, headers: [.cookie: Visitors.cookie(1)])
                #expect(response.status == .seeOther)
                let sent = try Self.parameters(response)
                #expect(sent["ps_store"] == "popcornswirl" && sent["ps_store_name"] == "PopcornSwirl" && sent["ps_store_country"] == "US")
                #expect(sent["ps_placement"] == "shop" && sent["ps_offer"] == String(offer))
                #expect(sent["ps_title_kind"] == "movie" && sent["ps_title_id"] == "1001")
                #expect(sent["ps_title_name"] == "Middle Of The Year" && sent["ps_title_year"] == "2026")
                #expect(sent["ps_listing"] == nil, "only a sponsored card says which listing it was on")
                #expect(sent["ps_ts"] == String(Int(app.clock.now().timeIntervalSince1970)))
                let location = try #require(response.headers[.location].flatMap(URL.init(string:)))
                #expect(ClickThroughTests.verify(location, secret: key))
                // The click the shop is told about is the one recorded: orders are reported against it.
                let clicks = try await app.services.database.sql.raw("SELECT id FROM offer_clicks").all()
                #expect(try clicks.map { try $0.decode(column: "id", as: UUID.self).uuidString.lowercased() } == [sent["ps_click"]])
            }
        }
    }

    @Test("a sponsored card's link names its placement and listing, and the store can be set in the environment")
    func sponsoredCardNamesListing() async throws {
        var config = try AppConfig.fromEnvironment(["STORE_ID": "smart-market-leeds", "STORE_NAME": "Smart-Market Leeds", "STORE_COUNTRY": "gb"])
        #expect(config.referringStore.id == "smart-market-leeds" && config.referringStore.country == "GB")
        config.referringStore.currency = "GBP"
        #expect(throws: AppConfig.ConfigError.self) { try AppConfig.fromEnvironment(["STORE_ID": "Not Valid!"]) }
        #expect(throws: AppConfig.ConfigError.self) { try AppConfig.fromEnvironment(["STORE_CURRENCY": "pounds"]) }
        try await TestApp.withOffers { app, shop in
            _ = try await app.addOffer(advertiser: shop, headline: "Popcorn")
            try await app.test { client in
                // 2026 has 7 films: shorter than 12, so one sponsored card closes the listing.
                let page = try await client.get("/movies?year=2026", cookie: Visitors.cookie(2))
                let link = try #require(page.text.firstMatch(of: /href="(\/offers\/\d+\/go\?[^"]*)"/).map { String($0.1) })
                #expect(link.contains("placement=sponsored") && link.contains("listing=movies-2026"))
                let response = try await client.execute(
                    uri: link.replacingOccurrences(of: "&amp;", with: "&"), method: .get, headers: [.cookie: Visitors.cookie(2)])
                let sent = try Self.parameters(response)
                #expect(sent["ps_placement"] == "sponsored" && sent["ps_listing"] == "movies-2026")
                // A listing name that is not one is dropped, not passed on.
                let forged = try await client.execute(
                    uri: link.replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "movies-2026", with: "%3Cscript%3E"),
                    method: .get, headers: [.cookie: Visitors.cookie(3)])
                #expect(try Self.parameters(forged)["ps_listing"] == nil)
            }
        }
    }

    @Test("listings shorter than 12 cards end with a sponsored card, and My Lists and TV Favorites carry them too")
    func sponsoredCardsOnShortListsAndPersonalLists() async throws {
        #expect(SponsoredSlots.groups(Array(0..<7)).map(\.slot) == [true])
        #expect(SponsoredSlots.groups(Array(0..<12)).map(\.slot) == [true])
        #expect(SponsoredSlots.groups(Array(0..<13)).map(\.slot) == [true, false])
        #expect(SponsoredSlots.groups([Int]()).isEmpty, "an empty list shows its empty message, no card")
        let cards = (0..<13).map { RenderedCard(html: "<li>\($0)</li>") }
        let grid = SponsoredSlots.grid(cards)
        #expect(grid == cards.prefix(12).map(\.html).joined() + SponsoredSlots.marker + "<li>12</li>", "a slot after each full run of 12")
        try await TestApp.withOffers { app, shop in
            _ = try await app.addOffer(advertiser: shop, headline: "Popcorn")
            try await app.test { client in
                let visitor = try await client.postForm("/library/movies/1001", [("favorite", "1")], json: true)
                let cookie = try #require(visitor.sessionCookie) + "; " + Visitors.cookie(4)
                _ = try await client.postForm("/library/shows/139", [("favorite", "1")], cookie: cookie, json: true)
                for (path, listing) in [("/library", "my-lists"), ("/shows/favorites", "tv-favorites")] {
                    let page = try await client.get(path, cookie: cookie)
                    #expect(page.text.contains("sponsored-card"), "\(path)")
                    #expect(page.text.contains("listing=\(listing)"), "\(path)")
                }
            }
        }
    }
}
