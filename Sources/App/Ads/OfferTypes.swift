import Foundation

/// A partner shop as the app uses it (the database row is `AdvertiserModel`).
public struct Advertiser: Sendable, Equatable {
    public let id: Int
    public var name: String
    public var description: String
    public var website: String
    /// Hosts the shop's landing URLs may point to.
    public var domains: [String]
    public var logoImageID: UUID?
    public var demo: Bool
    /// A paused shop's offers are not shown.
    public var active: Bool = true
}

/// Which titles an offer may appear next to.
public enum OfferMedia: String, Sendable, CaseIterable {
    case movie, show, both

    func includes(_ kind: MediaKind) -> Bool {
        self == .both || rawValue == kind.rawValue
    }

    var label: String {
        switch self {
        case .movie: "Films"
        case .show: "TV shows"
        case .both: "Films and TV shows"
        }
    }
}

public struct Offer: Sendable, Equatable {
    public let id: Int
    public var advertiserID: Int
    public var headline: String
    public var description: String
    public var imageID: UUID?
    public var priceText: String
    public var landingURL: URL
    /// Canonical genre keys (`Genres.vocabulary`).
    public var genres: Set<String>
    /// Lower-case words or phrases, matched as whole words against a title's name and synopsis.
    public var keywords: [String]
    public var media: OfferMedia
    /// UTC days, both inclusive.
    public var startsOn: String
    public var endsOn: String
    public var weight: Int
    public var active: Bool
    public var demo: Bool

    /// Shown only when switched on and inside its dates.
    func isLive(on day: String) -> Bool {
        active && startsOn <= day && day <= endsOn
    }

    enum Status: String { case live, paused, scheduled, expired }

    func status(on day: String) -> Status {
        if !active { return .paused }
        if day < startsOn { return .scheduled }
        if day > endsOn { return .expired }
        return .live
    }
}

/// A title offers are chosen for: `movie:123` or `show:456` in URLs.
public struct TitleRef: Sendable, Hashable, CustomStringConvertible {
    public let kind: MediaKind
    public let id: Int

    public init(kind: MediaKind, id: Int) {
        self.kind = kind
        self.id = id
    }

    /// Parses `kind:id`; anything else is nil.
    public init?(_ raw: String) {
        let parts = raw.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let kind = MediaKind(rawValue: String(parts[0])),
            parts[1].count <= 12, parts[1].allSatisfy(\.isASCII), let id = Int(parts[1]), id > 0
        else { return nil }
        self.init(kind: kind, id: id)
    }

    public var description: String { "\(kind.rawValue):\(id)" }
}

/// What targeting knows about a title.
public struct OfferContext: Sendable {
    public let title: TitleRef
    public let name: String
    public let genres: Set<String>
    /// Its genres and its name and synopsis, for keyword matching.
    let target: OfferTarget

    public init(title: TitleRef, name: String, genreNames: [String], synopsis: String?) {
        self.title = title
        self.name = name
        genres = Genres.canonical(genreNames)
        target = OfferTarget(genres: Dictionary(uniqueKeysWithValues: genres.map { ($0, 1) }), text: name + " " + (synopsis ?? ""))
    }
}

/// An offer ready to render: the offer, its shop and the title it is shown with (the pages and
/// the API build its links from these).
public struct PlacedOffer: Sendable, Equatable {
    public let offer: Offer
    public let advertiser: Advertiser
    public let title: TitleRef?
    public let placement: Placement
    /// The listing a sponsored card is on (`ListingContext.name`).
    public var listing: String? = nil
}
