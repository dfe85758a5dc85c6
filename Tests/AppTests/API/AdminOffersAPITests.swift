import Foundation
import Hummingbird
import HummingbirdTesting
import PopcornAPI
import Testing

@testable import App

@Suite("JSON API v1: the console's shops, offers and reports")
struct AdminOffersAPITests {
    @Test("create a shop and an offer, see it served and clicked in its report, pause it, delete it")
    func lifecycle() async throws {
        try await TestApp.withOffers(.demo) { app, _ in
            try await app.seedAdmin(token: AdminAPI.token)
            try await app.test { client in
                let shops = try APITests.decode(Schemas.AdvertiserList.self, try await client.offersAPI("/api/v1/admin/advertisers"))
                #expect(shops.advertisers.count == 8 && shops.advertisers.allSatisfy(\.demo))
                #expect(shops.advertisers.map(\.name) == shops.advertisers.map(\.name).sorted())

                let created = try await client.offersAPI("/api/v1/admin/advertisers", .post, AdminAPI.advertiserBody)
                #expect(created.status == .created)
                let shop = try APITests.decode(Schemas.AdminAdvertiser.self, created)
                #expect(shop.name == "Test Shop" && shop.domains == ["testshop.example"] && !shop.demo)
                #expect(shop.logoURL.hasPrefix("/offers/images/"), "a monogram logo is generated")
                #expect(try await client.get(shop.logoURL).status == .ok)
                let listed = try APITests.decode(Schemas.AdvertiserList.self, try await client.offersAPI("/api/v1/admin/advertisers"))
                #expect(listed.advertisers.count == 9 && listed.advertisers.contains { $0.id == shop.id })

                let saved = try await client.offersAPI("/api/v1/admin/offers", .post, AdminAPI.offerBody(advertiser: shop.id))
                #expect(saved.status == .created)
                let offer = try APITests.decode(Schemas.AdminOffer.self, saved)
                #expect(offer.status == .live && offer.active && !offer.demo && offer.weight == 10 && offer.media == .movie)
                #expect(offer.keywords == ["middle"] && offer.genres == ["thriller"] && offer.imageURL == nil)
                #expect(offer.landingURL == "https://shop.testshop.example/candle")
                let all = try APITests.decode(Schemas.AdminOfferList.self, try await client.offersAPI("/api/v1/admin/offers"))
                #expect(
                    all.today == "2026-11-18" && all.offers.count == 33 && all.offers.contains { $0.id == offer.id && $0.headline == offer.headline })
                let mine = try APITests.decode(
                    Schemas.AdminOfferList.self, try await client.offersAPI("/api/v1/admin/offers?advertiserId=\(shop.id)"))
                #expect(mine.offers.map(\.id) == [offer.id])
                #expect(
                    try APITests.decode(Schemas.AdminOffer.self, try await client.offersAPI("/api/v1/admin/offers/\(offer.id)")).headline
                        == offer.headline)

                // Served for a matching film (thriller, "middle" in its name), at the top.
                let served = try APITests.decode(Schemas.TitleOffers.self, try await client.get("/api/v1/offers?title=movie:1001"))
                #expect(served.banner?.id == offer.id)
                #expect(served.banner?.clickURL == "/offers/\(offer.id)/go?placement=banner&title=movie:1001")
                #expect(served.banner?.advertiser.name == "Test Shop" && served.banner?.demo == false)
                // Not for a TV show: it is for films only.
                let show = try APITests.decode(Schemas.TitleOffers.self, try await client.get("/api/v1/offers?title=show:139"))
                #expect(!show.all.map(\.id).contains(offer.id))

                // A click through the page route shows in today's row.
                let click = try await client.get("/offers/\(offer.id)/go?title=movie:1001")
                #expect(click.status == .seeOther)
                #expect(click.headers[.location]?.hasPrefix("https://shop.testshop.example/candle") == true)
                let reportResponse = try await client.offersAPI("/api/v1/admin/offers/\(offer.id)/report")
                #expect(reportResponse.status == .ok)
                let report = try APITests.decode(Schemas.OfferReport.self, reportResponse)
                #expect(report.offerId == offer.id && report.to == "2026-11-18" && report.from == "2026-10-20" && report.rows.count == 30)
                let today = try #require(report.rows.last)
                #expect(today.day == "2026-11-18" && today.clicks == 1 && today.impressions == 1 && today.ctr == 100)
                #expect(report.rows.dropLast().allSatisfy { $0.impressions == 0 && $0.clicks == 0 && $0.ctr == nil })
                #expect(report.totals.clicks == 1 && report.totals.impressions == 1 && report.totals.ctr == 100)
                let explicit = try APITests.decode(
                    Schemas.OfferReport.self, try await client.offersAPI("/api/v1/admin/offers/\(offer.id)/report?from=2026-11-17&to=2026-11-18"))
                #expect(explicit.rows.map(\.day) == ["2026-11-17", "2026-11-18"] && explicit.totals.clicks == 1)
                #expect(explicit.rows.first?.ctr == nil)

                // Paused: no longer served.
                let paused = try await client.offersAPI(
                    "/api/v1/admin/offers/\(offer.id)", .put, AdminAPI.offerBody(advertiser: shop.id, ["active": false]))
                #expect(paused.status == .ok)
                #expect(try APITests.decode(Schemas.AdminOffer.self, paused).status == .paused)
                let afterPause = try APITests.decode(Schemas.TitleOffers.self, try await client.get("/api/v1/offers?title=movie:1001"))
                #expect(afterPause.banner != nil && !afterPause.all.map(\.id).contains(offer.id))
                #expect(try await client.get("/offers/\(offer.id)/go?title=movie:1001").status == .notFound)
                // Full replace: a field left out takes its default (weight 5, active true, both).
                let replaced = try await client.offersAPI(
                    "/api/v1/admin/offers/\(offer.id)", .put,
                    AdminAPI.json([
                        "advertiserId": shop.id, "headline": "Scheduled Candle", "description": "Later.", "priceText": "$9",
                        "landingURL": "https://testshop.example/later", "startsOn": "2026-12-01", "endsOn": "2026-12-31",
                    ]))
                let later = try APITests.decode(Schemas.AdminOffer.self, replaced)
                #expect(
                    later.status == .scheduled && later.weight == 5 && later.active && later.media == .both && later.genres.isEmpty
                        && later.keywords.isEmpty)
                #expect(try await client.offersAPI("/api/v1/admin/offers/999999", .put, AdminAPI.offerBody(advertiser: shop.id)).status == .notFound)

