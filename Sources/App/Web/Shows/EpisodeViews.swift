import Foundation
import Mustache

/// One episode's line in a show's list: its check (a form: it works without JavaScript), its
/// code and name (a link to its page), when it airs in the person's time zone (`app.js` writes
/// the UTC moment again in the browser's), and how many times it was watched.
struct EpisodeRowView: Hashable, Sendable {
    let id: Int
    let code: String
    let name: String
    let url: String
    let airISO: String?
    let airText: String
    let aired: Bool
    let watched: Bool
    let watchCountText: String?
    let stars: String?
    let starWords: String?
    let markURL: String
    /// "watch" or "unwatch": what the check does.
    let mark: String
    let checkLabel: String
    let returnTo: String

    init(_ tracked: TrackedEpisode, returnTo: String) {
        let episode = tracked.episode
        id = episode.id
        code = episode.code
        name = episode.name
        url = Route.episode.link(episode.id)
        airISO = episode.airstamp.map { $0.formatted(.iso8601) }
        airText = EpisodeRowView.airText(episode)
        aired = tracked.hasAired
        watched = tracked.state.watched
        watchCountText = tracked.state.watchCount > 1 ? "×\(tracked.state.watchCount)" : nil
        stars = tracked.state.rating.map(Rating.stars)
        starWords = tracked.state.rating.map { "Your rating: " + Rating.words($0) }
        markURL = Route.saveEpisode.link(episode.id)
        mark = tracked.state.watched ? "unwatch" : "watch"
        checkLabel =
            (tracked.state.watched ? "Unmark " : "Mark ") + "\(episode.code) “\(episode.name)”" + (tracked.state.watched ? " (watched)" : " watched")
        self.returnTo = returnTo
    }

    /// "25 June 2013, 02:00 UTC", "24 June 2013" (a day with no time), or "Not yet scheduled".
    static func airText(_ episode: Episode) -> String {
        if let stamp = episode.airstamp { return UTCFormatters.moment.string(from: stamp) }
        return Formats.day(episode.airdate) ?? "Not yet scheduled"
    }
}

/// A season in a show's list: folded but for the one a person is in (`ShowEpisodes.currentSeason`);
/// a folded season's episodes load when it is opened (`?season=N`), so a show with thousands of
/// episodes draws one season's.
struct SeasonView {
    let number: Int
    let heading: String
    let countText: String
    let open: Bool
    let loaded: Bool
    /// The episodes' lines, rendered (`PageRenderer.row`), when the season is open.
    let rows: String
    let seasonURL: String
    /// Named apart from the show's own mark-all link: a missing name is looked up in the views around.
    let seasonMarkURL: String?
    let seasonMarkLabel: String
    /// The season's rating form (once it has aired), its options, and what the person gave it.
    let seasonRatingURL: String?
    let seasonRatingOptions: String
    let seasonRatingText: String?
    let returnTo: String
}

/// The Episodes section of a show's page.
struct ShowEpisodesView {
    let statusLabel: String
    let statusClass: String
    let progressText: String
    let sourceNote: String?
    let next: EpisodeRowView?
    let nextAiringText: String?
    let seasons: [SeasonView]
    /// The specials' lines, rendered, when they are open.
    let specialRows: String
    let specialsCountText: String?
    let specialsOpen: Bool
    let specialsURL: String
    let signedUp: Bool
    let progressURL: String
    let stopped: Bool
    let stopLabel: String
    let includeSpecials: Bool
    let specialsLabel: String
    let markAllURL: String?
    let returnTo: String
    let upNextURL: String

    /// The part of the list a page opens (`?season=N`, `?season=specials`).
    enum OpenPart: Equatable {
        case season(Int)
        case specials

        init?(query: String?) {
            guard let query else { return nil }
            if query == "specials" {
                self = .specials
            } else if let number = Int(query), (0...10_000).contains(number) {
                self = .season(number)
            } else {
                return nil
            }
        }

        var query: String {
            switch self {
            case .season(let number): String(number)
            case .specials: "specials"
            }
        }
    }

