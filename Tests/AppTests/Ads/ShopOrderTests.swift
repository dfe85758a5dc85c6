import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PopcornAPI
import SQLKit
import Testing

@testable import App

/// A shop reporting an order back: `POST /api/v1/shops/{id}/orders`, signed over
/// `"<timestamp>.<body>"` with the shop's key, idempotent by the shop's order id.
@Suite("Shop order reports")
struct ShopOrderTests {
    /// Signs as the README tells a shop to: HMAC-SHA256 of "<timestamp>.<body>", lower-case hex.
    static func signature(_ body: String, timestamp: String, key: String) -> String {
        HMAC<SHA256>.authenticationCode(for: Data("\(timestamp).\(body)".utf8), using: SymmetricKey(data: Data(key.utf8)))
            .map { String(format: "%02x", $0) }.joined()
    }

    static func body(order: String, click: String, cents: Int = 2499, currency: String = "USD") -> String {
        #"{"orderId":"\#(order)","clickId":"\#(click)","totalCents":\#(cents),"currency":"\#(currency)"}"#
    }

    /// A shop with one offer, its key, and one click-through's `ps_click` by visitor 1.
    static func withClick(
        _ body: @escaping @Sendable (TestApp, any TestClientProtocol, _ shop: Int, _ offer: Int, _ key: String, _ click: String) async throws -> Void
    )
        async throws
    {
        try await TestApp.withOffers { app, shop in
            let offer = try await app.addOffer(advertiser: shop, headline: "Popcorn")
            let key = try await app.services.offers.secrets.rotate(shop)
            try await app.test { client in
                let response = try await client.execute(
                    uri: "/offers/\(offer)/go?placement=banner&title=movie:1001", method: .get, headers: [.cookie: Visitors.cookie(1)])
                let click = try #require(try SmartMarketTests.parameters(response)["ps_click"])
                try await body(app, client, shop, offer, key, click)
            }
        }
    }

