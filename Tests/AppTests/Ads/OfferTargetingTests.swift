import Foundation
import Testing

@testable import App

@Suite("Offer targeting: which offers a title gets, in which order")
struct OfferTargetingTests {
    typealias F = OfferFixtures

    @Test("a genre match beats a keyword-only match, which beats an untargeted offer")
    func relevanceOrder() {
        let context = F.movie("Night Drive", genres: ["Thriller"], synopsis: "A getaway driver plans one last heist.")
        let untargeted = F.offer(1)
        let keywordOnly = F.offer(2, keywords: ["heist"])
        let genreOnly = F.offer(3, genres: ["thriller"])
        #expect(OfferTargeting.relevance(untargeted, for: context.target) == 1)
        #expect(OfferTargeting.relevance(keywordOnly, for: context.target) == 2)
        #expect(OfferTargeting.relevance(genreOnly, for: context.target) == 3)
        #expect(F.rank([untargeted, keywordOnly, genreOnly], for: context) == [3, 2, 1])
        #expect(F.rank([genreOnly, untargeted, keywordOnly], for: context) == [3, 2, 1])
    }

    @Test("genre and keyword scores add up: each shared genre 3, each keyword found 2")
    func scoresAdd() {
        let context = F.movie("Lost in Space", genres: ["Action & Adventure"], synopsis: "An alien planet, a family adrift.")
        #expect(OfferTargeting.relevance(F.offer(1, genres: ["action", "adventure"], keywords: ["space", "alien"]), for: context.target) == 10)
        #expect(OfferTargeting.relevance(F.offer(2, genres: ["action", "horror"], keywords: ["space", "zombie"]), for: context.target) == 5)
    }

    @Test("weight multiplies relevance: a heavier keyword offer can beat a lighter genre offer")
    func weightMultiplies() {
        let context = F.movie("Night Drive", genres: ["Thriller"], synopsis: "One last heist.")
        let genre = F.offer(1, genres: ["thriller"], weight: 1)  // 3 × 1 = 3
        let keyword = F.offer(2, keywords: ["heist"], weight: 2)  // 2 × 2 = 4
        #expect(F.rank([genre, keyword], for: context) == [2, 1])
        let heavierGenre = F.offer(3, genres: ["thriller"], weight: 2)  // 3 × 2 = 6
        #expect(F.rank([genre, keyword, heavierGenre], for: context) == [3, 2, 1])
    }

    @Test("equal scores: the more relevant offer first, then the lower id, whatever the input order")
    func ties() {
        let context = F.movie("Night Drive", genres: ["Thriller"], synopsis: "One last heist.")
        // 3 × 2 = 6 and 2 × 3 = 6: the genre match (relevance 3) goes first although its id is higher.
        let keyword = F.offer(4, keywords: ["heist"], weight: 3)
        let genre = F.offer(9, genres: ["thriller"], weight: 2)
        #expect(F.rank([keyword, genre], for: context) == [9, 4])
        // Same relevance and weight: lower id first.
        let twins = [F.offer(12, genres: ["thriller"]), F.offer(5, genres: ["thriller"]), F.offer(8, genres: ["thriller"])]
        #expect(F.rank(twins, for: context) == [5, 8, 12])
        #expect(F.rank(twins.reversed(), for: context) == [5, 8, 12])
    }

    @Test("the same offers and title always give the same order")
    func deterministic() {
        let context = F.movie("Galaxy Heist", genres: ["Sci-Fi & Fantasy", "Thriller"], synopsis: "A crew robs a space station.")
        var offers: [Offer] = []
        for id in 1...40 {
            let genres: Set<String> = [["sci-fi"], ["thriller"], ["fantasy", "sci-fi"], [], ["drama"]][id % 5]
            let keywords: [String] = [["space"], [], ["heist", "crew"], ["zombie"]][id % 4]
            offers.append(F.offer(id, advertiser: id % 7, genres: genres, keywords: keywords, weight: 1 + id % 3))
        }
        let first = F.rank(offers, for: context)
        let second = F.rank(offers, for: context)
        var generator = SplitMix(seed: 42)
        let shuffled = F.rank(offers.shuffled(using: &generator), for: context)
        #expect(first == second)
        #expect(first == shuffled)
        #expect(!first.isEmpty)
        // 9 (drama), 19 (drama, "zombie") and 23 ("zombie") are unrelated; 13 targets nothing and fits anything.
        #expect(!first.contains(9) && !first.contains(19) && !first.contains(23))
        #expect(first.contains(13))
    }

