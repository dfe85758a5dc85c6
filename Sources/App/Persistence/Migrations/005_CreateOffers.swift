import FluentKit
import SQLKit

/// Partner shops, their offers and images, and the impression and click records. The records keep
/// the advertiser id and have no foreign keys: a report outlives a deleted offer.
struct CreateOffers: AsyncMigration {
    var name: String { "App.CreateOffers" }

    func prepare(on database: any Database) async throws {
        try await database.schema("offer_images")
            .field("id", .uuid, .identifier(auto: false))
            .field("content_type", .string, .required)
            .field("bytes", .data, .required)
            .field("created_at", .datetime, .required)
            .create()
        try await database.schema("advertisers")
            .field("id", .int, .identifier(auto: true))
            .field("name", .string, .required)
            .field("description", .string, .required)
            .field("website", .string, .required)
            .field("domains", .string, .required)
            .field("logo_image_id", .uuid, .references("offer_images", "id", onDelete: .setNull))
            .field("demo", .bool, .required)
            .field("paused_at", .datetime)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .create()
        try await database.schema("offers")
            .field("id", .int, .identifier(auto: true))
            .field("advertiser_id", .int, .required, .references("advertisers", "id", onDelete: .restrict))
            .field("headline", .string, .required)
            .field("description", .string, .required)
            .field("image_id", .uuid, .references("offer_images", "id", onDelete: .setNull))
            .field("price_text", .string, .required)
            .field("landing_url", .string, .required)
            .field("genres", .string, .required)
            .field("keywords", .string, .required)
            .field("media", .string, .required)
            .field("starts_on", .string, .required)
            .field("ends_on", .string, .required)
            .field("weight", .int, .required)
            .field("active", .bool, .required)
            .field("demo", .bool, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .create()
        // One row per visitor, offer and day: the primary key is the deduplication.
        try await database.schema("offer_impressions")
            .field("offer_id", .int, .required)
            .field("advertiser_id", .int, .required)
            .field("visitor", .string, .required)
            .field("day", .string, .required)
            .compositeIdentifier(over: "offer_id", "visitor", "day")
            .create()
        try await database.schema("offer_clicks")
            .field("id", .uuid, .identifier(auto: false))
            .field("offer_id", .int, .required)
            .field("advertiser_id", .int, .required)
            .field("visitor", .string, .required)
            .field("title", .string)
            .field("day", .string, .required)
            .field("clicked_at", .datetime, .required)
            .create()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "offer_impressions_day").on("offer_impressions").column("day").run()
            try await sql.create(index: "offer_clicks_offer_day").on("offer_clicks").column("offer_id").column("day").run()
            try await sql.create(index: "offer_clicks_advertiser_day").on("offer_clicks").column("advertiser_id").column("day").run()
        }
    }

    func revert(on database: any Database) async throws {
        for table in ["offer_clicks", "offer_impressions", "offers", "advertisers", "offer_images"] {
            try await database.schema(table).delete()
        }
    }
}
