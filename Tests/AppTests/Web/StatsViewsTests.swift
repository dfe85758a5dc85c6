import Foundation
import Testing

@testable import App

@Suite("Statistics and chrome view models")
struct StatsViewsTests {
    typealias Check = MovieCardViewTests

    @Test("the statistics page, its rows and every page's chrome answer each stored field as reflection would")
    func lookupMatchesReflection() {
        let stats = WatchStatistics(
            year: nil, films: 3, shows: 1, titles: 3, rewatches: 1, filmMinutes: 300, showMinutes: 45,
            months: [.init(key: "2026-10", films: 3, shows: 1, minutes: 345)], years: [.init(key: "2026", films: 3, shows: 1, minutes: 345)],
            ratings: [0, 0, 0, 0, 0, 0, 1, 0, 0, 2], genres: [.init(name: "Drama", watches: 2)],
            rewatched: [.init(kind: .movie, itemID: "5", title: "Dune", watches: 2)], reviewYears: [2026])
        let page = StatsPageView(stats)
        Check.expectLookupMatchesReflection(page, fields: 17) { page.child(named: $0) }
        for row in page.figures { Check.expectLookupMatchesReflection(row, fields: 2) { row.child(named: $0) } }
        for row in page.monthRows + page.yearRows { Check.expectLookupMatchesReflection(row, fields: 4) { row.child(named: $0) } }
        for row in page.ratingRows { Check.expectLookupMatchesReflection(row, fields: 2) { row.child(named: $0) } }
        for row in page.genres { Check.expectLookupMatchesReflection(row, fields: 2) { row.child(named: $0) } }
        for row in page.rewatched { Check.expectLookupMatchesReflection(row, fields: 3) { row.child(named: $0) } }
        for row in page.yearLinks { Check.expectLookupMatchesReflection(row, fields: 3) { row.child(named: $0) } }
        #expect(!page.yearRows.isEmpty && !page.ratingRows.isEmpty && page.yearLinks.count == 2)
        for chrome in [
            page.chrome,
            Chrome(
                "Dune", tab: .movies, notice: SourceNotice(text: "Saved copy", savedOn: nil), retryURL: "/movies/5", bodyClass: "x", tvCredit: true),
        ] {
            Check.expectLookupMatchesReflection(chrome, fields: 12) { chrome.child(named: $0) }
            Check.expectLookupMatchesReflection(chrome.paths, fields: 12) { chrome.paths.child(named: $0) }
        }
    }
}
