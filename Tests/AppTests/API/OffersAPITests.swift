import Foundation
import Hummingbird
import HummingbirdTesting
import PopcornAPI
import Testing

@testable import App

@Suite("JSON API v1: partner offers")
struct OffersAPITests {
    /// The personal API token of the tests' administrator (see `TestApp.seedAdmin`).
    static let token = testToken("test-admin-token")
    static let memberToken = testToken("test-member-token")

    static func json(_ object: [String: Any]) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    /// A valid offer for the shop on `testshop.example` (`advertiserId` filled in by the caller).
    static func offerBody(advertiser: Int, _ changes: [String: Any] = [:]) -> String {
        var body: [String: Any] = [
            "advertiserId": advertiser, "headline": "Midnight Thriller Candle", "description": "Smells like a plot twist.",
            "priceText": "$12.00", "landingURL": "https://shop.testshop.example/candle", "genres": ["thriller"],
            "keywords": ["Middle"], "media": "movie", "startsOn": "2026-01-01", "endsOn": "2026-12-31", "weight": 10, "active": true,
        ]
        body.merge(changes) { $1 }
        return json(body)
    }

    static let advertiserBody = json([
        "name": "Test Shop", "description": "Candles for film nights.", "website": "https://testshop.example", "domains": ["testshop.example"],
    ])

    /// Every admin operation, with a body that would be valid.
    static let adminCalls: [(HTTPRequest.Method, String, String?)] = [
        (.get, "/api/v1/admin/advertisers", nil),
        (.post, "/api/v1/admin/advertisers", advertiserBody),
        (.get, "/api/v1/admin/offers", nil),
        (.get, "/api/v1/admin/offers?advertiserId=1", nil),
        (.post, "/api/v1/admin/offers", offerBody(advertiser: 1, ["landingURL": "https://reelsnacks.example/x"])),
        (.get, "/api/v1/admin/offers/1", nil),
        (.put, "/api/v1/admin/offers/1", offerBody(advertiser: 1, ["landingURL": "https://reelsnacks.example/x"])),
        (.delete, "/api/v1/admin/offers/1", nil),
        (.get, "/api/v1/admin/offers/1/report", nil),
        (.get, "/api/v1/admin/offers/1/report?from=2026-11-01&to=2026-11-18", nil),
    ]

    /// Words only offer or advertiser data contains.
    static let dataWords = ["headline", "landingURL", "advertisers", "domains", "priceText", "Reel Snacks", "reelsnacks"]

