import Foundation
import Synchronization

/// Chooses offers by relevance. Pure and deterministic: the same offers, title and visitor
/// history always give the same order (ties go to the lower offer id).
enum OfferTargeting {
    static let genreScore = 3
    static let keywordScore = 2

    /// How related an offer is to one title: 3 per shared genre, 2 per keyword in the name or
    /// synopsis. An offer with no targeting at all fits anything with relevance 1; 0 means unrelated.
    static func relevance(_ offer: Offer, for context: OfferContext) -> Int {
        if offer.genres.isEmpty && offer.keywords.isEmpty { return 1 }
        let genres = offer.genres.intersection(context.genres).count * genreScore
        let keywords = offer.keywords.filter { Keywords.matches($0, in: context.text) }.count * keywordScore
        return genres + keywords
    }

    /// For a listing: 3 per card of a genre the offer targets, 2 per keyword in a card's title.
    static func relevance(_ offer: Offer, for listing: ListingContext) -> Int {
        if offer.genres.isEmpty && offer.keywords.isEmpty { return 1 }
        let genres = offer.genres.reduce(0) { $0 + (listing.genreCounts[$1] ?? 0) } * genreScore
        let keywords = offer.keywords.filter { Keywords.matches($0, in: listing.text) }.count * keywordScore
        return genres + keywords
    }

    /// Live offers of `kind` (nil: any) with relevance > 0, best first: relevance × weight, then
    /// relevance, then id. (A visitor's cap is applied afterwards, by `FrequencyCap.claim`.)
    static func rank(
        _ offers: [Offer], day: String, kind: MediaKind?, relevance: (Offer) -> Int
    ) -> [Offer] {
        offers
            .filter { $0.isLive(on: day) && (kind.map($0.media.includes) ?? true) }
            .compactMap { offer -> (offer: Offer, relevance: Int)? in
                let score = relevance(offer)
                return score > 0 ? (offer, score) : nil
            }
            .sorted { a, b in
                let (scoreA, scoreB) = (a.relevance * a.offer.weight, b.relevance * b.offer.weight)
                if scoreA != scoreB { return scoreA > scoreB }
                if a.relevance != b.relevance { return a.relevance > b.relevance }
                return a.offer.id < b.offer.id
            }
            .map(\.offer)
    }

    /// Each advertiser once, with its best offer, in the order of those offers.
    static func bestPerAdvertiser(_ ranked: [Offer], limit: Int) -> [Offer] {
        var seen = Set<Int>()
        return Array(ranked.filter { seen.insert($0.advertiserID).inserted }.prefix(limit))
    }
}

/// What a listing page shows, for choosing its sponsored cards.
public struct ListingContext: Sendable {
    /// Names the listing (path + catalogue answer): listings with one key have the same titles, so
    /// their ranking is computed once per offers copy and day.
    let key: String?
    /// The listing as shops are told it (`ps_listing`): `movies-2024`, `tv-shows`, `my-lists`…
    let name: String?
    let genreCounts: [String: Int]
    let kind: MediaKind?
    private let names: FoldedText

    /// Every title's name, folded for keyword matching (computed on first use: a memoized ranking never needs it).
    var text: String { names.value }

    /// `titles`: each card's name and upstream genre names. `kind` nil for pages mixing films and shows.
    init(titles: [(name: String, genres: [String])], kind: MediaKind?, key: String? = nil, name: String? = nil) {
        var counts: [String: Int] = [:]
        for title in titles {
            for genre in Genres.canonical(title.genres) { counts[genre, default: 0] += 1 }
        }
        genreCounts = counts
        names = FoldedText(titles.map(\.name).joined(separator: " · "))
        self.kind = kind
        self.key = key
        self.name = name
    }
}

/// Text folded once, when first needed.
final class FoldedText: Sendable {
    private let raw: String
    private let folded = Mutex<String?>(nil)

    init(_ raw: String) { self.raw = raw }

    var value: String {
        if let done = folded.withLock({ $0 }) { return done }
        let text = Keywords.fold(raw)
        folded.withLock { $0 = text }
        return text
    }
}
