import Foundation

/// A film as PopcornSwirl shows it, normalised from the iTunes wire format.
/// Saved films keep this whole struct as their snapshot, so it must stay backward-compatible to decode.
public struct Movie: Codable, Sendable, Hashable, Identifiable {
    public var id: Int
    public var title: String
    public var director: String?
    public var genre: String?
    public var releaseDate: Date?
    public var synopsis: String?
    public var shortDescription: String?
    public var contentRating: String?
    public var runtimeMinutes: Int?
    public var price: Double?
    public var currency: String?
    /// The iTunes store page: the purchase link.
    public var storeURL: String?
    public var previewURL: String?
    /// Large artwork (600x600) when iTunes gave one.
    public var artworkURL: String?

    public init(
        id: Int, title: String, director: String? = nil, genre: String? = nil, releaseDate: Date? = nil,
        synopsis: String? = nil, shortDescription: String? = nil, contentRating: String? = nil,
        runtimeMinutes: Int? = nil, price: Double? = nil, currency: String? = nil, storeURL: String? = nil,
        previewURL: String? = nil, artworkURL: String? = nil
    ) {
        self.id = id
        self.title = title
        self.director = director
        self.genre = genre
        self.releaseDate = releaseDate
        self.synopsis = synopsis
        self.shortDescription = shortDescription
        self.contentRating = contentRating
        self.runtimeMinutes = runtimeMinutes
        self.price = price
        self.currency = currency
        self.storeURL = storeURL
        self.previewURL = previewURL
        self.artworkURL = artworkURL
    }

    public var year: Int? {
        releaseDate.map { Calendar.utc.component(.year, from: $0) }
    }
}

extension Calendar {
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// 1 January of `year`, 00:00 UTC.
    static func newYear(_ year: Int) -> Date? {
        DateComponents(calendar: .utc, timeZone: TimeZone(identifier: "UTC"), year: year, month: 1, day: 1).date
    }
}

extension Array where Element == Movie {
    /// Newest release first; undated films last; ties broken by title so the order is stable.
    func sortedNewestFirst() -> [Movie] {
        sorted { lhs, rhs in
            switch (lhs.releaseDate, rhs.releaseDate) {
            case (let l?, let r?) where l != r: return l > r
            case (.some, nil): return true
            case (nil, .some): return false
            default: return lhs.title.localizedStandardCompare(rhs.title) == .orderedAscending
            }
        }
    }
}