    static func report(
        _ client: any TestClientProtocol, shop: Int, body: String, key: String, timestamp: String, signature: String? = nil
    ) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.accept] = "application/json"
        headers[HTTPField.Name("PopcornSwirl-Timestamp")!] = timestamp
        headers[HTTPField.Name("PopcornSwirl-Signature")!] = signature ?? Self.signature(body, timestamp: timestamp, key: key)
        return try await client.execute(uri: "/api/v1/shops/\(shop)/orders", method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    @Test("a signed order is recorded once: 201, then 200 with the same order; another total under the same id is 409")
    func idempotentByOrderID() async throws {
        try await Self.withClick { app, client, shop, offer, key, click in
            let now = String(Int(app.clock.now().timeIntervalSince1970))
            let body = Self.body(order: "SM-1001", click: click)
            let first = try await Self.report(client, shop: shop, body: body, key: key, timestamp: now)
            #expect(first.status == .created, "\(first.text)")
            let recorded = try APITests.decode(Components.Schemas.ShopOrder.self, first)
            #expect(recorded.offerId == offer && recorded.totalCents == 2499 && recorded.clickId == click && recorded.orderId == "SM-1001")
            // Sent again (the shop's retry after a timeout): the same order, nothing added.
            let again = try await Self.report(client, shop: shop, body: body, key: key, timestamp: now)
            #expect(again.status == .ok && again.text.contains("SM-1001"))
            let changed = try await Self.report(
                client, shop: shop, body: Self.body(order: "SM-1001", click: click, cents: 1), key: key, timestamp: now)
            #expect(changed.status == .conflict && changed.text.contains("already reported"))
            #expect(try await app.rows("shop_orders") == 1)
            // A different whitespace in the body is a different body: the signature covers its exact bytes.
            let spaced = body.replacingOccurrences(of: ",", with: ", ")
            let tampered = try await Self.report(
                client, shop: shop, body: spaced, key: key, timestamp: now, signature: Self.signature(body, timestamp: now, key: key))
            #expect(tampered.status == .unauthorized)
        }
    }

    @Test("a wrong signature, another shop's key, an old timestamp, a wrong click or currency are refused and record nothing")
    func refusals() async throws {
        try await Self.withClick { app, client, shop, _, key, click in
            let now = Int(app.clock.now().timeIntervalSince1970)
            let body = Self.body(order: "SM-2", click: click)
            let other = try await app.addAdvertiser("Other Shop", domains: ["other.example.com"])
            let otherKey = try await app.services.offers.secrets.rotate(other)
            let cases: [(String, TestResponse, HTTPResponse.Status, String)] = [
                (
                    "bad signature", try await Self.report(client, shop: shop, body: body, key: key, timestamp: "\(now)", signature: "00ff"),
                    .unauthorized, "signature"
                ),
                (
                    "another shop's key", try await Self.report(client, shop: shop, body: body, key: otherKey, timestamp: "\(now)"), .unauthorized,
                    "signature"
                ),
                ("unknown shop", try await Self.report(client, shop: 9999, body: body, key: key, timestamp: "\(now)"), .unauthorized, "signature"),
                (
                    "ten minutes old", try await Self.report(client, shop: shop, body: body, key: key, timestamp: "\(now - 600)"), .unauthorized,
                    "5 minutes"
                ),
                ("not a time", try await Self.report(client, shop: shop, body: body, key: key, timestamp: "soon"), .unauthorized, "5 minutes"),
                (
                    "another shop's order for this click",
                    try await Self.report(client, shop: other, body: body, key: otherKey, timestamp: "\(now)"), .unprocessableContent, "ps_click"
                ),
                (
                    "an unknown click",
                    try await Self.report(
                        client, shop: shop, body: Self.body(order: "SM-3", click: UUID().uuidString), key: key, timestamp: "\(now)"),
                    .unprocessableContent, "ps_click"
                ),
                (
                    "another currency",
                    try await Self.report(
                        client, shop: shop, body: Self.body(order: "SM-4", click: click, currency: "EUR"), key: key, timestamp: "\(now)"),
                    .unprocessableContent, "USD"
                ),
            ]
            for (name, response, status, words) in cases {
                #expect(response.status == status, "\(name): \(response.text)")
                #expect(response.text.contains(words), "\(name): \(response.text)")
            }
            #expect(try await app.rows("shop_orders") == 0)
            // A month and a day later the click no longer earns an order.
            app.clock.advance(31 * 86_400)
            let late = try await Self.report(
                client, shop: shop, body: body, key: key, timestamp: String(Int(app.clock.now().timeIntervalSince1970)))
            #expect(late.status == .unprocessableContent)
        }
    }

    @Test("after a rotation the previous key signs reports for a day, then only the new one does")
    func rotationKeepsPreviousKeyForADay() async throws {
        try await Self.withClick { app, client, shop, _, oldKey, click in
            let newKey = try await app.services.offers.secrets.rotate(shop)
            #expect(newKey != oldKey)
            var now = String(Int(app.clock.now().timeIntervalSince1970))
            #expect(
                try await Self.report(client, shop: shop, body: Self.body(order: "A", click: click), key: oldKey, timestamp: now).status == .created)
            app.clock.advance(86_400 + 60)
            now = String(Int(app.clock.now().timeIntervalSince1970))
            #expect(
                try await Self.report(client, shop: shop, body: Self.body(order: "B", click: click), key: oldKey, timestamp: now).status
                    == .unauthorized)
            #expect(
                try await Self.report(client, shop: shop, body: Self.body(order: "B", click: click), key: newKey, timestamp: now).status == .created)
        }
    }

    @Test("the report shows orders, revenue and conversion per day beside impressions and clicks, in the table, the CSV and the chart")
    func reportShowsOrders() async throws {
        try await Self.withClick { app, client, shop, offer, key, click in
            let now = String(Int(app.clock.now().timeIntervalSince1970))
            for (order, cents) in [("R-1", 2499), ("R-2", 1001)] {
                #expect(
                    try await Self.report(client, shop: shop, body: Self.body(order: order, click: click, cents: cents), key: key, timestamp: now)
                        .status == .created)
            }
            let totals = try await app.clickTotals(offer)
            #expect(totals.clicks == 1 && totals.orders == 2 && totals.revenueCents == 3500)
            #expect(totals.revenue == "35.00" && totals.conversion == "200.0 %")
            let cookie = try await app.seedAdmin()
            let page = try await client.get("/admin/offers/\(offer)/report", cookie: cookie)
            #expect(page.text.contains("Revenue (USD)") && page.text.contains(">35.00<") && page.text.contains("200.0 %"))
            #expect(page.text.contains(#"class="bar-orders""#) && page.text.contains("2 orders, 35.00 USD"))
            let csv = try await client.get("/admin/advertisers/\(shop)/report.csv", cookie: cookie).text
            let lines = csv.split(separator: "\r\n")
            #expect(
                lines.first
                    == "day,impressions,clicks,ctr_percent,discarded_repeat,discarded_cross_site,orders,revenue_usd,conversion_percent,discarded_address_cap"
            )
            #expect(lines.last?.hasSuffix(",0,1,,0,0,2,35.00,200.00,0") == true, "\(lines.last ?? "")")
        }
    }

    @Test("the console shows the referring store and each shop's key status; rotating shows the new key once")
    func consoleShowsStoreAndKeys() async throws {
        try await TestApp.withOffers(.demo) { app, _ in
            try await app.test { client in
                let cookie = try await app.seedAdmin()
                let dashboard = try await client.get("/admin/offers", cookie: cookie).text
                #expect(dashboard.contains("Referring store") && dashboard.contains("<dd>popcornswirl</dd>") && dashboard.contains("<dd>USD</dd>"))
                #expect(dashboard.contains("POST /api/v1/shops/1/orders") && dashboard.contains("Rotate key"))
                let old = try #require(try await app.services.offers.secrets.current(1))
                #expect(!dashboard.contains(old), "a key is never listed")
                let csrf = try await AdminConsoleTests.csrf(client, cookie)
                let rotated = try await client.postForm("/admin/advertisers/1/key", [("csrf", csrf)], cookie: cookie, csrf: false)
                let new = try #require(try await app.services.offers.secrets.current(1))
                #expect(rotated.status == .ok && rotated.text.contains(new) && new != old)
                #expect(rotated.headers[.cacheControl] == "no-store")
                #expect(rotated.text.contains("previous key still verifies order reports for 24 hours"))
            }
        }
    }
}