    @Test(
        "upstream genre names map to the canonical keys offers target",
        arguments: [
            (["Action & Adventure"], ["action", "adventure"]),
            (["Science-Fiction"], ["sci-fi"]),
            (["Children"], ["family"]),
            (["Kids & Family"], ["family"]),
            (["Sci-Fi & Fantasy"], ["sci-fi", "fantasy"]),
            (["  Drama ", "Comedy"], ["drama", "comedy"]),
            (["Music Documentaries"], ["music"]),
            (["Made Up Genre"], []),
        ])
    func canonicalGenres(names: [String], keys: [String]) {
        #expect(Genres.canonical(names) == Set(keys))
    }

    @Test("a sci-fi offer reaches a TVMaze 'Science-Fiction' show and an iTunes 'Action & Adventure' film reaches an adventure offer")
    func genresAcrossSources() {
        let show = F.show("The Midnight Gospel", genres: ["Comedy", "Adventure", "Science-Fiction"])
        #expect(OfferTargeting.relevance(F.offer(1, genres: ["sci-fi"]), for: show.target) == 3)
        let kids = F.show("Bluey", genres: ["Children"])
        #expect(OfferTargeting.relevance(F.offer(2, genres: ["family"]), for: kids.target) == 3)
        let film = F.movie("Last Year's Hit", genres: ["Action & Adventure"])
        #expect(OfferTargeting.relevance(F.offer(3, genres: ["adventure"]), for: film.target) == 3)
        #expect(OfferTargeting.relevance(F.offer(4, genres: ["action", "adventure"]), for: film.target) == 6)
    }

    @Test(
        "keywords match whole words in the name or synopsis, ignoring case and accents",
        arguments: [
            ("Lost in Space", nil, "space", true),
            ("LOST IN SPACE", nil, "space", true),
            ("Drift", "They float through space.", "space", true),
            ("Drift", "Space: the last frontier", "space", true),
            ("Spaceship Down", "The spaceship crew wakes up.", "space", false),
            ("Myspace Stories", nil, "space", false),
            ("Amélie", nil, "amelie", true),
            ("Amelie", nil, "Amélie", true),
            ("The Gold Rush", nil, "gold rush", true),
            ("Golden Rushes", nil, "gold rush", false),
            ("Spider-Man: Into the Spider-Verse", nil, "spider", true),
        ] as [(String, String?, String, Bool)])
    func keywords(name: String, synopsis: String?, keyword: String, matches: Bool) {
        let context = F.movie(name, synopsis: synopsis)
        let offer = F.offer(1, genres: ["western"], keywords: [keyword])
        #expect(OfferTargeting.relevance(offer, for: context.target) == (matches ? 2 : 0))
        #expect(F.rank([offer], for: context) == (matches ? [1] : []))
    }

    @Test("paused, not yet started and ended offers are never ranked; the first and last day are live")
    func liveDays() {
        let context = F.movie("Night Drive", genres: ["Thriller"])
        let day = F.today  // 2026-11-18
        let offers = [
            F.offer(1, genres: ["thriller"], active: false),
            F.offer(2, genres: ["thriller"], startsOn: "2026-11-19"),
            F.offer(3, genres: ["thriller"], endsOn: "2026-11-17"),
            F.offer(4, genres: ["thriller"], startsOn: day),
            F.offer(5, genres: ["thriller"], endsOn: day),
            F.offer(6, genres: ["thriller"], startsOn: day, endsOn: day),
            F.offer(7, genres: ["thriller"], weight: 100, active: false),
        ]
        #expect(F.rank(offers, for: context, day: day) == [4, 5, 6])
        #expect(F.rank(offers, for: context, day: "2026-11-19") == [2, 4])
        #expect(F.rank(offers, for: context, day: "2026-11-17") == [3, 5])
    }

