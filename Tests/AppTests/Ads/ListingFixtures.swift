import Crypto
import Foundation
import HummingbirdTesting
import Testing

@testable import App

/// Building `Offer` values for the pure targeting tests.
enum OfferFixtures {
    /// The ManualClock's day.
    static let today = "2026-11-18"

    static func offer(
        _ id: Int, advertiser: Int = 1, genres: Set<String> = [], keywords: [String] = [], media: OfferMedia = .both,
        startsOn: String = "2025-01-01", endsOn: String = "2030-12-31", weight: Int = 1, active: Bool = true,
        landing: String = "https://shop.example.com/products/item"
    ) -> Offer {
        Offer(
            id: id, advertiserID: advertiser, headline: "Offer \(id)", description: "Description \(id)", imageID: nil,
            priceText: "$\(id).00", landingURL: URL(string: landing)!, genres: genres, keywords: keywords, media: media,
            startsOn: startsOn, endsOn: endsOn, weight: weight, active: active, demo: false
        )
    }

    static func movie(_ name: String, genres: [String] = [], synopsis: String? = nil, id: Int = 1) -> OfferContext {
        OfferContext(title: TitleRef(kind: .movie, id: id), name: name, genreNames: genres, synopsis: synopsis)
    }

    static func show(_ name: String, genres: [String] = [], synopsis: String? = nil, id: Int = 1) -> OfferContext {
        OfferContext(title: TitleRef(kind: .show, id: id), name: name, genreNames: genres, synopsis: synopsis)
    }

    /// Ranks for one title on the clock's day, nothing capped.
    static func rank(_ offers: [Offer], for context: OfferContext, day: String = today, kind: MediaKind? = nil) -> [Int] {
        OfferTargeting.rank(offers, day: day, kind: kind ?? context.title.kind) {
            OfferTargeting.relevance($0, for: context.target)
        }.map(\.id)
    }
}

extension FakeUpstream {
    /// The fixtures, plus a year (`/movies?year=2024`) with `films` films and a TV index page 1 with
    /// `shows` shows: enough cards for the listing pages' sponsored slot after every 12th card.
    static func withListings(films: Int = 20, shows: Int = 20) -> FakeUpstream {
        let filmsBody = ListingFixtures.films(films)
        let showsBody = ListingFixtures.shows(shows)
        return FakeUpstream { url throws(UpstreamError) in
            let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            func value(_ name: String) -> String? { query.first { $0.name == name }?.value }
            if url.host == "tvmaze.test", url.path == "/shows", value("page") == "0" {
                return UpstreamResponse(status: 200, contentType: "application/json", body: showsBody)
            }
            if url.host == "tvmaze.test", url.path.hasPrefix("/shows/"), let id = Int(url.path.dropFirst("/shows/".count)),
                let show = ListingFixtures.object(id, in: showsBody, key: "id")
            {
                return UpstreamResponse(status: 200, contentType: "application/json", body: show)
            }
            if url.host == "itunes.test", url.path.hasSuffix("/search"), value("term") == "2024", value("attribute") != nil {
                return UpstreamResponse(status: 200, contentType: "text/javascript; charset=utf-8", body: filmsBody)
            }
            if url.host == "itunes.test", url.path.hasSuffix("/lookup"), let id = value("id").flatMap(Int.init),
                let film = ListingFixtures.object(id, in: filmsBody, key: "trackId")
            {
                let answer = "{\"resultCount\":1,\"results\":[\(String(decoding: film, as: UTF8.self))]}"
                return UpstreamResponse(status: 200, contentType: "text/javascript; charset=utf-8", body: Data(answer.utf8))
            }
            return try Fixtures.itunesAnswer(for: url)
        }
    }
}

enum ListingFixtures {
    static let filmGenres = ["Drama", "Comedy", "Action & Adventure", "Horror"]
    static let showGenres = [["Drama"], ["Comedy", "Science-Fiction"], ["Children"], ["Crime", "Thriller"]]

