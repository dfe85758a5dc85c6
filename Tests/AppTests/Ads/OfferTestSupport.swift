import FluentKit
import Foundation
import HummingbirdTesting
import SQLKit
import Testing

@testable import App

/// Which partner offers a test starts from.
enum OfferStart {
    /// A fresh install's: the 32 demo offers of 8 shops, "Reel Snacks" being shop 1.
    case demo
    /// None but the test's own: the demo offers removed and one shop without offers yet.
    case shop(String, domains: [String] = ["shop.example.com"], description: String = "A partner shop.")
}

/// The shop, offers and tracker setup of the offer, click-through, API and console tests.
extension TestApp {
    /// A whole test app starting from `start`; `body` gets the shop the test adds its offers to.
    static func withOffers<T>(
        _ start: OfferStart = .shop("Reel Snacks"), upstream: FakeUpstream = .itunesFixtures(), _ body: (TestApp, Int) async throws -> T
    ) async throws -> T {
        try await with(upstream: upstream) { app in
            switch start {
            case .demo:
                // Migration 014 dates the demo shops' keys by the wall clock; the test's world is the test clock's day.
                try await app.services.database.sql.update("shop_secrets").set("rotated_at", to: SQLBind(app.clock.now())).run()
                return try await body(app, 1)
            case .shop(let name, let domains, let description):
                try await app.removeAllOffers()
                return try await body(app, try await app.addAdvertiser(name, domains: domains, description: description))
            }
        }
    }

    /// An offer as stored, for recording impressions and clicks with a tracker.
    func storedOffer(_ id: Int) async throws -> Offer {
        try #require(try await services.offerAdmin.offer(id))
    }

    /// A tracker of the test's own whose 1 s timer never fires during the test: only the test's flushes write.
    func quietTracker() -> OfferTracker {
        OfferTracker(database: services.database, clock: clock, logger: TestDatabase.logger, flushDelay: .seconds(3600))
    }

    var db: any Database {
        get throws { try services.database.db }
    }

    /// Deletes the demo shops and offers the migration seeded.
    func removeAllOffers() async throws {
        try await OfferModel.query(on: db).delete()
        try await AdvertiserModel.query(on: db).delete()
        services.offers.store.invalidate()
    }

    /// An advertiser row written straight through Fluent (no console validation), so a test sets every field.
    @discardableResult
    func addAdvertiser(_ name: String, domains: [String] = ["shop.example.com"], description: String = "A partner shop.") async throws -> Int {
        let row = AdvertiserModel()
        row.name = name
        row.description = description
        row.website = "https://\(domains.first ?? "shop.example.com")"
        row.domains = domains.joined(separator: "\n")
        row.logoImageID = nil
        row.demo = false
        row.createdAt = clock.now()
        row.updatedAt = clock.now()
        try await row.create(on: db)
        services.offers.store.invalidate()
        return try #require(row.id)
    }

    /// An offer row written straight through Fluent, like `addAdvertiser`.
    @discardableResult
    func addOffer(
        advertiser: Int, headline: String, landingURL: String = "https://shop.example.com/products/item",
        genres: [String] = [], keywords: [String] = [], media: OfferMedia = .both,
        startsOn: String = "2025-01-01", endsOn: String = "2030-12-31", weight: Int = 5, active: Bool = true,
        priceText: String = "$9.99"
    ) async throws -> Int {
        let row = OfferModel()
        row.advertiserID = advertiser
        row.headline = headline
        row.description = "About \(headline)."
        row.imageID = nil
        row.priceText = priceText
        row.landingURL = landingURL
        row.genres = genres.joined(separator: "\n")
        row.keywords = keywords.joined(separator: "\n")
        row.media = media.rawValue
        row.startsOn = startsOn
        row.endsOn = endsOn
        row.weight = weight
        row.active = active
        row.demo = false
        row.createdAt = clock.now()
        row.updatedAt = clock.now()
        try await row.create(on: db)
        services.offers.store.invalidate()
        return try #require(row.id)
    }

    /// Rows in one of the offer record tables.
    func rows(_ table: String) async throws -> Int {
        let row = try await services.database.sql.raw("SELECT COUNT(*) AS n FROM \(ident: table)").first()
        return try #require(row).decode(column: "n", as: Int.self)
    }

    /// Impression rows after every queued one has been written. `flush()` returns at once while the
    /// tracker's 1 s timer is writing (see `OfferCountingTests.flushWaitsForWritesInProgress`), so the count
    /// is read until two reads 20 ms apart agree.
    func impressionRows() async throws -> Int {
        var last = -1
        for _ in 0..<100 {
            await services.offers.tracker.flush()
            let now = try await rows("offer_impressions")
            if now == last { return now }
            last = now
            try await Task.sleep(for: .milliseconds(20))
        }
        return last
    }
}

extension TestApp {
    /// Impression rows once `expected` have been written (or 10 s have passed): the tracker's own 1 s timer
    /// may be writing a batch when the test flushes, and a concurrent `flush()` returns without waiting for it.
    func settledImpressionRows(expected: Int, tracker: OfferTracker? = nil) async throws -> Int {
        let tracker = tracker ?? services.offers.tracker
        var rows = 0
        for _ in 0..<1000 {
            await tracker.flush()
            rows = try await self.rows("offer_impressions")
            if rows >= expected { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        return rows
    }
}
