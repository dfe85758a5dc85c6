import FluentKit
import Foundation
import SQLKit

/// A fresh install shows offers: fictional shops and products from `Resources/offers/demo.json`,
/// marked as demo data. Runs once, like every migration, so deleted demo offers stay deleted.
///
/// It writes its own column lists, never through the models: a column a later migration adds to
/// a model must not reach this older schema. The logos are drawn by `GeneratedLogo.svg`, so
/// changing that function (or demo.json) changes what a fresh install seeds; the seed test
/// (`seed-demo-offers.txt`) notices.
struct SeedDemoOffers: AsyncMigration {
    var name: String { "App.SeedDemoOffers" }

    static let startsOn = "2025-01-01"
    static let endsOn = "2030-12-31"

    struct File: Decodable {
        struct Shop: Decodable {
            let key, name, description, website, color, monogram: String
            let domains: [String]
        }

        struct Product: Decodable {
            let advertiser, headline, description, priceText, landingURL, media: String
            let genres, keywords: [String]
            let weight: Int
        }

        let advertisers: [Shop]
        let offers: [Product]
    }

    static func load() throws -> File {
        guard let url = Bundle.module.url(forResource: "demo", withExtension: "json", subdirectory: "Resources/offers") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
    }

    func prepare(on database: any Database) async throws {
        let file = try Self.load()
        let now = Date()
        try await database.transaction { db in
            let sql = db as! any SQLDatabase  // both drivers are SQL databases
            var ids: [String: Int] = [:]
            for shop in file.advertisers {
                let logoID = UUID()
                try await sql.insert(into: "offer_images")
                    .columns("id", "content_type", "bytes", "created_at")
                    .values(
                        SQLBind(logoID), SQLBind("image/svg+xml"),
                        SQLBind(GeneratedLogo.svg(monogram: shop.monogram, color: shop.color)), SQLBind(now)
                    )
                    .run()
                let row = try await sql.insert(into: "advertisers")
                    .columns("name", "description", "website", "domains", "logo_image_id", "demo", "created_at", "updated_at")
                    .values(
                        SQLBind(shop.name), SQLBind(shop.description), SQLBind(shop.website),
                        SQLBind(shop.domains.joined(separator: "\n")), SQLBind(logoID), SQLBind(true), SQLBind(now), SQLBind(now)
                    )
                    .returning("id")
                    .first()
                ids[shop.key] = try row?.decode(column: "id", as: Int.self)
            }
            for product in file.offers {
                guard let advertiser = ids[product.advertiser] else { continue }
                // The media values of this schema; anything else in the file means both.
                let media = ["movie", "show", "both"].contains(product.media) ? product.media : "both"
                try await sql.insert(into: "offers")
                    .columns(
                        "advertiser_id", "headline", "description", "price_text", "landing_url", "genres", "keywords", "media",
                        "starts_on", "ends_on", "weight", "active", "demo", "created_at", "updated_at"
                    )
                    .values(
                        SQLBind(advertiser), SQLBind(product.headline), SQLBind(product.description), SQLBind(product.priceText),
                        SQLBind(product.landingURL), SQLBind(product.genres.joined(separator: "\n")),
                        SQLBind(product.keywords.joined(separator: "\n")), SQLBind(media), SQLBind(Self.startsOn),
                        SQLBind(Self.endsOn), SQLBind(product.weight), SQLBind(true), SQLBind(true), SQLBind(now), SQLBind(now)
                    )
                    .run()
            }
        }
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.delete(from: "offers").where("demo", .equal, SQLBind(true)).run()
        try await sql.delete(from: "advertisers").where("demo", .equal, SQLBind(true)).run()
    }
}
