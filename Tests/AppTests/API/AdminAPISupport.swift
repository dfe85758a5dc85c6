import Foundation
import Hummingbird
import HummingbirdTesting
import PopcornAPI
import Testing

@testable import App

/// What the tests of the console's API operations share: the callers' tokens, valid bodies, every
/// operation, and the words that must never leak to a refused caller.
enum AdminAPI {
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
    static let calls: [(HTTPRequest.Method, String, String?)] = [
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

    static func expectNoData(_ response: TestResponse, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status.code >= 400, "\(label)", sourceLocation: sourceLocation)
        for word in dataWords {
            #expect(!response.text.contains(word), "\(label) answered with “\(word)”: \(response.text.prefix(200))", sourceLocation: sourceLocation)
        }
    }
}

extension TestClientProtocol {
    /// An admin API call; by default with the right bearer token.
    func offersAPI(
        _ uri: String, _ method: HTTPRequest.Method = .get, _ json: String? = nil,
        authorization: String? = "Bearer \(AdminAPI.token)", cookie: String? = nil
    ) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.accept] = "application/json"
        if let authorization { headers[.authorization] = authorization }
        if let cookie { headers[.cookie] = cookie }
        if json != nil { headers[.contentType] = "application/json" }
        return try await execute(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }
}
