import Foundation

/// The iTunes Search API response, decoded tolerantly: a result that lacks `trackId` or
/// `trackName` is dropped, every other field may be missing or of an unexpected type.
struct ITunesSearchResponse: Decodable {
    var results: [ITunesItem]

    private enum CodingKeys: String, CodingKey { case results }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var items = try container.nestedUnkeyedContainer(forKey: .results)
        var decoded: [ITunesItem] = []
        while !items.isAtEnd {
            if let item = try? items.decode(ITunesItem.self) {
                decoded.append(item)
            } else {
                _ = try? items.decode(Skip.self)
            }
        }
        results = decoded
    }

    private struct Skip: Decodable {}
}

struct ITunesItem: Decodable {
    var wrapperType: String?
    var kind: String?
    var trackId: Int
    var trackName: String
    var artistName: String?
    var primaryGenreName: String?
    var releaseDate: String?
    var longDescription: String?
    var shortDescription: String?
    var contentAdvisoryRating: String?
    var trackTimeMillis: Int?
    var trackPrice: Double?
    var trackHdPrice: Double?
    var collectionPrice: Double?
    var currency: String?
    var trackViewUrl: String?
    var previewUrl: String?
    var artworkUrl100: String?
    var artworkUrl60: String?

    private enum CodingKeys: String, CodingKey {
        case wrapperType, kind, trackId, trackName, artistName, primaryGenreName, releaseDate, longDescription
        case shortDescription, contentAdvisoryRating, trackTimeMillis, trackPrice, trackHdPrice, collectionPrice
        case currency, trackViewUrl, previewUrl, artworkUrl100, artworkUrl60
    }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // trackId has been seen as a number and, from proxies, as a string.
        if let id = try? c.decode(Int.self, forKey: .trackId) {
            trackId = id
        } else if let text = try? c.decode(String.self, forKey: .trackId), let id = Int(text) {
            trackId = id
        } else {
            throw DecodingError.dataCorruptedError(forKey: .trackId, in: c, debugDescription: "no trackId")
        }
        trackName = try c.decode(String.self, forKey: .trackName)
        func string(_ key: CodingKeys) -> String? {
            guard let value = try? c.decodeIfPresent(String.self, forKey: key) else { return nil }
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        }
        func number(_ key: CodingKeys) -> Double? { (try? c.decodeIfPresent(Double.self, forKey: key)) ?? nil }
        wrapperType = string(.wrapperType)
        kind = string(.kind)
        artistName = string(.artistName)
        primaryGenreName = string(.primaryGenreName)
        releaseDate = string(.releaseDate)
        longDescription = string(.longDescription)
        shortDescription = string(.shortDescription)
        contentAdvisoryRating = string(.contentAdvisoryRating)
        trackTimeMillis = number(.trackTimeMillis).map { Int($0) }
        trackPrice = number(.trackPrice)
        trackHdPrice = number(.trackHdPrice)
        collectionPrice = number(.collectionPrice)
        currency = string(.currency)
        trackViewUrl = string(.trackViewUrl)
        previewUrl = string(.previewUrl)
        artworkUrl100 = string(.artworkUrl100)
        artworkUrl60 = string(.artworkUrl60)
    }

    var isFeatureMovie: Bool { kind == "feature-movie" }

    func toMovie() -> Movie {
        let price = [trackPrice, trackHdPrice, collectionPrice].compactMap { $0 }.first { $0 > 0 }
        return Movie(
            id: trackId,
            title: trackName,
            director: artistName,
            genre: primaryGenreName,
            releaseDate: releaseDate.flatMap(ITunesDates.parse),
            synopsis: longDescription ?? shortDescription,
            shortDescription: shortDescription,
            contentRating: contentAdvisoryRating,
            runtimeMinutes: trackTimeMillis.flatMap { $0 > 0 ? Int(($0 + 30_000) / 60_000) : nil },
            price: price,
            currency: price == nil ? nil : currency,
            storeURL: trackViewUrl.flatMap(SafeURL.http),
            previewURL: previewUrl.flatMap(SafeURL.http),
            artworkURL: (artworkUrl100 ?? artworkUrl60).flatMap(SafeURL.http).map(ITunesArtwork.large)
        )
    }
}

enum ITunesArtwork {
    /// `…/100x100bb.jpg` becomes `…/600x600bb.jpg`; URLs without that pattern are kept as they are.
    static func large(_ url: String) -> String {
        for small in ["100x100bb", "60x60bb", "30x30bb"] where url.contains(small) {
            return url.replacingOccurrences(of: small, with: "600x600bb")
        }
        return url
    }
}

enum ITunesDates {
    /// Parses `2023-07-21T07:00:00Z`, with optional fractional seconds or offset, or a bare `2023-07-21`.
    /// Hand-written because Foundation's formatters are not Sendable and this runs for every film decoded.
    static func parse(_ text: String) -> Date? {
        let chars = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= chars.count else { return nil }
            var value = 0
            for c in chars[range] {
                guard c >= 48, c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), (1...12).contains(month),
            (1...31).contains(day)
        else { return nil }
        var components = DateComponents(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
        var offsetSeconds = 0
        if chars.count >= 19, chars[10] == UInt8(ascii: "T") {
            guard let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19) else { return nil }
            components.hour = hour
            components.minute = minute
            components.second = second
            var index = 19
            if index < chars.count, chars[index] == UInt8(ascii: ".") {
                index += 1
                while index < chars.count, chars[index] >= 48, chars[index] <= 57 { index += 1 }
            }
            if index < chars.count, chars[index] == UInt8(ascii: "+") || chars[index] == UInt8(ascii: "-"),
                let hours = number(index + 1..<index + 3), let minutes = number(index + 4..<index + 6)
            {
                offsetSeconds = (hours * 3600 + minutes * 60) * (chars[index] == UInt8(ascii: "+") ? 1 : -1)
            }
        }
        return Calendar.utc.date(from: components).map { $0.addingTimeInterval(TimeInterval(-offsetSeconds)) }
    }
}

/// Upstream links are rendered into pages: only absolute http(s) URLs are kept.
enum SafeURL {
    static func http(_ raw: String) -> String? {
        guard let url = URL(string: raw), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
            let host = url.host, !host.isEmpty
        else { return nil }
        return raw
    }
}

/// A film's iTunes preview, when the page may play it: https on Apple's preview host only (the
/// Content-Security-Policy's `media-src` names the same host).
enum ITunesPreview {
    static let host = "video-ssl.itunes.apple.com"

    static func playable(_ raw: String?) -> String? {
        guard let raw, let url = URLComponents(string: raw), url.scheme?.lowercased() == "https", url.host?.lowercased() == host,
            url.port == nil, url.user == nil
        else { return nil }
        return raw
    }
}

enum ITunesDecoder {
    /// Decodes a search or lookup body (whatever the Content-Type said) into feature films, newest first.
    static func movies(from body: Data) throws -> [Movie] {
        try moviesInRelevanceOrder(from: body).sortedNewestFirst()
    }

    /// Feature films in the order iTunes gave them (its relevance order for a title search).
    static func moviesInRelevanceOrder(from body: Data) throws -> [Movie] {
        let response = try JSONDecoder().decode(ITunesSearchResponse.self, from: body)
        var seen = Set<Int>()
        return response.results
            .filter { $0.isFeatureMovie && seen.insert($0.trackId).inserted }
            .map { $0.toMovie() }
    }
}