    /// `open`: the part asked for; else the person's current season.
    /// `row` renders an episode's line (`PageRenderer.row`).
    init(_ episodes: ShowEpisodes, showID: Int, open: OpenPart?, hasProfile: Bool, row: (EpisodeRowView) -> String) {
        let progress = episodes.progress
        let current: Int? =
            switch open {
            case .season(let number): number
            case .specials: nil
            case nil: episodes.currentSeason
            }
        let returnTo = Route.show.link(showID, query: ["season": open?.query]) + "#episodes"
        self.returnTo = returnTo
        statusLabel = progress.status.label
        statusClass = "status-" + progress.status.rawValue
        progressText =
            progress.aired == 0
            ? "No episode has aired yet."
            : "\(Formats.number(progress.watched)) of \(Formats.count(progress.aired, "aired episode", "aired episodes")) watched"
                + (progress.choices.includeSpecials ? ", specials included." : ".")
        switch (episodes.held.source, episodes.held.isStale) {
        case (.offline, _): sourceNote = "Episodes from PopcornSwirl’s offline catalogue: TVMaze hasn’t answered for this show yet."
        case (.tvmaze, true):
            sourceNote = episodes.held.fetchedAt.map {
                "Episodes as TVMaze listed them on \(UTCFormatters.longDay.string(from: $0)); newer ones are asked for."
            }
        default: sourceNote = nil
        }
        let tracked = episodes.seasons.flatMap(\.episodes)
        next = progress.next.flatMap { next in tracked.first { $0.episode.id == next.id } }.map { EpisodeRowView($0, returnTo: returnTo) }
        nextAiringText = progress.nextAiring.map { "Next to air: \($0.code) “\($0.name)”, " + EpisodeRowView.airText($0) + "." }
        seasons = episodes.seasons.map { season in
            let number = season.season.number
            let open = number == current
            let unwatched = season.episodes.filter { $0.hasAired && !$0.state.watched }.count
            let name = season.season.name.flatMap { $0 == "Season \(number)" ? nil : $0 }
            return SeasonView(
                number: number, heading: "Season \(number)" + (name.map { ": \($0)" } ?? ""),
                countText: season.episodes.isEmpty
                    ? "No episodes listed yet"
                    : "\(Formats.number(season.watched)) of \(Formats.count(season.aired, "aired episode", "aired episodes")) watched"
                        + (season.episodes.count > season.aired ? ", \(season.episodes.count - season.aired) to come" : ""),
                open: open, loaded: open, rows: open ? season.episodes.map { row(EpisodeRowView($0, returnTo: returnTo)) }.joined() : "",
                seasonURL: Route.show.link(showID, query: ["season": String(number)]) + "#season-\(number)",
                seasonMarkURL: unwatched > 0 ? Route.watchShowEpisodes.link(showID) : nil,
                seasonMarkLabel:
                    "Mark the \(Formats.count(unwatched, "unwatched aired episode", "unwatched aired episodes")) of season \(number) watched",
                seasonRatingURL: season.aired > 0 ? Route.rateShowSeason.link(showID) : nil,
                seasonRatingOptions: RatingPicker.optionsHTML[season.rating ?? 0],
                seasonRatingText: season.rating.map { "Rated \(Rating.words($0))" },
                returnTo: returnTo)
        }
        specialsOpen = open == .specials
        specialRows = specialsOpen ? episodes.specials.map { row(EpisodeRowView($0, returnTo: returnTo)) }.joined() : ""
        specialsURL = Route.show.link(showID, query: ["season": "specials"]) + "#specials"
        specialsCountText = episodes.specials.isEmpty ? nil : Formats.count(episodes.specials.count, "special", "specials")
        signedUp = hasProfile
        progressURL = Route.saveShowProgress.link(showID)
        stopped = progress.choices.stopped
        stopLabel = progress.choices.stopped ? "Resume: show in Up Next again" : "Stop watching: hide from Up Next"
        includeSpecials = progress.choices.includeSpecials
        specialsLabel = progress.choices.includeSpecials ? "Don’t count specials in progress" : "Count specials in progress"
        markAllURL = progress.remaining > 0 ? Route.watchShowEpisodes.link(showID) : nil
        upNextURL = Route.upNext.path
    }
}

/// Up Next: a card per show in progress, most recently watched first, with its next episode and a
/// check that marks it watched (the card then offers the one after).
struct UpNextPage: Page {
    static let template = "shows/up_next"

    struct Card {
        let showID: Int
        let anchor: String
        let title: String
        let showURL: String
        let posterURL: String
        let next: EpisodeRowView?
        let remainingText: String?
        let newText: String?
        let airingText: String?
        let airingISO: String?
        let lastWatchedISO: String
        let lastWatchedText: String
    }