                // Deleted: gone for every operation.
                #expect(try await client.offersAPI("/api/v1/admin/offers/\(offer.id)", .delete).status == .noContent)
                for (method, path, body) in [
                    (HTTPRequest.Method.get, "/api/v1/admin/offers/\(offer.id)", nil), (.delete, "/api/v1/admin/offers/\(offer.id)", nil),
                    (.put, "/api/v1/admin/offers/\(offer.id)", AdminAPI.offerBody(advertiser: shop.id)),
                    (.get, "/api/v1/admin/offers/\(offer.id)/report", nil),
                ] as [(HTTPRequest.Method, String, String?)] {
                    let response = try await client.offersAPI(path, method, body)
                    #expect(response.status == .notFound, "\(method) \(path)")
                    #expect(response.headers[.contentType]?.hasPrefix("application/problem+json") == true)
                }
                #expect(try await app.services.offerAdmin.offers().count == 32)
                #expect(try await client.offersAPI("/api/v1/admin/offers/0").status == .badRequest)
                #expect(try await client.offersAPI("/api/v1/admin/offers/abc").status == .badRequest)
            }
        }
    }

    @Test("values that break the rules are a 422 problem naming each field; a body that does not fit the schema is a 400")
    func invalidValues() async throws {
        try await TestApp.withOffers(.demo) { app, _ in
            try await app.seedAdmin(token: AdminAPI.token)
            try await app.test { client in
                let shop = try APITests.decode(
                    Schemas.AdminAdvertiser.self, try await client.offersAPI("/api/v1/admin/advertisers", .post, AdminAPI.advertiserBody))
                let cases: [(String, [String: Any], field: String, words: String)] = [
                    ("http landing page", ["landingURL": "http://testshop.example/candle"], "landingURL", "must start with https://"),
                    (
                        "landing on another domain", ["landingURL": "https://evil.example/candle"], "landingURL",
                        "must be on one of the shop’s domains"
                    ),
                    ("ends before it starts", ["startsOn": "2026-06-02", "endsOn": "2026-06-01"], "endsOn", "on or after the start date"),
                    ("weight 0", ["weight": 0], "weight", "from 1 to 10"),
                    ("weight 11", ["weight": 11], "weight", "from 1 to 10"),
                    (
                        "headline of 71 characters", ["headline": String(repeating: "h", count: 71)], "headline",
                        "Headline has 71 characters; the limit is 70."
                    ),
                    ("unknown genre", ["genres": ["thriller", "westerns"]], "genres", "“westerns” is not one of the genres listed."),
                    ("no such day", ["startsOn": "2026-02-30"], "startsOn", "Start date"),
                    ("unknown advertiser", ["advertiserId": 999999], "advertiserId", "Choose the shop"),
                    ("empty headline", ["headline": "   "], "headline", "Headline is required."),
                    ("11 keywords", ["keywords": (1...11).map { "word\($0)" }], "keywords", "at most 10 keywords"),
                ]
                for (name, change, field, words) in cases {
                    for (method, path) in [(HTTPRequest.Method.post, "/api/v1/admin/offers"), (.put, "/api/v1/admin/offers/1")] {
                        let response = try await client.offersAPI(path, method, AdminAPI.offerBody(advertiser: shop.id, change))
                        #expect(response.status == .unprocessableContent, "\(name): \(method)")
                        #expect(response.headers[.contentType]?.hasPrefix("application/problem+json") == true)
                        let problem = try APITests.decode(Schemas.Problem.self, response)
                        #expect(
                            problem.status == 422 && problem.title == "Unprocessable Content" && problem.detail.contains(words),
                            "\(name): \(problem.detail)")
                        #expect(
                            problem.errors?.additionalProperties[field]?.contains(words) == true, "\(name): \(String(describing: problem.errors))")
                    }
                }
                let several = try APITests.decode(
                    Schemas.Problem.self,
                    try await client.offersAPI(
                        "/api/v1/admin/offers", .post, AdminAPI.offerBody(advertiser: shop.id, ["weight": 0, "priceText": ""])
                    ))
                #expect(Set(several.errors?.additionalProperties.keys.map { $0 } ?? []) == ["weight", "priceText"])
                #expect(several.detail.contains("Price is required.") && several.detail.contains("Weight"))

                let badShop = try await client.offersAPI(
                    "/api/v1/admin/advertisers", .post,
                    AdminAPI.json([
                        "name": "", "website": "http://testshop.example", "domains": ["not a domain!"],
                    ]))
                #expect(badShop.status == .unprocessableContent)
                let shopProblem = try APITests.decode(Schemas.Problem.self, badShop)
                #expect(Set(shopProblem.errors?.additionalProperties.keys.map { $0 } ?? []) == ["name", "domains", "website"])

                for body in [
                    AdminAPI.offerBody(advertiser: shop.id, ["media": "films"]),
                    AdminAPI.offerBody(advertiser: shop.id, ["weight": "5"]),
                    AdminAPI.offerBody(advertiser: shop.id, ["imageURL": "https://testshop.example/x.png"]),
                    AdminAPI.json(["advertiserId": shop.id, "headline": "No dates"]),
                    "{not json",
                ] {
                    let response = try await client.offersAPI("/api/v1/admin/offers", .post, body)
                    #expect(response.status == .badRequest, "\(body)")
                    #expect(try APITests.decode(Schemas.Problem.self, response).status == 400)
                }
                // Nothing was saved, and the demo offer 1 is unchanged.
                #expect(try await app.services.offerAdmin.offers().count == 32)
                #expect(try await app.services.offerAdmin.offer(1)?.advertiserID != shop.id)
            }
        }
    }

    @Test(
        "a report range that is not valid is a 400 problem about the range",
        arguments: [
            "from=2026-11-18&to=2026-11-01", "from=2025-10-01&to=2026-11-04", "from=2026-02-30&to=2026-03-01", "to=tomorrow", "from=18.11.2026",
        ])
    func badReportRange(query: String) async throws {
        try await TestApp.withOffers(.demo) { app, _ in
            try await app.seedAdmin(token: AdminAPI.token)
            try await app.test { client in
                let response = try await client.offersAPI("/api/v1/admin/offers/1/report?\(query)")
                #expect(response.status == .badRequest)
                let problem = try APITests.decode(Schemas.Problem.self, response)
                #expect(problem.status == 400 && problem.title == "Bad Request" && problem.errors?.additionalProperties["range"] == problem.detail)
            }
        }
    }
}
