import Foundation
import SQLKit

@testable import App

/// The rows `SeedDemoOffers` writes, as text (every column but the times and the logos' random
/// ids), and the distinct times they carry.
enum SeedDescription {
    static func of(_ database: AppDatabase) async throws -> (text: String, times: Set<Date>) {
        let sql = try database.sql
        var text = ""
        var times: Set<Date> = []
        func line(_ name: String, _ value: String?) -> String {
            "  \(name): " + (value.map { $0.replacingOccurrences(of: "\n", with: "⏎") } ?? "NULL") + "\n"
        }
        let images = try await sql.raw("SELECT id, content_type, bytes, created_at FROM offer_images").all()
        var logos: [UUID: String] = [:]
        for image in images {
            times.insert(try image.decode(column: "created_at", as: Date.self))
            logos[try image.decode(column: "id", as: UUID.self)] =
                try image.decode(column: "content_type", as: String.self) + " "
                + String(decoding: try image.decode(column: "bytes", as: Data.self), as: UTF8.self)
        }
        text += "offer_images: \(images.count) rows\n"
        let advertisers = try await sql.raw(
            """
            SELECT id, name, description, website, domains, logo_image_id, demo, paused_at, created_at, updated_at FROM advertisers ORDER BY id
            """
        ).all()
        for row in advertisers {
            text += "advertiser \(try row.decode(column: "id", as: Int.self))\n"
            for column in ["name", "description", "website", "domains"] {
                text += line(column, try row.decode(column: column, as: String.self))
            }
            text += line("logo", try row.decode(column: "logo_image_id", as: UUID?.self).map { logos[$0] ?? "(no such image)" })
            text += line("demo", String(try row.decode(column: "demo", as: Bool.self)))
            text += line("paused_at", try row.decode(column: "paused_at", as: Date?.self).map { "\($0)" })
            times.insert(try row.decode(column: "created_at", as: Date.self))
            times.insert(try row.decode(column: "updated_at", as: Date.self))
        }
        let offers = try await sql.raw(
            """
            SELECT id, advertiser_id, headline, description, image_id, price_text, landing_url, genres, keywords, media, starts_on,
                   ends_on, weight, active, demo, created_at, updated_at
            FROM offers ORDER BY id
            """
        ).all()
        for row in offers {
            text += "offer \(try row.decode(column: "id", as: Int.self))\n"
            text += line("advertiser_id", String(try row.decode(column: "advertiser_id", as: Int.self)))
            for column in ["headline", "description", "price_text", "landing_url", "genres", "keywords", "media", "starts_on", "ends_on"] {
                text += line(column, try row.decode(column: column, as: String.self))
            }
            text += line("image_id", try row.decode(column: "image_id", as: UUID?.self)?.uuidString)
            text += line("weight", String(try row.decode(column: "weight", as: Int.self)))
            text += line("active", String(try row.decode(column: "active", as: Bool.self)))
            text += line("demo", String(try row.decode(column: "demo", as: Bool.self)))
            times.insert(try row.decode(column: "created_at", as: Date.self))
            times.insert(try row.decode(column: "updated_at", as: Date.self))
        }
        return (text, times)
    }
}
