import Foundation

/// A person's watches of one episode: dated ones (in the diary) and ones with no day.
public struct EpisodeState: Sendable, Equatable {
    public var datedWatches = 0
    public var undatedWatches = 0
    /// 1–10 (`Rating`); nil when not rated.
    public var rating: Int?
    /// The latest day it was watched on (nil when never, or only on days nobody knows).
    public var lastDay: String?

    public var watchCount: Int { datedWatches + undatedWatches }
    public var watched: Bool { watchCount > 0 }

    public init(datedWatches: Int = 0, undatedWatches: Int = 0, rating: Int? = nil, lastDay: String? = nil) {
        self.datedWatches = datedWatches
        self.undatedWatches = undatedWatches
        self.rating = rating
        self.lastDay = lastDay
    }
}

/// An episode with the person's state of it.
public struct TrackedEpisode: Sendable, Equatable {
    public var episode: Episode
    public var state: EpisodeState
    public var hasAired: Bool
}

/// Where a person is with a show.
public enum ShowStatus: String, Sendable, CaseIterable {
    /// No regular episode watched.
    case notStarted = "not-started"
    /// Aired episodes are left to watch.
    case watching
    /// Every aired episode watched; more are to come.
    case upToDate = "up-to-date"
    /// The show has ended and every episode is watched.
    case finished
    /// The person stopped: hidden from Up Next, whatever is left.
    case stopped

    public var label: String {
        switch self {
        case .notStarted: "Not started"
        case .watching: "Watching"
        case .upToDate: "Up to date"
        case .finished: "Finished"
        case .stopped: "Stopped"
        }
    }
}

/// A person's choices for one show they began.
public struct ShowChoices: Sendable, Equatable {
    public var stopped = false
    public var includeSpecials = false
    public var lastWatchedAt: Date?
}

/// A person's progress through a show: counts over the regular episodes (and the specials too
/// when they include them), and the next one to watch.
public struct ShowProgress: Sendable, Equatable {
    public var aired: Int
    public var watched: Int
    /// Episodes announced, not yet aired.
    public var upcoming: Int
    public var status: ShowStatus
    public var choices: ShowChoices
    /// The first aired, unwatched regular episode in airing order.
    public var next: Episode?
    /// The next regular episode to air.
    public var nextAiring: Episode?

    public var remaining: Int { aired - watched }

    /// Progress from a show's tracked episodes: `ended` when TVMaze says the show has ended.
    static func of(_ tracked: [TrackedEpisode], choices: ShowChoices, ended: Bool) -> ShowProgress {
        let counted = tracked.filter { !$0.episode.isSpecial || choices.includeSpecials }
        let aired = counted.filter(\.hasAired)
        let watched = aired.filter(\.state.watched).count
        let regular = tracked.filter { !$0.episode.isSpecial }
        let next = regular.first { $0.hasAired && !$0.state.watched }?.episode
        let nextAiring = regular.first { !$0.hasAired }?.episode
        let upcoming = counted.count - aired.count
        let anyWatched = regular.contains(where: \.state.watched)
        let status: ShowStatus =
            if choices.stopped { .stopped } else if !anyWatched { .notStarted } else if watched < aired.count {
                .watching
            } else if ended && upcoming == 0 { .finished } else { .upToDate }
        return ShowProgress(
            aired: aired.count, watched: watched, upcoming: upcoming, status: status, choices: choices, next: next, nextAiring: nextAiring)
    }
}

/// One season's episodes, as a show's page lists them.
public struct SeasonEpisodes: Sendable, Equatable {
    public var season: Season
    public var episodes: [TrackedEpisode]
    /// The person's rating of the whole season (1–10), if any.
    public var rating: Int? = nil

    public var aired: Int { episodes.filter(\.hasAired).count }
    public var watched: Int { episodes.filter { $0.hasAired && $0.state.watched }.count }
}

/// A show's episodes for one person: the seasons with their regular episodes, the specials apart.
public struct ShowEpisodes: Sendable {
    public var showID: Int
    public var held: HeldEpisodes
    public var seasons: [SeasonEpisodes]
    public var specials: [TrackedEpisode]
    public var progress: ShowProgress

    /// The season a page opens: the one holding the next episode to watch, else the latest that
    /// has aired, else the first.
    public var currentSeason: Int? {
        if let next = progress.next { return next.season }
        return seasons.last { $0.aired > 0 }?.season.number ?? seasons.first?.season.number
    }
}

/// When an episode was watched, as a person says it.
public enum EpisodeWatchDay: Sendable, Equatable {
    /// Today.
    case now
    /// The day it aired.
    case airDate
    /// A day they pick (`yyyy-MM-dd`).
    case day(String)
    /// Watched, on a day nobody knows: not in the diary.
    case unknown
}

/// One card of Up Next: a show in progress and the episode to watch next.
public struct UpNextItem: Sendable, Equatable {
    public var showID: Int
    public var title: String
    public var artworkURL: String?
    public var next: Episode?
    /// Aired regular episodes left to watch.
    public var remaining: Int
    /// Of those, the ones aired since the person last watched an episode.
    public var new: Int
    public var nextAiring: Episode?
    public var lastWatchedAt: Date
}

/// What Up Next lists.
public enum UpNextFilter: String, Sendable, CaseIterable {
    /// Shows with aired episodes left to watch.
    case toWatch = "to-watch"
    /// Shows with every aired episode watched, waiting for the next to air.
    case waiting
}

/// Why an episode change was not made; nothing was written.
public enum EpisodeError: Error, Sendable, Equatable {
    case notFound
    case notAired(String)
    case invalid(String)
    case storageFailed

    public var message: String {
        switch self {
        case .notFound: "There is no such episode in PopcornSwirl’s TV catalogue."
        case .notAired(let name): "“\(name)” hasn’t aired yet: it can be marked watched once it has."
        case .invalid(let message): message
        case .storageFailed: "There was a problem saving your change. Please try again."
        }
    }
}
