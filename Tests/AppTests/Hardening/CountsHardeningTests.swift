import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SQLKit
import Testing

@testable import App

/// Counts that need real visitors: only ids the deployment signed are visitors, counted clicks and
/// impressions are capped per client address, offer and day; and `/ready` tells a balancer when no
/// write can succeed.
@Suite("Hardening: counts and readiness")
struct CountsHardeningTests {
    @Test("20 made-up ps_visitor values are not 20 visitors: one click counts, the rest are repeats")
    func forgedVisitors() async throws {
        try await TestApp.withOffers { app, shop in
            let id = try await app.addOffer(advertiser: shop, headline: "Popcorn Trio", landingURL: "https://shop.example.com/p")
            try await app.test { client in
                for index in 0..<20 {
                    var headers = HTTPFields()
                    headers[.cookie] = "ps_visitor=" + "forged\(index)".padding(toLength: 43, withPad: "x", startingAt: 0)
                    headers[FetchMetadata.siteHeader] = "same-origin"
                    let answer = try await client.execute(uri: "/offers/\(id)/go", method: .get, headers: headers)
                    #expect(answer.status == .seeOther)
                    #expect(answer.visitorCookie?.contains(".") == true, "the browser is given a signed id instead")
                }
                let totals = try await app.clickTotals(id)
                #expect(totals.clicks == 1 && totals.repeats == 19)
                // A signed id with its signature changed is no visitor either.
                let signed = Visitors.cookie(3)
                let tampered = String(signed.dropLast()) + (signed.hasSuffix("A") ? "B" : "A")
                _ = try await client.click(id, visitor: 3)
                var headers = HTTPFields()
                headers[.cookie] = tampered
                headers[FetchMetadata.siteHeader] = "same-origin"
                _ = try await client.execute(uri: "/offers/\(id)/go", method: .get, headers: headers)
                #expect(try await app.clickTotals(id).clicks == 2, "the signed visitor counted; the tampered one is the first visit again")
            }
        }
    }

    @Test("from one client address, at most 3 counted clicks and 10 counted impressions per offer and day; the rest are counts")
    func capsPerAddress() async throws {
        try await TestApp.withOffers { app, shop in
            let id = try await app.addOffer(advertiser: shop, headline: "Popcorn Trio", landingURL: "https://shop.example.com/p")
            let offer = try #require(try await app.services.offers.liveOffer(id))
            let tracker = app.services.offers.tracker
            for index in 0..<8 {
                try await tracker.click(offer, viewer: OfferViewer(id: "v\(index)", address: "one-network"), title: nil)
            }
            try await tracker.click(offer, viewer: OfferViewer(id: "elsewhere", address: "another-network"), title: nil)
            tracker.impressions([offer], viewer: OfferViewer(id: "w", address: "one-network"))
            for index in 0..<30 { tracker.impressions([offer], viewer: OfferViewer(id: "w\(index)", address: "one-network")) }
            let totals = try await app.clickTotals(id)
            #expect(totals.clicks == OfferTracker.AddressCaps().clicks + 1)
            #expect(totals.capped == 8 - OfferTracker.AddressCaps().clicks && totals.discarded == totals.capped)
            #expect(totals.impressions == OfferTracker.AddressCaps().impressions)
            #expect(try await app.offerClickRowCount() == 4, "a click past the cap is a count, not a row")
            app.clock.advance(24 * 3600)
            try await tracker.click(offer, viewer: OfferViewer(id: "v0", address: "one-network"), title: nil)
            #expect(try await app.offerClickRowCount() == 5, "a new day, a new allowance")
        }
    }

    @Test("/ready answers 503 while no write can succeed (the reads still do), and /metrics counts the failed writes")
    func readyNeedsWrites() async throws {
        try await TestApp.with { app in
            let readiness = Readiness(database: app.services.database, server: "probe-test", timeout: .seconds(30))
            #expect(await readiness.check() == nil)
            // Every write refused, as with a full disk or a read-only file: a trigger on the table the probe writes.
            let sql = try app.services.database.sql
            if app.services.database.isPostgres {
                try await sql.raw("CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$ LANGUAGE plpgsql").run()
                try await sql.raw("CREATE TRIGGER refuse_writes BEFORE INSERT ON leases FOR EACH ROW EXECUTE FUNCTION refuse()").run()
            } else {
                try await sql.raw("CREATE TRIGGER refuse_writes BEFORE INSERT ON leases BEGIN SELECT RAISE(ABORT, 'disk full'); END").run()
            }
            let reason = try #require(await readiness.check())
            #expect(reason.contains("refused a write"))
            let metrics = String(decoding: await app.services.metrics.exposition(), as: UTF8.self)
            #expect(metrics.contains("db_write_failures 1"))
        }
    }
}
