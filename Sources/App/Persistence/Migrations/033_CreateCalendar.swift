import FluentKit

/// The calendar: a person's private iCal feed (`calendar_feeds`: one per account, its token
/// stored hashed), the time zone a person chose for their days (`profiles.time_zone`, an IANA name;
/// null: the browser's), and the network of the show a held episode list is of
/// (`tv_episode_lists.network`, the feed's `CATEGORIES`; null for lists stored before, until they are
/// fetched again).
struct CreateCalendar: AsyncMigration {
    var name: String { "App.CreateCalendar" }

    func prepare(on database: any Database) async throws {
        try await database.schema("calendar_feeds")
            .field("profile_id", .uuid, .identifier(auto: false), .references("profiles", "id", onDelete: .cascade))
            .field("token_hash", .string, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "token_hash")
            .create()
        try await database.schema("profiles").field("time_zone", .string).update()
        try await database.schema("tv_episode_lists").field("network", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("tv_episode_lists").deleteField("network").update()
        try await database.schema("profiles").deleteField("time_zone").update()
        try await database.schema("calendar_feeds").delete()
    }
}
