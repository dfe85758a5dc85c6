import FluentKit
import Foundation
import SQLKit
import Testing

@testable import App

@Suite("Migrations: counting clicks once")
struct CountClicksOnceMigrationTests {
    @Test("clicks recorded before migration 011 stay counted after it; new clicks of the same visitor and window are then deduplicated")
    func existingClicksStayCounted() async throws {
        try await TestDatabase.with { database in
            // The table as it was before the migration, with two clicks of one visitor in one window.
            // Schema changes and rows through the one writer (on SQLite, one connection), so no
            // statement runs on a connection that has not seen the change before it.
            try await database.write { db in try await CountClicksOnce().revert(on: db) }
            let now = ManualClock().now()
            for _ in 0..<2 {
                try await database.writeSQL { sql in
                    try await sql.raw(
                        """
                        INSERT INTO offer_clicks (id, offer_id, advertiser_id, visitor, title, day, clicked_at)
                        VALUES (\(bind: UUID()), 7, 3, 'v', NULL, \(bind: OfferFixtures.today), \(bind: now))
                        """
                    ).run()
                }
            }
            try await database.write { db in try await CountClicksOnce().prepare(on: db) }
            let tracker = OfferTracker(database: database, clock: ManualClock(), logger: TestDatabase.logger, flushDelay: .seconds(3600))
            let offer = OfferFixtures.offer(7, advertiser: 3)
            #expect(try await tracker.click(offer, viewer: .test("v"), title: nil) == nil, "the old rows have no key: the first new click counts")
            #expect(try await tracker.click(offer, viewer: .test("v"), title: nil) == .repeated)
            let counts = try await tracker.daily(.offer(7), from: OfferFixtures.today, to: OfferFixtures.today)
            #expect(counts[OfferFixtures.today] == OfferCounts(clicks: 3, repeats: 1))
            await tracker.close()
        }
    }
}
