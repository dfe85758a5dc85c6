import FluentKit
import Foundation

/// A fresh install shows offers: fictional shops and products from `Resources/offers/demo.json`,
/// marked as demo data. Runs once, like every migration, so deleted demo offers stay deleted.
struct SeedDemoOffers: AsyncMigration {
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
            var ids: [String: Int] = [:]
            for shop in file.advertisers {
                let logo = OfferImageModel(contentType: "image/svg+xml", bytes: GeneratedLogo.svg(monogram: shop.monogram, color: shop.color), now: now)
                try await logo.create(on: db)
                let row = AdvertiserModel(demo: true, now: now)
                row.apply(.init(name: shop.name, description: shop.description, website: shop.website, domains: shop.domains), now: now)
                row.logoImageID = logo.id
                try await row.create(on: db)
                ids[shop.key] = row.id
            }
            for product in file.offers {
                guard let advertiser = ids[product.advertiser] else { continue }
                let row = OfferModel(demo: true, now: now)
                row.apply(.init(
                    advertiserID: advertiser, headline: product.headline, description: product.description, priceText: product.priceText,
                    landingURL: product.landingURL, genres: product.genres, keywords: product.keywords,
                    media: OfferMedia(rawValue: product.media) ?? .both, startsOn: Self.startsOn, endsOn: Self.endsOn,
                    weight: product.weight, active: true
                ), now: now)
                try await row.create(on: db)
            }
        }
    }

    func revert(on database: any Database) async throws {
        try await OfferModel.query(on: database).filter(\.$demo == true).delete()
        try await AdvertiserModel.query(on: database).filter(\.$demo == true).delete()
    }
}
