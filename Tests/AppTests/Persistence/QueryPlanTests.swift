import Foundation
import SQLKit
import Synchronization
import Testing

@testable import App

/// Which index SQLite walks for reads every page makes: a wrong choice costs nothing on a test's
/// few rows and milliseconds on a person's years of rows.
@Suite("Query plans (SQLite)", .enabled(if: ProcessInfo.processInfo.environment["POPCORN_TEST_DATABASE_URL"] == nil))
struct QueryPlanTests {
    static func plan(_ query: any SQLExpression, on sql: any SQLDatabase) async throws -> [String] {
        let details = Mutex<[String]>([])
        try await sql.execute(sql: SQLList([SQLRaw("EXPLAIN QUERY PLAN "), query], separator: SQLRaw(""))) { row in
            if let detail = try? row.decode(column: "detail", as: String.self) { details.withLock { $0.append(detail) } }
        }
        return details.withLock { $0 }
    }

    @Test("a title's watches are found through the title's index, not by walking the person's whole diary")
    func titleWatches() async throws {
        try await TestApp.with { app in
            let sql = try app.services.database.sql
            let query = DiaryService.titleWatches(sql.select(), profile: UUID(), kind: .movie, itemID: "1001").select
            let plan = try await Self.plan(query, on: sql)
            #expect(plan.contains { $0.contains("watches_by_title (profile_id=? AND media_kind=? AND item_id=?)") }, "\(plan)")
        }
    }

    @Test("TV Favorites read a person's favorite shows through the favorites' index, not every saved title")
    func favoritesOfAKind() async throws {
        try await TestApp.with { app in
            let sql = try app.services.database.sql
            let query = LibraryService.pageRows(sql, UUID(), .favorites, LibraryFilter(kind: .show)).limit(60).select
            let plan = try await Self.plan(query, on: sql)
            #expect(plan.contains { $0.contains("library_entries_favorites (profile_id=? AND media_kind=? AND favorite=?)") }, "\(plan)")
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "read in the page's order: \(plan)")
        }
    }
}
