import FluentKit
import Foundation

/// A partner shop. `domains` is the allow-list for its offers' landing URLs, one host per line.
final class AdvertiserModel: Model, @unchecked Sendable {
    static let schema = "advertisers"

    @ID(custom: "id", generatedBy: .database) var id: Int?
    @Field(key: "name") var name: String
    @Field(key: "description") var description: String
    @Field(key: "website") var website: String
    @Field(key: "domains") var domains: String
    @OptionalField(key: "logo_image_id") var logoImageID: UUID?
    @Field(key: "demo") var demo: Bool
    /// Set while the shop is paused: none of its offers is shown.
    @OptionalField(key: "paused_at") var pausedAt: Date?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}
}

/// A product a shop offers next to related titles. Dates are UTC days (`yyyy-MM-dd`), both inclusive;
/// `genres` and `keywords` are one entry per line.
final class OfferModel: Model, @unchecked Sendable {
    static let schema = "offers"

    @ID(custom: "id", generatedBy: .database) var id: Int?
    @Field(key: "advertiser_id") var advertiserID: Int
    @Field(key: "headline") var headline: String
    @Field(key: "description") var description: String
    @OptionalField(key: "image_id") var imageID: UUID?
    @Field(key: "price_text") var priceText: String
    @Field(key: "landing_url") var landingURL: String
    @Field(key: "genres") var genres: String
    @Field(key: "keywords") var keywords: String
    @Field(key: "media") var media: String
    @Field(key: "starts_on") var startsOn: String
    @Field(key: "ends_on") var endsOn: String
    @Field(key: "weight") var weight: Int
    @Field(key: "active") var active: Bool
    @Field(key: "demo") var demo: Bool
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}
}

/// Logos and product images, kept in the database so they are served from this site (the CSP allows no other).
final class OfferImageModel: Model, @unchecked Sendable {
    static let schema = "offer_images"

    @ID(key: .id) var id: UUID?
    @Field(key: "content_type") var contentType: String
    @Field(key: "bytes") var bytes: Data
    @Field(key: "created_at") var createdAt: Date

    init() {}

    init(contentType: String, bytes: Data, now: Date) {
        id = UUID()
        self.contentType = contentType
        self.bytes = bytes
        createdAt = now
    }

    convenience init(upload: UploadedImage, now: Date) {
        self.init(contentType: upload.contentType, bytes: upload.bytes, now: now)
    }
}

/// Shops and offers: integer ids, a demo flag and creation time, filled from validated values.
protocol AdRow: Model where IDValue == Int {
    init(demo: Bool, now: Date)
}

extension AdvertiserModel: AdRow {
    convenience init(demo: Bool, now: Date) {
        self.init()
        self.demo = demo
        createdAt = now
    }

    func apply(_ valid: OfferRules.ValidAdvertiser, now: Date) {
        name = valid.name
        description = valid.description
        website = valid.website
        domains = valid.domains.joined(separator: "\n")
        updatedAt = now
    }
}

extension OfferModel: AdRow {
    convenience init(demo: Bool, now: Date) {
        self.init()
        self.demo = demo
        createdAt = now
    }

    func apply(_ valid: OfferRules.ValidOffer, now: Date) {
        advertiserID = valid.advertiserID
        headline = valid.headline
        description = valid.description
        priceText = valid.priceText
        landingURL = valid.landingURL
        genres = valid.genres.joined(separator: "\n")
        keywords = valid.keywords.joined(separator: "\n")
        media = valid.media.rawValue
        startsOn = valid.startsOn
        endsOn = valid.endsOn
        weight = valid.weight
        active = valid.active
        updatedAt = now
    }
}
