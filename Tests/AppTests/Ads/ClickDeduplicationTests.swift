import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import App

/// A click counts once per visitor, offer and 30-minute UTC window, however many requests arrive at
/// once; the others are kept as discarded repeats and shown apart in the report.
@Suite("Offer clicks: once per visitor and window")
struct ClickDeduplicationTests {
    static let burst = 50

    @Test("50 simultaneous clicks by one visitor on one offer: 50 redirects, 1 counted click and 49 discarded repeats")
    func burstFromOneVisitor() async throws {
        try await TestApp.withOffers { app, shop in
            let id = try await app.addOffer(advertiser: shop, headline: "Popcorn Trio", landingURL: "https://shop.example.com/p")
            try await app.test { client in
                let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for _ in 0..<Self.burst {
                        group.addTask { try await client.click(id, visitor: 1).status }
                    }
                    return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
                }
                #expect(statuses == Array(repeating: .seeOther, count: Self.burst), "every click still reaches the shop")
                let totals = try await app.clickTotals(id)
                #expect(totals.clicks == 1)
                #expect(totals.discarded == Self.burst - 1 && totals.repeats == Self.burst - 1 && totals.crossSite == 0)
                #expect(try await app.clickRows() == ["counted": 1, "repeat": Self.burst - 1])
                #expect(try await app.offerClickRowCount() == 1, "a discarded click is a count, not a row")
            }
        }
    }

    @Test("two visitors clicking one offer at once are 2 counted clicks")
    func burstFromTwoVisitors() async throws {
        try await TestApp.withOffers { app, shop in
            let id = try await app.addOffer(advertiser: shop, headline: "Popcorn Trio")
            try await app.test { client in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<Self.burst {
                        group.addTask { _ = try await client.click(id, visitor: 1 + index % 2) }
                    }
                    try await group.waitForAll()
                }
                let totals = try await app.clickTotals(id)
                #expect(totals.clicks == 2 && totals.repeats == Self.burst - 2)
            }
        }
    }

    @Test("one visitor clicking two offers counts once on each")
    func oneVisitorTwoOffers() async throws {
        try await TestApp.withOffers { app, shop in
            let first = try await app.addOffer(advertiser: shop, headline: "Popcorn Trio")
            let second = try await app.addOffer(advertiser: shop, headline: "Soda Duo")
            try await app.test { client in
                for offer in [first, second, first, second] { _ = try await client.click(offer, visitor: 1) }
                #expect(try await app.clickTotals(first).clicks == 1)
                #expect(try await app.clickTotals(second).clicks == 1)
            }
        }
    }

    @Test("a click counts again in the next 30-minute window, not before (fixed UTC windows)")
    func nextWindow() async throws {
        try await TestApp.withOffers { app, shop in
            let id = try await app.addOffer(advertiser: shop, headline: "Popcorn Trio")
            // The clock starts 400 s into a window (1_795_000_000 s = 2026-11-18 08:26:40 UTC; windows start at :00 and :30).
            let intoWindow = app.clock.now().timeIntervalSince1970.truncatingRemainder(dividingBy: 1800)
            #expect(intoWindow == 400)
            try await app.test { client in
                _ = try await client.click(id, visitor: 1)
                app.clock.advance(1800 - intoWindow - 1)  // the window's last second
                _ = try await client.click(id, visitor: 1)
                #expect(try await app.clickTotals(id).clicks == 1)
                app.clock.advance(1)  // 08:30:00, a new window
                _ = try await client.click(id, visitor: 1)
                _ = try await client.click(id, visitor: 1)
                let totals = try await app.clickTotals(id)
                #expect(totals.clicks == 2 && totals.repeats == 2)
            }
        }
    }

    @Test("requests from this site, a bookmark or without Fetch Metadata (old browsers, curl) count, once per window")
    func ordinaryRequestsCount() async throws {
        try await TestApp.withOffers { app, shop in
            let id = try await app.addOffer(advertiser: shop, headline: "Popcorn Trio")
            try await app.test { client in
                let kinds: [FetchHeaders?] = [
                    nil, .ownLink, FetchHeaders(site: "same-site", mode: "navigate", dest: "document"),
                    FetchHeaders(site: "none", mode: "navigate", dest: "document"),
                ]
                for (visitor, fetch) in kinds.enumerated() {
                    let first = try await client.click(id, visitor: visitor, fetch: fetch)
                    #expect(first.status == .seeOther)
                    _ = try await client.click(id, visitor: visitor, fetch: fetch)
                }
                let totals = try await app.clickTotals(id)
                #expect(totals.clicks == kinds.count && totals.repeats == kinds.count && totals.crossSite == 0)
            }
        }
    }

    @Test("two servers on one database writing the same visitor's clicks at once count one")
    func twoServers() async throws {
        try await TestDatabase.twoServers { first, second in
            let clock = ManualClock()
            let trackers = [first, second].map { OfferTracker(database: $0, clock: clock, logger: TestDatabase.logger) }
            let offer = OfferFixtures.offer(7, advertiser: 3)
            let clicks = 16
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<clicks {
                    // A write the other server's lock keeps out too long (SQLite's busy timeout on a loaded machine)
                    // is queued and written by the flush below, by the same rule.
                    group.addTask { _ = try? await trackers[index % 2].click(offer, viewer: .test("same"), title: nil) }
                }
            }
            var counts: OfferCounts?
            for _ in 0..<20 {
                counts = try await trackers[0].daily(.offer(7), from: OfferFixtures.today, to: OfferFixtures.today)[OfferFixtures.today]
                if (counts?.clicks ?? 0) + (counts?.repeats ?? 0) == clicks { break }
                await trackers[1].flush()
            }
            #expect(counts == OfferCounts(clicks: 1, repeats: clicks - 1))
            for tracker in trackers { await tracker.close() }
        }
    }

    @Test("a click written twice (queued after a write whose answer was lost) is one row, counted once")
    func rewrittenClick() async throws {
        try await TestDatabase.with { database in
            let click = OfferTracker.Click(
                offer: 7, advertiser: 3, visitor: "v", address: "a", title: nil, day: OfferFixtures.today, at: ManualClock().now(), discarded: nil)
            let outcomes = try await database.writeSQL { sql in
                [try await OfferTracker.insert(click, cap: 3, on: sql), try await OfferTracker.insert(click, cap: 3, on: sql)]
            }
            #expect(outcomes == [nil, .repeated])
            let rows = try await database.sql.raw("SELECT COUNT(*) AS n FROM offer_clicks WHERE discarded IS NULL").first()
            #expect(try rows?.decode(column: "n", as: Int.self) == 1)
            let all = try await database.sql.raw("SELECT COUNT(*) AS n FROM offer_clicks").first()
            #expect(try all?.decode(column: "n", as: Int.self) == 1)
        }
    }
}

extension TestDatabase {
    /// One database opened twice, as two servers would: separate connections, write queues and trackers.
    static func twoServers(_ body: (AppDatabase, AppDatabase) async throws -> Void) async throws {
        try await with { first in
            let second: AppDatabase
            if let url = ProcessInfo.processInfo.environment["POPCORN_TEST_DATABASE_URL"], !url.isEmpty {
                let schema = try await first.sql.raw("SELECT current_schema() AS s").first()?.decode(column: "s", as: String.self)
                second = try await AppDatabase.open(.postgres(url: url), schema: schema, logger: logger)
            } else {
                let path = try await first.sql.raw("SELECT file FROM pragma_database_list WHERE name = 'main'").first()?
                    .decode(column: "file", as: String.self)
                second = try await AppDatabase.open(.sqlite(path: try #require(path)), logger: logger)
            }
            do {
                try await body(first, second)
            } catch {
                await second.shutdown()
                throw error
            }
            await second.shutdown()
        }
    }
}
