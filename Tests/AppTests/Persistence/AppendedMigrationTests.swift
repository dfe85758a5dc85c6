import FluentKit
import Foundation
import HummingbirdTesting
import Testing

@testable import App

/// A migration that lands later and adds columns to tables the earlier ones create and seed.
struct AddThrowawayColumns: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("offers").field("throwaway_note", .string).update()
        try await database.schema("advertisers").field("throwaway_rank", .int).update()
        try await database.schema("profiles").field("throwaway_flag", .bool).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("profiles").deleteField("throwaway_flag").update()
        try await database.schema("advertisers").deleteField("throwaway_rank").update()
        try await database.schema("offers").deleteField("throwaway_note").update()
    }
}

@Suite("Migrations: one appended later")
struct AppendedMigrationTests {
    @Test("after every migration and one more that adds columns, a fresh install starts, seeds its demo offers and serves")
    func appendedMigration() async throws {
        try await TestApp.with(extraMigrations: [AddThrowawayColumns()]) { app in
            let columns = try await app.services.database.sql.raw("SELECT throwaway_note FROM offers").all()
            #expect(columns.count == 32, "the column exists and the 32 demo offers are there")
            try await app.test { client in
                let home = try await client.get("/")
                #expect(home.status == .ok)
                #expect(home.text.contains("Middle Of The Year"))
                let film = try await client.get("/movies/1001")
                #expect(film.status == .ok)
                #expect(film.text.contains("<h1>Middle Of The Year"))
                #expect(film.text.contains(#"<aside class="offer-banner""#) && film.text.contains("· demo</span>"))
                // A visitor's first save writes a profile row, which now has the extra column.
                let saved = try await client.postForm("/library/movies/1001", [("favorite", "1")])
                #expect(saved.status == .seeOther)
                let cookie = try #require(saved.sessionCookie)
                let lists = try await client.get("/library", cookie: cookie)
                #expect(lists.status == .ok && lists.text.contains("Middle Of The Year"))
            }
        }
    }
}
