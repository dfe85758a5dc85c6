import Foundation
import Mustache

/// The statistics page: all time, or one year in review. Every chart is server-drawn SVG with
/// the same numbers in a table beside it.
struct StatsPageView: Page {
    static let template = "library/stats"

    struct Figure {
        let value: String
        let label: String
    }

    struct PeriodRow {
        let label: String
        let films: Int
        let shows: Int
        /// Of the show watches, the episodes'.
        let episodes: Int
        let hours: String
    }

    struct RatingRow {
        let words: String
        let titles: Int
    }

    struct GenreRow {
        let name: String
        let watches: Int
    }

    struct RewatchRow {
        let title: String
        let url: String
        let watches: Int
    }

    struct YearLink {
        let label: String
        let url: String
        let current: Bool
    }

    static let filmColor = "#7b61ff", showColor = "#e8a33d", ratingColor = "#1f9d55"

    let chrome: Chrome
    let heading: String
    let hasWatches: Bool
    /// Films marked Watched that the diary has no day for: not counted here, and said so.
    let undatedNote: String?
    let figures: [Figure]
    let monthsChart: String
    let monthRows: [PeriodRow]
    let yearsChart: String?
    let yearRows: [PeriodRow]
    let ratingsChart: String?
    let ratingRows: [RatingRow]
    let genres: [GenreRow]
    let hasGenres: Bool
    let rewatched: [RewatchRow]
    let hasRewatched: Bool
    let yearLinks: [YearLink]
    let diaryURL = Route.diary.path
    let listsURL = Route.libraryList(.all)

    init(_ stats: WatchStatistics) {
        let scope = stats.year.map(String.init) ?? "all time"
        heading = stats.year.map { "\($0) in review" } ?? "Statistics"
        chrome = Chrome(heading, tab: .library)
        hasWatches = stats.watches > 0
        undatedNote =
            stats.undatedWatched == 0
            ? nil
            : "\(Formats.count(stats.undatedWatched, "film", "films")) marked Watched \(stats.undatedWatched == 1 ? "has" : "have") no day in "
                + "the diary, so \(stats.undatedWatched == 1 ? "it is" : "they are") not counted here. Log the day you watched on the film’s page."
        var figures = [
            Figure(value: Formats.number(stats.watches), label: stats.watches == 1 ? "watch" : "watches"),
            Figure(value: Formats.number(stats.films), label: stats.films == 1 ? "film" : "films"),
            Figure(value: Formats.number(stats.shows), label: stats.shows == 1 ? "show watch" : "show watches"),
            Figure(value: Formats.number(stats.titles), label: stats.titles == 1 ? "title" : "different titles"),
            Figure(value: Formats.number(stats.rewatches), label: stats.rewatches == 1 ? "rewatch" : "rewatches"),
            Figure(value: Self.hours(stats.filmMinutes + stats.showMinutes), label: "watched (films’ runtimes, one episode per show watch)"),
        ]
        // Of the shows' watches, the episodes' (once there are any), and the shows seen to the end.
        if stats.episodes > 0 {
            figures.insert(
                Figure(value: Formats.number(stats.episodes), label: stats.episodes == 1 ? "of them an episode" : "of them episodes"), at: 3)
        }
        if stats.showsFinished > 0 {
            figures.insert(
                Figure(value: Formats.number(stats.showsFinished), label: stats.showsFinished == 1 ? "show finished" : "shows finished"),
                at: stats.episodes > 0 ? 4 : 3)
        }
        self.figures = figures
        let months = stats.months
        monthsChart = Self.periodChart(
            id: "chart-months", title: "Films and shows watched per month, \(stats.year.map(String.init) ?? "last twelve months")", months,
            label: { Formats.month($0.key, .abbreviated) }, tip: { Formats.month($0.key, .wide) })
        monthRows = months.map {
            PeriodRow(label: Formats.month($0.key, .wide), films: $0.films, shows: $0.shows, episodes: $0.episodes, hours: Self.hours($0.minutes))
        }
        yearsChart =
            stats.year == nil && !stats.years.isEmpty
            ? Self.periodChart(id: "chart-years", title: "Films and shows watched per year", stats.years, label: \.key, tip: \.key) : nil
        yearRows =
            stats.year == nil
            ? stats.years.reversed().map {
                PeriodRow(label: $0.key, films: $0.films, shows: $0.shows, episodes: $0.episodes, hours: Self.hours($0.minutes))
            } : []
        let rated = stats.ratings.reduce(0, +)
        ratingsChart =
            rated == 0
            ? nil
            : BarChart(
                id: "chart-ratings", cssClass: "stats-chart", title: "How many titles have each rating, \(scope)",
                series: [.init(cssClass: "bar-ratings", color: Self.ratingColor)], labels: Rating.range.map(Rating.stars),
                values: stats.ratings.map { [$0] },
                tooltips: Rating.range.map { ["\(Rating.words($0)): \(Formats.count(stats.ratings[$0 - 1], "title", "titles"))"] }, labelCount: 10
            ).svg
        ratingRows = rated == 0 ? [] : Rating.range.map { RatingRow(words: Rating.words($0), titles: stats.ratings[$0 - 1]) }
        genres = stats.genres.map { GenreRow(name: $0.name, watches: $0.watches) }
        hasGenres = !genres.isEmpty
        rewatched = stats.rewatched.map { RewatchRow(title: $0.title, url: Route.titlePage($0.kind, $0.itemID), watches: $0.watches) }
        hasRewatched = !rewatched.isEmpty
        yearLinks =
            [YearLink(label: "All time", url: Route.statisticsPage(), current: stats.year == nil)]
            + stats.reviewYears.map { YearLink(label: String($0), url: Route.statisticsPage(year: $0), current: $0 == stats.year) }
    }

