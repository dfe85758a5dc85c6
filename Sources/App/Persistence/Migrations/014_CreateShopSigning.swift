import FluentKit
import Foundation
import SQLKit

/// What lets a shop trust PopcornSwirl and report back (`ShopSecrets`, `ShopOrders`):
/// - `shop_secrets`: one row per shop with the key its click-throughs are signed with and its order
///   reports are checked against. A rotation keeps the previous key for order reports for a day
///   (`previous_secret`, `previous_until`). Existing shops get a key here; it is never shown, so
///   their owners rotate it in the console to learn one.
/// - `shop_orders`: the orders shops reported, one per shop and shop order id (the report is
///   idempotent), each with the click it came from, its offer and its total in minor units.
/// Both go with their shop (ON DELETE CASCADE).
struct CreateShopSigning: AsyncMigration {
    var name: String { "App.CreateShopSigning" }

    func prepare(on database: any Database) async throws {
        try await database.schema("shop_secrets")
            .field("advertiser_id", .int, .identifier(auto: false), .references("advertisers", "id", onDelete: .cascade))
            .field("secret", .string, .required)
            .field("previous_secret", .string)
            .field("previous_until", .datetime)
            .field("rotated_at", .datetime, .required)
            .create()
        try await database.schema("shop_orders")
            .field("id", .uuid, .identifier(auto: false))
            .field("advertiser_id", .int, .required, .references("advertisers", "id", onDelete: .cascade))
            .field("shop_order_id", .string, .required)
            .field("click_id", .uuid, .required)
            .field("offer_id", .int, .required)
            .field("total_cents", .int64, .required)
            .field("currency", .string, .required)
            .field("day", .string, .required)
            .field("reported_at", .datetime, .required)
            .unique(on: "advertiser_id", "shop_order_id")
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "shop_orders_offer_day").on("shop_orders").column("offer_id").column("day").run()
        try await sql.create(index: "shop_orders_advertiser_day").on("shop_orders").column("advertiser_id").column("day").run()
        let now = Date()
        for row in try await sql.raw("SELECT id FROM advertisers").all() {
            let id = try row.decode(column: "id", as: Int.self)
            try await sql.raw(
                "INSERT INTO shop_secrets (advertiser_id, secret, rotated_at) VALUES (\(bind: id), \(bind: Self.newSecret()), \(bind: now))"
            ).run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema("shop_orders").delete()
        try await database.schema("shop_secrets").delete()
    }

    /// The migration's own copy of the key format (`pss_` + 43 base64url characters of 32 random bytes),
    /// so a later change to `ShopSecrets` never changes what this migration did.
    static func newSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let encoded = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return "pss_" + encoded
    }
}