    let chrome: Chrome
    // The Shows | Up Next | Calendar | Favorites tabs (shows/tabs).
    let tabs = ShowTabs(.upNext)
    let toWatchURL = Route.upNextPage(.toWatch)
    let waitingURL = Route.upNextPage(.waiting)
    let onWaiting: Bool
    let cards: [Card]
    let hasCards: Bool
    let countText: String
    let emptyMessage: String
    let previousURL: String?
    let nextURL: String?

    /// Shows a page.
    static let pageSize = 60

    /// `items`: every show of the list; `page` (1-based) chooses which `pageSize` are drawn.
    init(items all: [UpNextItem], filter: UpNextFilter, page: Int) {
        let pages = LibraryPage.pageCount(total: all.count, pageSize: Self.pageSize)
        let page = min(max(1, page), pages)
        let items = all.dropFirst((page - 1) * Self.pageSize).prefix(Self.pageSize)
        previousURL = page > 1 ? Route.upNextPage(filter, page: page - 1) : nil
        nextURL = page < pages ? Route.upNextPage(filter, page: page + 1) : nil
        chrome = Chrome(filter == .waiting ? "Up Next: waiting for new episodes" : "Up Next", tab: .shows, tvCredit: true)
        onWaiting = filter == .waiting
        let returnTo = Route.upNextPage(filter, page: page)
        cards = items.map { item in
            let next = item.next.map {
                EpisodeRowView(TrackedEpisode(episode: $0, state: EpisodeState(), hasAired: true), returnTo: returnTo + "#up-next-\(item.showID)")
            }
            return Card(
                showID: item.showID, anchor: "up-next-\(item.showID)", title: item.title, showURL: Route.show.link(item.showID) + "#episodes",
                posterURL: Route.posterImage(source: item.artworkURL, seed: item.showID, title: item.title), next: next,
                remainingText: item.remaining > 0 ? Formats.count(item.remaining, "episode left", "episodes left") : nil,
                newText: item.new > 0 ? "\(Formats.number(item.new)) new" : nil,
                airingText: item.nextAiring.map {
                    "Next: \($0.code) “\($0.name)”, " + ($0.airstamp == nil && $0.airdate == nil ? "not yet scheduled" : EpisodeRowView.airText($0))
                },
                airingISO: item.nextAiring?.airstamp.map { $0.formatted(.iso8601) },
                lastWatchedISO: item.lastWatchedAt.formatted(.iso8601), lastWatchedText: UTCFormatters.moment.string(from: item.lastWatchedAt))
        }
        hasCards = !cards.isEmpty
        countText = Formats.count(all.count, "show", "shows") + (pages > 1 ? " · page \(page) of \(pages)" : "")
        emptyMessage =
            filter == .waiting
            ? "No show is waiting for its next episode: the shows you’re up to date with appear here when another episode is announced."
            : "Nothing to watch next. Mark an episode of a show watched (on the show’s page) and the next one appears here."
    }
}

/// An episode's own page: when it airs, its summary, and every way to mark it.
struct EpisodePage: Page {
    static let template = "shows/episode"

    let chrome: Chrome
    let showName: String
    let showURL: String
    let code: String
    let name: String
    let kindText: String?
    let airISO: String?
    let airText: String
    let runtimeText: String?
    let summaryHTML: String?
    let imageURL: String?
    let aired: Bool
    let watched: Bool
    let watchCountText: String
    let lastDayText: String?
    let actionURL: String
    let returnTo: String
    let today: String
    let latest: String
    let airDay: String?
    let ratingOptions: [RatingPicker.Option]
    let previousURL: String?
    let nextURL: String?

