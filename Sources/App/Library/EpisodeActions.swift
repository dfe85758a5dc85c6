import Foundation
import Logging

/// A change of one episode, as a person asks for it.
public enum EpisodeChange: Sendable, Equatable {
    /// Watched (on this day); an episode watched already is left as it is.
    case watch(EpisodeWatchDay)
    /// Watched again: another watch, a rewatch.
    case watchAgain(EpisodeWatchDay)
    /// Not watched: every watch of it goes.
    case unwatch
    /// Rated 1–10, or its rating cleared (nil).
    case rate(Int?)
}

/// What an episode change came to.
enum EpisodeOutcome: Sendable {
    case changed(Episode, EpisodeState)
    /// Episodes marked watched at once.
    case marked(Int)
    case chosen(ShowChoices)
    /// A season's rating saved (nil: cleared).
    case seasonRated(season: Int, rating: Int?)
    case failed(EpisodeError)
    /// Nothing was saved: the write would have started a visitor, and the address has started too many lately.
    case tooManyNewVisitors(retryAfter: Int)
}

/// A show's episodes for one person, as the show's page and the API give them.
enum EpisodeListing: Sendable {
    case found(Show, ShowEpisodes)
    /// TVMaze has no such show.
    case notFound
    /// No list of the show's episodes is held and TVMaze cannot be asked now.
    case unavailable
}

/// The episodes' use cases, shared by the pages and the API: the show a change is for (never
/// waiting on TVMaze: what PopcornSwirl holds), a visitor's profile made only for a write that
/// can happen, and the catalogue asked for a show's list when it is due.
struct EpisodeActions: Sendable {
    let catalog: EpisodeCatalog
    let episodes: EpisodeService
    let titles: TitleLookup
    let logger: Logger

    init(catalog: EpisodeCatalog, episodes: EpisodeService, titles: TitleLookup, logger: Logger) {
        self.catalog = catalog
        self.episodes = episodes
        self.titles = titles
        self.logger = logger
    }

    init(_ services: AppServices) {
        self.init(catalog: services.episodeCatalog, episodes: services.episodes, titles: services.titles, logger: services.logger)
    }

    /// The show's seasons and episodes with the person's state; the list is asked of TVMaze when due.
    func listing(showID: Int, profile: UUID?) async -> EpisodeListing {
        switch await titles.show(showID, profile: profile) {
        case .found(let show, _):
            guard let tracked = await episodes(of: show, profile: profile) else { return .unavailable }
            return .found(show, tracked)
        case .notFound: return .notFound
        case .unavailable: return .unavailable
        }
    }

    /// A show's episodes with the person's state (nil when no list is held and TVMaze can't be asked).
    func episodes(of show: Show, profile: UUID?) async -> ShowEpisodes? {
        guard let held = await catalog.prepare(showID: show.id) else { return nil }
        do {
            return try await episodes.show(show, held: held, profile: profile)
        } catch {
            logger.error("episodes not read", metadata: ["show": "\(show.id)", "error": "\(error)"])
            return nil
        }
    }

    /// The show a write is for, from what PopcornSwirl holds.
    private func show(_ id: Int, profile: UUID?) async -> Show? {
        switch await titles.showForSave(id, profile: profile) {
        case .found(let show), .pending(let show): show
        case .notFound: nil
        }
    }

    func change(episodeID: Int, _ change: EpisodeChange, profile: UUID?, writer: () async throws -> UUID) async -> EpisodeOutcome {
        guard let episode = try? await episodes.episode(episodeID) else { return .failed(.notFound) }
        if case .rate(let rating?) = change, !Rating.range.contains(rating) { return .failed(.invalid(LibraryError.invalidRating(rating).message)) }
        guard let show = await show(episode.showID, profile: profile) else { return .failed(.notFound) }
        if change != .unwatch && !(change.isRating) && !episode.hasAired(by: episodes.clock.now()) { return .failed(.notAired(episode.name)) }
        do {
            let profile = try await writer()
            switch change {
            case .watch(let day): _ = try await episodes.watch(profile: profile, show: show, episodeID: episodeID, on: day)
            case .watchAgain(let day): _ = try await episodes.watch(profile: profile, show: show, episodeID: episodeID, on: day, again: true)
            case .unwatch: try await episodes.unwatch(profile: profile, showID: show.id, episodeID: episodeID)
            case .rate(let rating): try await episodes.rate(profile: profile, show: show, episodeID: episodeID, rating: rating)
            }
            let state = try await episodes.states(profile: profile, showID: show.id)[episodeID] ?? EpisodeState()
            return .changed(episode, state)
        } catch let error as EpisodeError {
            return .failed(error)
        } catch let refused as VisitorThrottle.Refused {
            return .tooManyNewVisitors(retryAfter: refused.retryAfter)
        } catch {
            logger.error("episode change failed", metadata: ["episode": "\(episodeID)", "error": "\(error)"])
            return .failed(.storageFailed)
        }
    }

    /// Marks every aired regular episode not yet watched (of one season) watched on no known day.
    func watchAll(showID: Int, season: Int?, profile: UUID?, writer: () async throws -> UUID) async -> EpisodeOutcome {
        guard let show = await show(showID, profile: profile) else { return .failed(.notFound) }
        guard await catalog.prepare(showID: showID) != nil else { return .failed(.notFound) }
        return await Self.outcome { .marked(try await episodes.watchAll(profile: try await writer(), show: show, season: season)) }
    }

    /// Rates a whole season of the show 1–10, or clears its rating.
    func rateSeason(showID: Int, season: Int, rating: Int?, profile: UUID?, writer: () async throws -> UUID) async -> EpisodeOutcome {
        if let rating, !Rating.range.contains(rating) { return .failed(.invalid(LibraryError.invalidRating(rating).message)) }
        guard let show = await show(showID, profile: profile) else { return .failed(.notFound) }
        guard await catalog.prepare(showID: showID) != nil else { return .failed(.notFound) }
        return await Self.outcome {
            try await episodes.rateSeason(profile: try await writer(), show: show, season: season, rating: rating)
            return .seasonRated(season: season, rating: rating)
        }
    }

    func choose(showID: Int, stopped: Bool?, includeSpecials: Bool?, profile: UUID?, writer: () async throws -> UUID) async -> EpisodeOutcome {
        guard let show = await show(showID, profile: profile) else { return .failed(.notFound) }
        return await Self.outcome {
            .chosen(try await episodes.choose(profile: try await writer(), show: show, stopped: stopped, includeSpecials: includeSpecials))
        }
    }

    /// A write's outcome: what it came to, or why it was not made.
    private static func outcome(_ write: () async throws -> EpisodeOutcome) async -> EpisodeOutcome {
        do {
            return try await write()
        } catch let error as EpisodeError {
            return .failed(error)
        } catch let refused as VisitorThrottle.Refused {
            return .tooManyNewVisitors(retryAfter: refused.retryAfter)
        } catch {
            return .failed(.storageFailed)
        }
    }
}

extension EpisodeChange {
    var isRating: Bool {
        if case .rate = self { return true }
        return false
    }
}

extension EpisodeError {
    /// The HTTP status a page or the API answers this with.
    var status: Int {
        switch self {
        case .notFound: 404
        case .notAired, .invalid: 422
        case .storageFailed: 503
        }
    }
}
