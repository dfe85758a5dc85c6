import Foundation
import Hummingbird
import HummingbirdTesting
import PopcornAPI
import Testing

@testable import App

@Suite("JSON API v1: partner offers")
struct OffersAPITests {
    @Test("GET /api/v1/offers for a film: banner and shops from the demo data, tracked click URLs, impressions counted")
    func filmOffers() async throws {
        try await TestApp.withOffers(.demo) { app, _ in
            try await app.test { client in
                let response = try await client.get("/api/v1/offers?title=movie:1001")
                #expect(response.status == .ok)
                let answer = try APITests.decode(Schemas.TitleOffers.self, response)
                #expect(answer.title == "movie:1001")
                let banner = try #require(answer.banner)
                #expect(!answer.offers.isEmpty && answer.offers.count <= OfferService.shopLimit)
                #expect(Set(answer.offers.map(\.advertiser.id)).count == answer.offers.count, "one offer per shop")
                #expect(banner.clickURL == "/offers/\(banner.id)/go?placement=banner&title=movie:1001")
                for offer in answer.offers {
                    #expect(offer.clickURL == "/offers/\(offer.id)/go?placement=shop&title=movie:1001")
                }
                for offer in answer.all {
                    #expect(offer.demo && !offer.headline.isEmpty && !offer.advertiser.name.isEmpty)
                    #expect(offer.advertiser.logoURL.hasPrefix("/offers/images/") && offer.imageURL == offer.advertiser.logoURL)
                    let stored = try await app.services.offerAdmin.offer(offer.id)
                    #expect(stored?.media != .show, "\(offer.headline) is for TV shows only")
                }
                // "Middle Of The Year" is a thriller: the banner targets it.
                let bannerOffer = try #require(try await app.services.offerAdmin.offer(banner.id))
                #expect(bannerOffer.genres.contains("thriller"))
                let range = try ReportRange.parse(from: nil, to: nil, today: app.services.offerAdmin.today).get()
                let report = try await app.services.offerAdmin.report(.offer(banner.id), range: range)
                #expect(report.totals.impressions == 1 && report.totals.clicks == 0)
            }
        }
    }

    @Test("GET /api/v1/offers for TV shows never lists a films-only offer")
    func showOffers() async throws {
        try await TestApp.withOffers(.demo) { app, _ in
            try await app.test { client in
                for id in [139, 590, 45499] {
                    let response = try await client.get("/api/v1/offers?title=show:\(id)")
                    #expect(response.status == .ok)
                    let answer = try APITests.decode(Schemas.TitleOffers.self, response)
                    #expect(answer.title == "show:\(id)" && answer.banner != nil)
                    for offer in answer.all {
                        #expect(offer.clickURL.hasPrefix("/offers/\(offer.id)/go?placement=") && offer.clickURL.hasSuffix("&title=show:\(id)"))
                        let media = try await app.services.offerAdmin.offer(offer.id)?.media
                        #expect(media == .show || media == .both, "show \(id): \(offer.headline) is \(String(describing: media))")
                    }
                }
            }
        }
    }

    @Test("the frequency cap applies to API callers that keep their ps_visitor cookie")
    func frequencyCap() async throws {
        try await TestApp.withOffers(.demo) { app, _ in
            try await app.test { client in
                let first = try await client.get("/api/v1/offers?title=movie:1001")
                let cookie = try #require(
                    first.headers[values: .setCookie].first { $0.hasPrefix("ps_visitor=") }.map { String($0.prefix { $0 != ";" }) })
                let banner = try #require(try APITests.decode(Schemas.TitleOffers.self, first).banner)
                for _ in 0..<2 {
                    #expect(
                        try APITests.decode(Schemas.TitleOffers.self, try await client.get("/api/v1/offers?title=movie:1001", cookie: cookie)).banner?
                            .id == banner.id)
                }
                let capped = try APITests.decode(Schemas.TitleOffers.self, try await client.get("/api/v1/offers?title=movie:1001", cookie: cookie))
                #expect(capped.banner != nil && !capped.all.map(\.id).contains(banner.id))
                // Another visitor still gets it.
                let other = Visitors.cookie(2)
                #expect(
                    try APITests.decode(Schemas.TitleOffers.self, try await client.get("/api/v1/offers?title=movie:1001", cookie: other)).banner?.id
                        == banner.id)
            }
        }
    }

    @Test(
        "a malformed or missing title is a 400 problem",
        arguments: [
            "/api/v1/offers?title=movie:abc", "/api/v1/offers?title=film:1", "/api/v1/offers", "/api/v1/offers?title=",
            "/api/v1/offers?title=movie:0", "/api/v1/offers?title=movie:01", "/api/v1/offers?title=movie:-5", "/api/v1/offers?title=show:",
            "/api/v1/offers?title=movie:1:2", "/api/v1/offers?title=movie:1234567890123", "/api/v1/offers?title=MOVIE:1001",
        ])
    func badTitles(path: String) async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let response = try await client.get(path, accept: "application/json")
                #expect(response.status == .badRequest)
                #expect(response.headers[.contentType]?.hasPrefix("application/problem+json") == true)
                #expect(try APITests.decode(Schemas.Problem.self, response).status == 400)
            }
        }
    }

    @Test("unknown titles are 404; an unreachable catalogue is 503")
    func unknownTitles() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let unknown = try await client.get("/api/v1/offers?title=movie:999999")
                #expect(unknown.status == .notFound)
                #expect(try APITests.decode(Schemas.Problem.self, unknown).title == "Not Found")
                #expect(try await client.get("/api/v1/offers?title=show:424242").status == .notFound)
                app.upstream.respond { _ throws(UpstreamError) in throw .unreachable("down") }
                let down = try await client.get("/api/v1/offers?title=movie:777777")
                #expect(down.status == .serviceUnavailable)
                #expect(try APITests.decode(Schemas.Problem.self, down).detail == ErrorTexts.fetchFailed)
            }
        }
    }
}

extension Schemas.TitleOffers {
    /// The banner (if any), then the shops' offers.
    var all: [Schemas.Offer] { (banner.map { [$0] } ?? []) + offers }
}
