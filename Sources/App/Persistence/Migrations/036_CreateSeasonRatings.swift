import FluentKit
import SQLKit

/// A person's rating of a whole season of a show (1–10, as for films, shows and episodes): rated on
/// the show's page or through the API, and brought from Trakt's `ratings-seasons.json`.
struct CreateSeasonRatings: AsyncMigration {
    var name: String { "App.CreateSeasonRatings" }

    func prepare(on database: any Database) async throws {
        try await database.schema("season_ratings")
            .field("profile_id", .uuid, .required, .references("profiles", "id", onDelete: .cascade))
            .field("show_id", .int64, .required)
            .field("season", .int32, .required)
            .field("rating", .int16, .required)
            .field("updated_at", .datetime, .required)
            .compositeIdentifier(over: "profile_id", "show_id", "season")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("season_ratings").delete()
    }
}