    static func periodChart(
        id: String, title: String, _ periods: [WatchStatistics.Period], label: (WatchStatistics.Period) -> String,
        tip: (WatchStatistics.Period) -> String
    ) -> String {
        BarChart(
            id: id, cssClass: "stats-chart", title: title,
            series: [.init(cssClass: "bar-films", color: filmColor), .init(cssClass: "bar-shows", color: showColor)],
            labels: periods.map(label), values: periods.map { [$0.films, $0.shows] },
            tooltips: periods.map {
                ["\(tip($0)): \(Formats.count($0.films, "film", "films"))", "\(tip($0)): \(Formats.count($0.shows, "show watch", "show watches"))"]
            }, labelCount: 12
        ).svg
    }

    /// "1,234 hours", "1 hour", "45 minutes".
    static func hours(_ minutes: Int) -> String {
        if minutes < 60 { return minutes == 1 ? "1 minute" : "\(minutes) minutes" }
        let hours = (minutes + 30) / 60
        return hours == 1 ? "1 hour" : "\(Formats.number(hours)) hours"
    }
}

/// A cold statistics page spent a fifth of its rendering in reflection (perf): its view and rows
/// answer template lookups by a switch (`StatsViewsTests` keeps them equal to reflection).
extension StatsPageView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": chrome
        case "heading": heading
        case "hasWatches": hasWatches
        case "undatedNote": undatedNote
        case "figures": figures
        case "monthsChart": monthsChart
        case "monthRows": monthRows
        case "yearsChart": yearsChart
        case "yearRows": yearRows
        case "ratingsChart": ratingsChart
        case "ratingRows": ratingRows
        case "genres": genres
        case "hasGenres": hasGenres
        case "rewatched": rewatched
        case "hasRewatched": hasRewatched
        case "yearLinks": yearLinks
        case "diaryURL": diaryURL
        case "listsURL": listsURL
        default: nil
        }
    }
}

extension StatsPageView.Figure: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "value": value
        case "label": label
        default: nil
        }
    }
}

extension StatsPageView.PeriodRow: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "label": label
        case "films": films
        case "shows": shows
        case "episodes": episodes
        case "hours": hours
        default: nil
        }
    }
}

extension StatsPageView.RatingRow: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "words": words
        case "titles": titles
        default: nil
        }
    }
}

extension StatsPageView.GenreRow: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "watches": watches
        default: nil
        }
    }
}

extension StatsPageView.RewatchRow: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "url": url
        case "watches": watches
        default: nil
        }
    }
}

extension StatsPageView.YearLink: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "label": label
        case "url": url
        case "current": current
        default: nil
        }
    }
}