    /// iTunes films of 2024, ids 7001…, one release a week.
    static func films(_ count: Int) -> Data {
        let results: [[String: Any]] = (0..<count).map { index in
            let id = 7001 + index
            let day = Calendar.utc.date(byAdding: .day, value: 7 * index, to: Date(timeIntervalSince1970: 1_704_096_000))!  // 2024-01-01
            return [
                "wrapperType": "track", "kind": "feature-movie", "trackId": id, "artistName": "Director \(index)",
                "trackName": "Generated Film \(index + 1)",
                "trackViewUrl": "https://itunes.apple.com/us/movie/generated/id\(id)?uo=4",
                "artworkUrl100": "https://is1-ssl.mzstatic.com/image/thumb/Video/\(id)/source/100x100bb.jpg",
                "trackPrice": 9.99, "collectionPrice": 9.99, "currency": "USD",
                "releaseDate": UTCFormatters.day.string(from: day) + "T08:00:00Z", "trackTimeMillis": 5_400_000,
                "primaryGenreName": filmGenres[index % filmGenres.count], "longDescription": "Generated film number \(index + 1).",
            ]
        }
        return try! JSONSerialization.data(withJSONObject: ["resultCount": results.count, "results": results])
    }

    /// The object with `key` == `id` in a generated answer (an iTunes `results` list or a TVMaze array).
    static func object(_ id: Int, in body: Data, key: String) -> Data? {
        let json = try! JSONSerialization.jsonObject(with: body)
        let objects = (json as? [[String: Any]]) ?? ((json as? [String: Any])?["results"] as? [[String: Any]]) ?? []
        return objects.first { $0[key] as? Int == id }.map { try! JSONSerialization.data(withJSONObject: $0) }
    }

    /// TVMaze shows, ids 9001….
    static func shows(_ count: Int) -> Data {
        let shows: [[String: Any]] = (0..<count).map { index in
            [
                "id": 9001 + index, "name": "Generated Show \(index + 1)", "genres": showGenres[index % showGenres.count],
                "language": "English", "premiered": "2020-01-01", "summary": "<p>Generated show number \(index + 1).</p>",
            ]
        }
        return try! JSONSerialization.data(withJSONObject: shows)
    }
}

/// Reading the pages offers appear on.
enum OfferHTML {
    /// Each `<article class="card…">` on a listing page, in order, as the text up to the next card.
    static func cards(_ html: String) -> [Substring] {
        let marker = #"<article class="card"#
        var cards: [Substring] = []
        var rest = html[...]
        while let start = rest.range(of: marker) {
            let after = rest[start.upperBound...]
            let end = after.range(of: marker)?.lowerBound ?? after.endIndex
            cards.append(rest[start.lowerBound..<end])
            rest = rest[end...]
        }
        return cards
    }

    /// Indexes of the sponsored cards among all cards.
    static func sponsoredIndexes(_ html: String) -> [Int] {
        cards(html).enumerated().filter { $0.element.contains("sponsored-card") }.map(\.offset)
    }

    /// Distinct offer ids shown on a page (`data-offer-id`), in order of first appearance.
    static func offerIDs(_ html: String) -> [Int] {
        var ids: [Int] = []
        var rest = html[...]
        while let range = rest.range(of: #"data-offer-id=""#) {
            let digits = rest[range.upperBound...].prefix { $0.isNumber }
            if let id = Int(digits), !ids.contains(id) { ids.append(id) }
            rest = rest[range.upperBound...]
        }
        return ids
    }

    /// True when the page carries any partner-offer markup.
    static func hasOfferMarkup(_ html: String) -> Bool {
        ["offer-banner", "sponsored-card", "Shop related products", "/offers/", "data-offer-id", "sponsored-label"].contains { html.contains($0) }
    }
}

/// Visitors as the offer counting sees them: a request without a `ps_visitor` cookie is identified by its
/// address and User-Agent, which are the same for every request of the test client.
enum Visitors {
    /// The test databases' visitor key (`TestDatabase`).
    static let testKey = "test-visitor-key-known-to-the-tests"

    /// The `ps_visitor` cookie the server would give visitor number `number`: its id signed with the test key.
    static func cookie(_ number: Int) -> String {
        VisitorMiddleware.visitorCookie + "=" + signed("visitor\(number)".padding(toLength: 22, withPad: "x", startingAt: 0))
    }

    /// `id` (22 URL-safe characters) with its signature, as `VisitorIDs` makes them.
    static func signed(_ id: String) -> String {
        VisitorIDs.cookieValue(id: id, key: SymmetricKey(data: Data(testKey.utf8)))
    }
}

extension TestResponse {
    /// The `ps_visitor` cookie the response sets, as a `Cookie` request header value.
    var visitorCookie: String? {
        headers[values: .setCookie].first { $0.hasPrefix(VisitorMiddleware.visitorCookie + "=") }
            .map { String($0.prefix { $0 != ";" }) }
    }
}
