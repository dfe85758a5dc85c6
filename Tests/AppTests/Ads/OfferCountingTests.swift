import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import App

/// What an advertiser is billed on: one click per visitor, offer and 30 minutes, and one impression per
/// visitor, offer and day, also under load (one visitor's burst of clicks: `ClickDeduplicationTests`).
@Suite("Offer counting under concurrency")
struct OfferCountingTests {
    static let load = 1000

    @Test("1,000 different visitors clicking at once are 1,000 redirects and 1,000 counted clicks")
    func concurrentClicks() async throws {
        try await TestApp.withOffers { app, shop in
            let id = try await app.addOffer(advertiser: shop, headline: "Popcorn Trio", landingURL: "https://shop.example.com/p")
            try await app.test { client in
                _ = try await client.get("/movies/1001")  // the film is in the catalogue cache before the rush
                let statuses = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?).self) { group in
                    for index in 0..<Self.load {
                        group.addTask {
                            let response = try await client.click(id, visitor: index, title: index.isMultiple(of: 2) ? "movie:1001" : nil)
                            return (response.status, response.headers[.location])
                        }
                    }
                    return try await group.reduce(into: [(HTTPResponse.Status, String?)]()) { $0.append($1) }
                }
                #expect(statuses.count == Self.load)
                #expect(statuses.filter { $0.0 == .seeOther }.count == Self.load)
                #expect(statuses.filter { $0.1?.hasPrefix("https://shop.example.com/p?utm_source=popcornswirl&") == true }.count == Self.load)
                // As a report does: clicks the busy database refused are written by the flush.
                await app.services.offers.tracker.flush()
                #expect(try await app.clickRows() == ["counted": Self.load])
                let titled = try await app.services.database.sql.raw("SELECT COUNT(*) AS n FROM offer_clicks WHERE title = 'movie:1001'").first()
                #expect(try titled?.decode(column: "n", as: Int.self) == Self.load / 2)
            }
        }
    }

    @Test("1,000 different visitors viewing a film at once are 1,000 impressions")
    func concurrentVisitors() async throws {
        try await TestApp.withOffers { app, shop in
            try await app.addOffer(advertiser: shop, headline: "Thriller Night Popcorn", genres: ["thriller"])
            try await app.test { client in
                let warmUp = try await client.get("/movies/1001")
                #expect(OfferHTML.offerIDs(warmUp.text).count == 1)
                let before = try await app.impressionRows()
                #expect(before == 1)
                let shown = try await withThrowingTaskGroup(of: Int.self) { group in
                    for visitor in 1...Self.load {
                        group.addTask { OfferHTML.offerIDs(try await client.get("/movies/1001", cookie: Visitors.cookie(visitor)).text).count }
                    }
                    return try await group.reduce(0, +)
                }
                #expect(shown == Self.load)
                let after = try await app.settledImpressionRows(expected: before + Self.load)
                #expect(after - before == Self.load)
            }
        }
    }

    @Test("one visitor opening a film 1,000 times at once is one impression")
    func concurrentSameVisitor() async throws {
        try await TestApp.withOffers { app, shop in
            try await app.addOffer(advertiser: shop, headline: "Thriller Night Popcorn", genres: ["thriller"])
            try await app.test { client in
                _ = try await client.get("/movies/1001", cookie: Visitors.cookie(1))  // another visitor fills the catalogue cache
                let before = try await app.impressionRows()
                #expect(before == 1)
                let cookie = Visitors.cookie(2)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<Self.load {
                        group.addTask { _ = try await client.get("/movies/1001", cookie: cookie) }
                    }
                    try await group.waitForAll()
                }
                let after = try await app.settledImpressionRows(expected: before + 1)
                #expect(after - before == 1)
            }
        }
    }

    @Test("1,000 impressions recorded at once from many tasks are all written, once each")
    func concurrentTrackerCalls() async throws {
        try await TestApp.withOffers { app, shop in
            let id = try await app.addOffer(advertiser: shop, headline: "Popcorn")
            let offer = try await app.storedOffer(id)
            let tracker = app.services.offers.tracker
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<Self.load {
                    group.addTask {
                        tracker.impressions([offer, offer], viewer: .test("visitor-\(index)"))
                        tracker.impressions([offer], viewer: .test("visitor-\(index)"))
                        tracker.impressions([offer], viewer: .test("same-visitor"))
                    }
                }
            }
            let rows = try await app.settledImpressionRows(expected: Self.load + 1)
            #expect(rows == Self.load + 1)
        }
    }

    @Test("a burst of pages for one visitor shows an offer no more than the cap allows")
    func capUnderBurst() async throws {
        try await TestApp.withOffers { app, shop in
            let id = try await app.addOffer(advertiser: shop, headline: "Thriller Night Popcorn", genres: ["thriller"])
            let offers = app.services.offers
            let context = OfferFixtures.movie("Night Drive", genres: ["Thriller"], id: 1001)
            _ = await offers.forTitle(context, viewer: .test("warm-up"))  // the offer list is in memory
            let banners = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<Self.load {
                    group.addTask { await offers.forTitle(context, viewer: .test("alice")).banner?.offer.id == id ? 1 : 0 }
                }
                return await group.reduce(0, +)
            }
            #expect(banners == 3)
        }
    }

    @Test("closing the tracker while a flush is writing still writes every queued impression before it returns")
    func closeWaitsForWritesInProgress() async throws {
        try await TestApp.withOffers { app, shop in
            let id = try await app.addOffer(advertiser: shop, headline: "Popcorn")
            let offer = try await app.storedOffer(id)
            let tracker = app.quietTracker()
            let queued = 10 * OfferTracker.batchSize
            for index in 0..<queued { tracker.impressions([offer], viewer: .test("visitor-\(index)")) }
            // The timer's flush is writing when the server shuts down (the shutdown hook calls close()).
            let timer = Task { await tracker.flush() }
            await Task.yield()
            await tracker.close()
            let atClose = try await app.rows("offer_impressions")
            #expect(atClose == queued)
            await timer.value  // the database must not close under a write still in progress
        }
    }

    @Test("a report read right after flush() includes every impression queued before it, even while another flush is writing")
    func flushWaitsForWritesInProgress() async throws {
        try await TestApp.withOffers { app, shop in
            let id = try await app.addOffer(advertiser: shop, headline: "Popcorn")
            let offer = try await app.storedOffer(id)
            // A tracker of its own whose timer never fires during the test: only the two flushes below write.
            let tracker = app.quietTracker()
            let queued = 10 * OfferTracker.batchSize
            for index in 0..<queued { tracker.impressions([offer], viewer: .test("visitor-\(index)")) }
            // Two callers flush at once (the 1 s timer and a report, or the timer and shutdown): each, once its
            // flush() returns, must see everything that was queued before it called.
            let seen = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        await tracker.flush()
                        return try await app.rows("offer_impressions")
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(seen == [queued, queued])
            // Whatever the outcome above, leave nothing being written when the database closes.
            _ = try await app.settledImpressionRows(expected: queued, tracker: tracker)
            await tracker.close()
        }
    }
}
