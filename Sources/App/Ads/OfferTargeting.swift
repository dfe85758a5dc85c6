import Foundation

/// Chooses offers by relevance. Pure and deterministic: the same offers, title and visitor
/// history always give the same order (ties go to the lower offer id).
enum OfferTargeting {
    static let genreScore = 3
    static let keywordScore = 2

    /// How related an offer is to a page's titles: 3 per title of a genre it targets (a title's page
    /// counts its own genres once), 2 per keyword in their names or synopsis (`folded`: the target's
    /// text, `Keywords.fold`). An offer with no targeting fits anything with relevance 1; 0 means unrelated.
    static func relevance(_ offer: Offer, for target: OfferTarget, folded: String? = nil) -> Int {
        if offer.genres.isEmpty && offer.keywords.isEmpty { return 1 }
        let genres = offer.genres.reduce(0) { $0 + (target.genres[$1] ?? 0) } * genreScore
        let text = folded ?? Keywords.fold(target.text)
        let keywords = offer.keywords.filter { Keywords.matches($0, in: text) }.count * keywordScore
        return genres + keywords
    }

    /// `rank` for a target, its text folded once for every offer.
    static func rank(_ offers: [Offer], day: String, kind: MediaKind?, for target: OfferTarget) -> [Offer] {
        let folded = Keywords.fold(target.text)
        return rank(offers, day: day, kind: kind) { relevance($0, for: target, folded: folded) }
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

/// What offers are ranked by for a page: its titles' canonical genres, each counted once per
/// title, and their names (and a title's synopsis). With the offers, kind and day it is the whole
/// input of a ranking (`RankingKey`).
struct OfferTarget: Hashable, Sendable {
    let genres: [String: Int]
    let text: String
}

/// What a listing page shows, for choosing its sponsored cards.
public struct ListingContext: Sendable {
    /// The listing as shops are told it (`ps_listing`): `movies-2024`, `tv-shows`, `my-lists`…
    let name: String?
    let kind: MediaKind?
    let target: OfferTarget

    /// `titles`: each card's name and upstream genre names. `kind` nil for pages mixing films and shows.
    init(titles: [(name: String, genres: [String])], kind: MediaKind?, name: String? = nil) {
        var counts: [String: Int] = [:]
        for title in titles {
            for genre in Genres.canonical(title.genres) { counts[genre, default: 0] += 1 }
        }
        target = OfferTarget(genres: counts, text: titles.map(\.name).joined(separator: " · "))
        self.kind = kind
        self.name = name
    }
}