    init(show: Show, episode: Episode, summaryHTML: String?, state: EpisodeState, neighbours: (Episode?, Episode?), now: Date) {
        chrome = Chrome("\(show.name) \(episode.code): \(episode.name)", tab: .shows, tvCredit: true)
        showName = show.name
        showURL = Route.show.link(show.id, query: ["season": episode.isSpecial ? "specials" : String(episode.season)]) + "#episode-\(episode.id)"
        code = episode.code
        name = episode.name
        kindText =
            switch episode.kind {
            case .regular: nil
            case .significantSpecial: "Special"
            case .insignificantSpecial: "Minor special"
            }
        airISO = episode.airstamp.map { $0.formatted(.iso8601) }
        airText = EpisodeRowView.airText(episode)
        runtimeText = episode.runtimeMinutes.map { "\($0) min" }
        self.summaryHTML = summaryHTML.map(HTMLSanitizer.sanitize).flatMap { $0.isEmpty ? nil : $0 }
        imageURL = episode.imageMedium.map { Route.posterImage(source: $0, seed: episode.id, title: episode.name) }
        aired = episode.hasAired(by: now)
        watched = state.watched
        watchCountText =
            state.watchCount == 0
            ? "Not watched yet."
            : "Watched " + (state.watchCount == 1 ? "once" : "\(state.watchCount) times")
                + (state.undatedWatches > 0 ? " (\(Formats.count(state.undatedWatches, "watch", "watches")) on a day not known)" : "") + "."
        lastDayText = state.lastDay.flatMap(Formats.day).map { "Last watched on \($0)." }
        actionURL = Route.saveEpisode.link(episode.id)
        returnTo = Route.episode.link(episode.id)
        today = DiaryService.today(now)
        latest = DiaryService.latestToday(now)
        airDay = episode.airdate
        ratingOptions = RatingPicker.options(selected: state.rating)
        previousURL = neighbours.0.map { Route.episode.link($0.id) }
        nextURL = neighbours.1.map { Route.episode.link($0.id) }
    }
}

// Looked up by a switch, not reflection: a show's list is hundreds of rows (`LookupCheck` keeps each
// switch equal to its fields).

extension EpisodeRowView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "code": code
        case "name": self.name
        case "url": url
        case "airISO": airISO
        case "airText": airText
        case "aired": aired
        case "watched": watched
        case "watchCountText": watchCountText
        case "stars": stars
        case "starWords": starWords
        case "markURL": markURL
        case "mark": mark
        case "checkLabel": checkLabel
        case "returnTo": returnTo
        default: nil
        }
    }
}

extension SeasonView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "number": number
        case "heading": heading
        case "countText": countText
        case "open": open
        case "loaded": loaded
        case "rows": rows
        case "seasonURL": seasonURL
        case "seasonMarkURL": seasonMarkURL
        case "seasonMarkLabel": seasonMarkLabel
        case "seasonRatingURL": seasonRatingURL
        case "seasonRatingOptions": seasonRatingOptions
        case "seasonRatingText": seasonRatingText
        case "returnTo": returnTo
        default: nil
        }
    }
}

extension ShowEpisodesView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "statusLabel": statusLabel
        case "statusClass": statusClass
        case "progressText": progressText
        case "sourceNote": sourceNote
        case "next": next
        case "nextAiringText": nextAiringText
        case "seasons": seasons
        case "specialRows": specialRows
        case "specialsCountText": specialsCountText
        case "specialsOpen": specialsOpen
        case "specialsURL": specialsURL
        case "signedUp": signedUp
        case "progressURL": progressURL
        case "stopped": stopped
        case "stopLabel": stopLabel
        case "includeSpecials": includeSpecials
        case "specialsLabel": specialsLabel
        case "markAllURL": markAllURL
        case "returnTo": returnTo
        case "upNextURL": upNextURL
        default: nil
        }
    }
}

extension UpNextPage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": chrome
        case "tabs": tabs
        case "toWatchURL": toWatchURL
        case "waitingURL": waitingURL
        case "onWaiting": onWaiting
        case "cards": cards
        case "hasCards": hasCards
        case "countText": countText
        case "emptyMessage": emptyMessage
        case "previousURL": previousURL
        case "nextURL": nextURL
        default: nil
        }
    }
}

extension EpisodePage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": chrome
        case "showName": showName
        case "showURL": showURL
        case "code": code
        case "name": self.name
        case "kindText": kindText
        case "airISO": airISO
        case "airText": airText
        case "runtimeText": runtimeText
        case "summaryHTML": summaryHTML
        case "imageURL": imageURL
        case "aired": aired
        case "watched": watched
        case "watchCountText": watchCountText
        case "lastDayText": lastDayText
        case "actionURL": actionURL
        case "returnTo": returnTo
        case "today": today
        case "latest": latest
        case "airDay": airDay
        case "ratingOptions": ratingOptions
        case "previousURL": previousURL
        case "nextURL": nextURL
        default: nil
        }
    }
}

extension UpNextPage.Card: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "showID": showID
        case "anchor": anchor
        case "title": title
        case "showURL": showURL
        case "posterURL": posterURL
        case "next": next
        case "remainingText": remainingText
        case "newText": newText
        case "airingText": airingText
        case "airingISO": airingISO
        case "lastWatchedISO": lastWatchedISO
        case "lastWatchedText": lastWatchedText
        default: nil
        }
    }
}