    @Test("GET /api/v1/offers for a film: banner and shops from the demo data, tracked click URLs, impressions counted")
    func filmOffers() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let response = try await client.get("/api/v1/offers?title=movie:1001")
                #expect(response.status == .ok)
                let answer = try APITests.decode(Schemas.TitleOffers.self, response)
                #expect(answer.title == "movie:1001")
                let banner = try #require(answer.banner)
                #expect(!answer.offers.isEmpty && answer.offers.count <= OfferService.shopLimit)
                #expect(Set(answer.offers.map(\.advertiser.id)).count == answer.offers.count, "one offer per shop")
                for offer in answer.all {
                    #expect(offer.clickURL == "/offers/\(offer.id)/go?title=movie:1001")
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
            // The tracker's delayed write must not outlive the test database.
            await app.services.offers.tracker.flush()
        }
    }

    @Test("GET /api/v1/offers for TV shows never lists a films-only offer")
    func showOffers() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                for id in [139, 590, 45499] {
                    let response = try await client.get("/api/v1/offers?title=show:\(id)")
                    #expect(response.status == .ok)
                    let answer = try APITests.decode(Schemas.TitleOffers.self, response)
                    #expect(answer.title == "show:\(id)" && answer.banner != nil)
                    for offer in answer.all {
                        #expect(offer.clickURL == "/offers/\(offer.id)/go?title=show:\(id)")
                        let media = try await app.services.offerAdmin.offer(offer.id)?.media
                        #expect(media == .show || media == .both, "show \(id): \(offer.headline) is \(String(describing: media))")
                    }
                }
            }
            // The tracker's delayed write must not outlive the test database.
            await app.services.offers.tracker.flush()
        }
    }

    @Test("the frequency cap applies to API callers that keep their ps_visitor cookie")
    func frequencyCap() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let first = try await client.get("/api/v1/offers?title=movie:1001")
                let cookie = try #require(first.headers[values: .setCookie].first { $0.hasPrefix("ps_visitor=") }.map { String($0.prefix { $0 != ";" }) })
                let banner = try #require(try APITests.decode(Schemas.TitleOffers.self, first).banner)
                for _ in 0..<2 {
                    #expect(try APITests.decode(Schemas.TitleOffers.self, try await client.get("/api/v1/offers?title=movie:1001", cookie: cookie)).banner?.id == banner.id)
                }
                let capped = try APITests.decode(Schemas.TitleOffers.self, try await client.get("/api/v1/offers?title=movie:1001", cookie: cookie))
                #expect(capped.banner != nil && !capped.all.map(\.id).contains(banner.id))
                // Another visitor still gets it.
                let other = "ps_visitor=" + String(repeating: "b", count: 43)
                #expect(try APITests.decode(Schemas.TitleOffers.self, try await client.get("/api/v1/offers?title=movie:1001", cookie: other)).banner?.id == banner.id)
            }
            // The tracker's delayed write must not outlive the test database.
            await app.services.offers.tracker.flush()
        }
    }

    @Test("a malformed or missing title is a 400 problem", arguments: [
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

    @Test("every admin operation: 401 without a live token, 403 for a member's token or session; never any data")
    func refusedCallers() async throws {
        try await TestApp.with { app in
            try await app.seedAdmin(token: Self.token)
            let member = try await app.signedIn("member")
            try await app.give(Self.memberToken, to: member.profile)
            try await app.test { client in
                for (method, path, body) in Self.adminCalls {
                    let unauthorized = [
                        nil, "Basic dGVzdDp0ZXN0", "Bearer", "token \(Self.token)", "Bearer wrong-token-0123456789", "Bearer \(Self.token)x",
                        "Bearer  \(Self.token)", "Bearer ", "Bearer \(testToken("never-issued"))",
                    ]
                    for authorization in unauthorized {
                        let response = try await client.offersAPI(path, method, body, authorization: authorization)
                        #expect(response.status == .unauthorized, "\(method) \(path) with \(authorization ?? "no header")")
                        #expect(response.headers[.wwwAuthenticate] == #"Bearer realm="PopcornSwirl""#)
                        #expect(try APITests.decode(Schemas.Problem.self, response).title == "Unauthorized")
                        Self.expectNoData(response, "\(method) \(path)")
                    }
                    let memberCall = try await client.offersAPI(path, method, body, authorization: "Bearer \(Self.memberToken)")
                    #expect(memberCall.status == .forbidden, "\(method) \(path) with a member's token")
                    #expect(try APITests.decode(Schemas.Problem.self, memberCall).detail == APIRefusal.notAdmin)
                    Self.expectNoData(memberCall, "\(method) \(path)")
                    let memberSession = try await client.offersAPI(path, method, body, authorization: nil, cookie: member.cookie)
                    #expect(memberSession.status == .forbidden, "\(method) \(path) with a member's session")
                    Self.expectNoData(memberSession, "\(method) \(path)")
                }
                // Nothing was created, changed or deleted.
                #expect(try await app.services.offerAdmin.offers().count == 32)
                #expect(try await app.services.offerAdmin.advertisers().count == 8)
                #expect(try await app.services.offerAdmin.offer(1)?.landingURL.host?.hasSuffix("reelsnacks.example") == true)
                // Paths the router may normalise are refused too.
                for path in ["/api/v1//admin/offers", "/api//v1/admin/offers/1", "/api/v1/%61dmin/offers", "/api/v1/admin/offers/", "/api/v1/admin/offers/1/"] {
                    let response = try await client.offersAPI(path, .get, nil, authorization: nil)
                    #expect(response.status == .unauthorized || response.status == .notFound, "\(path): \(response.status)")
                    if response.status == .unauthorized {
                        #expect(response.headers[.wwwAuthenticate] == #"Bearer realm="PopcornSwirl""#, "\(path)")
                        #expect(try APITests.decode(Schemas.Problem.self, response).title == "Unauthorized", "\(path)")
                    }
                    Self.expectNoData(response, path)
                }
            }
        }
    }

    @Test("a revoked token stops working at once; an administrator's session cookie works like their token")
    func revokedAndSession() async throws {
        try await TestApp.with { app in
            let cookie = try await app.seedAdmin(token: Self.token)
            try await app.test { client in
                #expect(try await client.offersAPI("/api/v1/admin/offers/1", .get, nil).status == .ok)
                let viaSession = try await client.offersAPI("/api/v1/admin/offers/1", .get, nil, authorization: nil, cookie: cookie)
                #expect(viaSession.status == .ok)
                let admin = try #require(try await app.services.accounts.profile(username: "admin"))
                let issued = try await app.services.tokens.list(profile: admin)
                #expect(issued.map(\.hint) == [String(Self.token.prefix(9))])
                #expect(try await app.services.tokens.revoke(profile: admin, id: issued[0].id))
                let revoked = try await client.offersAPI("/api/v1/admin/offers/1", .get, nil)
                #expect(revoked.status == .unauthorized)
                Self.expectNoData(revoked, "revoked token")
            }
        }
    }

    @Test("the handlers refuse by themselves too, whatever the middleware did")
    func handlersRefuse() async throws {
        try await TestApp.with { app in
            try await app.seedAdmin(token: Self.token)
            let renderer = try await PageRenderer.load()
            let api = APIController(
                services: app.services, movies: MoviesController(services: app.services, renderer: renderer, sharedPages: RenderedPageCache()),
                shows: ShowsController(services: app.services, renderer: renderer)
            )
            let body = Components.Schemas.OfferInput(
                advertiserId: 1, headline: "H", description: "D", priceText: "$1", landingURL: "https://reelsnacks.example/x",
                startsOn: "2026-01-01", endsOn: "2026-12-31"
            )
            func session(_ refusal: HTTPResponse.Status?) -> APISession {
                APISession(existing: nil, sessions: app.services.sessions, visitor: "v", adminRefusal: refusal)
            }
            for refusal in [HTTPResponse.Status.unauthorized, .forbidden] {
                try await APIScope.$session.withValue(session(refusal)) {
                    var outputs: [String] = []
                    outputs.append(String(describing: try await api.listAdvertisers(.init())))
                    outputs.append(String(describing: try await api.createAdvertiser(.init(body: .json(.init(
                        name: "X", website: "https://x.example", domains: ["x.example"]
                    ))))))
                    outputs.append(String(describing: try await api.listAdminOffers(.init())))
                    outputs.append(String(describing: try await api.createOffer(.init(body: .json(body)))))
                    outputs.append(String(describing: try await api.getAdminOffer(.init(path: .init(id: 1)))))
                    outputs.append(String(describing: try await api.replaceOffer(.init(path: .init(id: 1), body: .json(body)))))
                    outputs.append(String(describing: try await api.deleteOffer(.init(path: .init(id: 1)))))
                    outputs.append(String(describing: try await api.getOfferReport(.init(path: .init(id: 1)))))
                    #expect(outputs.count == 8)
                    for output in outputs {
                        #expect(output.hasPrefix(refusal == .unauthorized ? "unauthorized(" : "forbidden("), "\(output.prefix(200))")
                        #expect(!output.contains("Reel Snacks") && !output.contains("reelsnacks.example"))
                    }
                }
            }
            // No session at all (the middleware did not run): refused.
            let bare = try await api.getAdminOffer(.init(path: .init(id: 1)))
            guard case .forbidden = bare else {
                Issue.record("expected 403 without a session, got \(bare)")
                return
            }
            let count = try await app.services.offerAdmin.offers().count
            let first = try await app.services.offerAdmin.offer(1)
            #expect(count == 32 && first != nil)
            // Allowed: the data.
            let allowed = try await APIScope.$session.withValue(session(nil)) { try await api.getAdminOffer(.init(path: .init(id: 1))) }
            guard case .ok = allowed else {
                Issue.record("expected 200 when allowed, got \(allowed)")
                return
            }
        }
    }

    @Test("create a shop and an offer, see it served and clicked in its report, pause it, delete it")
    func lifecycle() async throws {
        try await TestApp.with { app in
            try await app.seedAdmin(token: Self.token)
            try await app.test { client in
                let shops = try APITests.decode(Schemas.AdvertiserList.self, try await client.offersAPI("/api/v1/admin/advertisers"))
                #expect(shops.advertisers.count == 8 && shops.advertisers.allSatisfy(\.demo))
                #expect(shops.advertisers.map(\.name) == shops.advertisers.map(\.name).sorted())

                let created = try await client.offersAPI("/api/v1/admin/advertisers", .post, Self.advertiserBody)
                #expect(created.status == .created)
                let shop = try APITests.decode(Schemas.AdminAdvertiser.self, created)
                #expect(shop.name == "Test Shop" && shop.domains == ["testshop.example"] && !shop.demo)
                #expect(shop.logoURL.hasPrefix("/offers/images/"), "a monogram logo is generated")
                #expect(try await client.get(shop.logoURL).status == .ok)
                let listed = try APITests.decode(Schemas.AdvertiserList.self, try await client.offersAPI("/api/v1/admin/advertisers"))
                #expect(listed.advertisers.count == 9 && listed.advertisers.contains { $0.id == shop.id })

                let saved = try await client.offersAPI("/api/v1/admin/offers", .post, Self.offerBody(advertiser: shop.id))
                #expect(saved.status == .created)
                let offer = try APITests.decode(Schemas.AdminOffer.self, saved)
                #expect(offer.status == .live && offer.active && !offer.demo && offer.weight == 10 && offer.media == .movie)
                #expect(offer.keywords == ["middle"] && offer.genres == ["thriller"] && offer.imageURL == nil)
                #expect(offer.landingURL == "https://shop.testshop.example/candle")
                let all = try APITests.decode(Schemas.AdminOfferList.self, try await client.offersAPI("/api/v1/admin/offers"))
                #expect(all.today == "2026-11-18" && all.offers.count == 33 && all.offers.contains { $0.id == offer.id && $0.headline == offer.headline })
                let mine = try APITests.decode(Schemas.AdminOfferList.self, try await client.offersAPI("/api/v1/admin/offers?advertiserId=\(shop.id)"))
                #expect(mine.offers.map(\.id) == [offer.id])
                #expect(try APITests.decode(Schemas.AdminOffer.self, try await client.offersAPI("/api/v1/admin/offers/\(offer.id)")).headline == offer.headline)

                // Served for a matching film (thriller, "middle" in its name), at the top.
                let served = try APITests.decode(Schemas.TitleOffers.self, try await client.get("/api/v1/offers?title=movie:1001"))
                #expect(served.banner?.id == offer.id)
                #expect(served.banner?.clickURL == "/offers/\(offer.id)/go?title=movie:1001")
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
                let explicit = try APITests.decode(Schemas.OfferReport.self, try await client.offersAPI("/api/v1/admin/offers/\(offer.id)/report?from=2026-11-17&to=2026-11-18"))
                #expect(explicit.rows.map(\.day) == ["2026-11-17", "2026-11-18"] && explicit.totals.clicks == 1)
                #expect(explicit.rows.first?.ctr == nil)

                // Paused: no longer served.
                let paused = try await client.offersAPI("/api/v1/admin/offers/\(offer.id)", .put, Self.offerBody(advertiser: shop.id, ["active": false]))
                #expect(paused.status == .ok)
                #expect(try APITests.decode(Schemas.AdminOffer.self, paused).status == .paused)
                let afterPause = try APITests.decode(Schemas.TitleOffers.self, try await client.get("/api/v1/offers?title=movie:1001"))
                #expect(afterPause.banner != nil && !afterPause.all.map(\.id).contains(offer.id))
                #expect(try await client.get("/offers/\(offer.id)/go?title=movie:1001").status == .notFound)
                // Full replace: a field left out takes its default (weight 5, active true, both).
                let replaced = try await client.offersAPI("/api/v1/admin/offers/\(offer.id)", .put, Self.json([
                    "advertiserId": shop.id, "headline": "Scheduled Candle", "description": "Later.", "priceText": "$9",
                    "landingURL": "https://testshop.example/later", "startsOn": "2026-12-01", "endsOn": "2026-12-31",
                ]))
                let later = try APITests.decode(Schemas.AdminOffer.self, replaced)
                #expect(later.status == .scheduled && later.weight == 5 && later.active && later.media == .both && later.genres.isEmpty && later.keywords.isEmpty)
                #expect(try await client.offersAPI("/api/v1/admin/offers/999999", .put, Self.offerBody(advertiser: shop.id)).status == .notFound)

                // Deleted: gone for every operation.
                #expect(try await client.offersAPI("/api/v1/admin/offers/\(offer.id)", .delete).status == .noContent)
                for (method, path, body) in [
                    (HTTPRequest.Method.get, "/api/v1/admin/offers/\(offer.id)", nil), (.delete, "/api/v1/admin/offers/\(offer.id)", nil),
                    (.put, "/api/v1/admin/offers/\(offer.id)", Self.offerBody(advertiser: shop.id)), (.get, "/api/v1/admin/offers/\(offer.id)/report", nil),
                ] as [(HTTPRequest.Method, String, String?)] {
                    let response = try await client.offersAPI(path, method, body)
                    #expect(response.status == .notFound, "\(method) \(path)")
                    #expect(response.headers[.contentType]?.hasPrefix("application/problem+json") == true)
                }
                #expect(try await app.services.offerAdmin.offers().count == 32)
                #expect(try await client.offersAPI("/api/v1/admin/offers/0").status == .badRequest)
                #expect(try await client.offersAPI("/api/v1/admin/offers/abc").status == .badRequest)
            }
            // The tracker's delayed write must not outlive the test database.
            await app.services.offers.tracker.flush()
        }
    }

    @Test("values that break the rules are a 422 problem naming each field; a body that does not fit the schema is a 400")
    func invalidValues() async throws {
        try await TestApp.with { app in
            try await app.seedAdmin(token: Self.token)
            try await app.test { client in
                let shop = try APITests.decode(Schemas.AdminAdvertiser.self, try await client.offersAPI("/api/v1/admin/advertisers", .post, Self.advertiserBody))
                let cases: [(String, [String: Any], field: String, words: String)] = [
                    ("http landing page", ["landingURL": "http://testshop.example/candle"], "landingURL", "must start with https://"),
                    ("landing on another domain", ["landingURL": "https://evil.example/candle"], "landingURL", "must be on one of the shop’s domains"),
                    ("ends before it starts", ["startsOn": "2026-06-02", "endsOn": "2026-06-01"], "endsOn", "on or after the start date"),
                    ("weight 0", ["weight": 0], "weight", "from 1 to 10"),
                    ("weight 11", ["weight": 11], "weight", "from 1 to 10"),
                    ("headline of 71 characters", ["headline": String(repeating: "h", count: 71)], "headline", "Headline has 71 characters; the limit is 70."),
                    ("unknown genre", ["genres": ["thriller", "westerns"]], "genres", "“westerns” is not one of the genres listed."),
                    ("no such day", ["startsOn": "2026-02-30"], "startsOn", "Start date"),
                    ("unknown advertiser", ["advertiserId": 999999], "advertiserId", "Choose the shop"),
                    ("empty headline", ["headline": "   "], "headline", "Headline is required."),
                    ("11 keywords", ["keywords": (1...11).map { "word\($0)" }], "keywords", "at most 10 keywords"),
                ]
                for (name, change, field, words) in cases {
                    for (method, path) in [(HTTPRequest.Method.post, "/api/v1/admin/offers"), (.put, "/api/v1/admin/offers/1")] {
                        let response = try await client.offersAPI(path, method, Self.offerBody(advertiser: shop.id, change))
                        #expect(response.status == .unprocessableContent, "\(name): \(method)")
                        #expect(response.headers[.contentType]?.hasPrefix("application/problem+json") == true)
                        let problem = try APITests.decode(Schemas.Problem.self, response)
                        #expect(problem.status == 422 && problem.title == "Unprocessable Content" && problem.detail.contains(words), "\(name): \(problem.detail)")
                        #expect(problem.errors?.additionalProperties[field]?.contains(words) == true, "\(name): \(String(describing: problem.errors))")
                    }
                }
                let several = try APITests.decode(Schemas.Problem.self, try await client.offersAPI(
                    "/api/v1/admin/offers", .post, Self.offerBody(advertiser: shop.id, ["weight": 0, "priceText": ""])
                ))
                #expect(Set(several.errors?.additionalProperties.keys.map { $0 } ?? []) == ["weight", "priceText"])
                #expect(several.detail.contains("Price is required.") && several.detail.contains("Weight"))

                let badShop = try await client.offersAPI("/api/v1/admin/advertisers", .post, Self.json([
                    "name": "", "website": "http://testshop.example", "domains": ["not a domain!"],
                ]))
                #expect(badShop.status == .unprocessableContent)
                let shopProblem = try APITests.decode(Schemas.Problem.self, badShop)
                #expect(Set(shopProblem.errors?.additionalProperties.keys.map { $0 } ?? []) == ["name", "domains", "website"])

                for body in [
                    Self.offerBody(advertiser: shop.id, ["media": "films"]),
                    Self.offerBody(advertiser: shop.id, ["weight": "5"]),
                    Self.offerBody(advertiser: shop.id, ["imageURL": "https://testshop.example/x.png"]),
                    Self.json(["advertiserId": shop.id, "headline": "No dates"]),
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

    @Test("a report range that is not valid is a 400 problem about the range", arguments: [
        "from=2026-11-18&to=2026-11-01", "from=2025-10-01&to=2026-11-04", "from=2026-02-30&to=2026-03-01", "to=tomorrow", "from=18.11.2026",
    ])
    func badReportRange(query: String) async throws {
        try await TestApp.with { app in
            try await app.seedAdmin(token: Self.token)
            try await app.test { client in
                let response = try await client.offersAPI("/api/v1/admin/offers/1/report?\(query)")
                #expect(response.status == .badRequest)
                let problem = try APITests.decode(Schemas.Problem.self, response)
                #expect(problem.status == 400 && problem.title == "Bad Request" && problem.errors?.additionalProperties["range"] == problem.detail)
            }
        }
    }

    static func expectNoData(_ response: TestResponse, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status.code >= 400, "\(label)", sourceLocation: sourceLocation)
        for word in dataWords {
            #expect(!response.text.contains(word), "\(label) answered with “\(word)”: \(response.text.prefix(200))", sourceLocation: sourceLocation)
        }
    }
}

extension TestClientProtocol {
    /// An admin API call; by default with the right bearer token.
    fileprivate func offersAPI(
        _ uri: String, _ method: HTTPRequest.Method = .get, _ json: String? = nil,
        authorization: String? = "Bearer \(OffersAPITests.token)", cookie: String? = nil
    ) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.accept] = "application/json"
        if let authorization { headers[.authorization] = authorization }
        if let cookie { headers[.cookie] = cookie }
        if json != nil { headers[.contentType] = "application/json" }
        return try await execute(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }
}

extension Schemas.TitleOffers {
    /// The banner (if any), then the shops' offers.
    var all: [Schemas.Offer] { (banner.map { [$0] } ?? []) + offers }
}