    @Test("a film-only offer is not ranked for a show and a show-only offer not for a film; 'both' is ranked for each")
    func media() {
        let offers = [F.offer(1, media: .movie), F.offer(2, media: .show), F.offer(3, media: .both)]
        #expect(F.rank(offers, for: F.movie("Film")) == [1, 3])
        #expect(F.rank(offers, for: F.show("Show")) == [2, 3])
        let listing = ListingContext(titles: [("Film", ["Drama"]), ("Show", ["Drama"])], kind: nil)
        let mixed = OfferTargeting.rank(offers, day: F.today, kind: listing.kind) {
            OfferTargeting.relevance($0, for: listing.target)
        }
        #expect(mixed.map(\.id) == [1, 2, 3])
        let films = ListingContext(titles: [("Film", ["Drama"])], kind: .movie)
        #expect(
            OfferTargeting.rank(offers, day: F.today, kind: films.kind) {
                OfferTargeting.relevance($0, for: films.target)
            }.map(\.id) == [1, 3])
    }

    @Test("an offer targeting other genres and no keyword found is not ranked; an untargeted offer is ranked with relevance 1")
    func unrelated() {
        let context = F.movie("Quiet Autumn", genres: ["Drama"], synopsis: "Leaves fall.")
        let unrelated = F.offer(1, genres: ["horror", "sci-fi"], keywords: ["zombie"], weight: 50)
        let untargeted = F.offer(2)
        #expect(OfferTargeting.relevance(unrelated, for: context.target) == 0)
        #expect(OfferTargeting.relevance(untargeted, for: context.target) == 1)
        #expect(F.rank([unrelated, untargeted], for: context) == [2])
    }

    @Test("a capped offer is skipped and the next one takes its place")
    func cappedSkipped() {
        let context = F.movie("Night Drive", genres: ["Thriller"])
        let offers = [F.offer(1, genres: ["thriller"], weight: 3), F.offer(2, genres: ["thriller"], weight: 2)]
        let ranked = OfferTargeting.rank(offers, day: F.today, kind: .movie) { OfferTargeting.relevance($0, for: context.target) }
        let cap = FrequencyCap()
        let now = Date()
        for _ in 0..<cap.limit { cap.record(visitor: "v", offers: [1], now: now) }
        let allowed = cap.claim(visitor: "v", now: now, ranked: ranked.map(\.id)) { Array($0.prefix(1)) }
        #expect(allowed == [2])
    }

    @Test("a listing scores 3 per card of a targeted genre: the page's main genre wins")
    func listingRelevance() {
        let listing = ListingContext(
            titles: [("A", ["Drama"]), ("B", ["Drama"]), ("C", ["Drama"]), ("D", ["Horror"]), ("Lost in Space", ["Sci-Fi"])],
            kind: .movie
        )
        let drama = F.offer(1, genres: ["drama"])
        let horror = F.offer(2, genres: ["horror"], weight: 2)
        let space = F.offer(3, keywords: ["space"])
        let western = F.offer(4, genres: ["western"])
        #expect(OfferTargeting.relevance(drama, for: listing.target) == 9)
        #expect(OfferTargeting.relevance(horror, for: listing.target) == 3)
        #expect(OfferTargeting.relevance(space, for: listing.target) == 2)
        #expect(OfferTargeting.relevance(western, for: listing.target) == 0)
        let ranked = OfferTargeting.rank([western, space, horror, drama], day: F.today, kind: .movie) {
            OfferTargeting.relevance($0, for: listing.target)
        }
        #expect(ranked.map(\.id) == [1, 2, 3])
    }

    @Test("'Shop related products' keeps each advertiser once, with its best offer, in rank order, up to the limit")
    func bestPerAdvertiser() {
        let ranked = [
            F.offer(10, advertiser: 1), F.offer(11, advertiser: 1), F.offer(12, advertiser: 2), F.offer(13, advertiser: 3),
            F.offer(14, advertiser: 2), F.offer(15, advertiser: 4),
        ]
        #expect(OfferTargeting.bestPerAdvertiser(ranked, limit: 10).map(\.id) == [10, 12, 13, 15])
        #expect(OfferTargeting.bestPerAdvertiser(ranked, limit: 2).map(\.id) == [10, 12])
        #expect(OfferTargeting.bestPerAdvertiser(ranked, limit: 0).isEmpty)
        #expect(OfferTargeting.bestPerAdvertiser([], limit: 6).isEmpty)
    }
}

/// A seeded generator, so a shuffled order is the same on every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
