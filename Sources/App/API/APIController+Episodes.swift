import Foundation
import OpenAPIRuntime
import PopcornAPI

/// Episodes and Up Next in JSON API v1, over the same use cases as the pages (`EpisodeActions`).
extension APIController {
    func listShowEpisodes(_ input: Operations.ListShowEpisodes.Input) async throws -> Operations.ListShowEpisodes.Output {
        guard let id = Int(exactly: input.path.id), (1...TitleLookup.maxShowID).contains(id) else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("id must be a positive TVMaze show id."))))
        }
        switch await episodes.listing(showID: id, profile: APIScope.session?.profileID) {
        case .found(_, let listed): return .ok(.init(body: .json(.init(listed))))
        case .notFound: return .notFound(.noShow(id))
        case .unavailable: return .serviceUnavailable(.init(body: .applicationProblemJson(.unavailable(ErrorTexts.fetchFailed))))
        }
    }

    func putLibraryEpisode(_ input: Operations.PutLibraryEpisode.Input) async throws -> Operations.PutLibraryEpisode.Output {
        guard let id = Int(exactly: input.path.episodeId), id > 0 else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("episodeId must be a positive TVMaze episode id."))))
        }
        guard let session = APIScope.session else { throw APIError.noSession }
        guard case .json(let body) = input.body else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("Send {\"watched\": true} or {\"watched\": false}."))))
        }
        var changes: [EpisodeChange] = []
        if body.watched {
            do {
                changes.append(.watch(try Self.watchDay(watchedAt: body.watchedAt, when: body.when?.rawValue)))
            } catch {
                return .unprocessableContent(.init(body: .applicationProblemJson(.init(status: 422, detail: error.message))))
            }
        } else {
            changes.append(.unwatch)
        }
        if let rating = body.rating { changes.append(.rate(Self.ratingChange(rating))) }
        var last: EpisodeOutcome = .failed(.notFound)
        for change in changes {
            last = await episodes.change(episodeID: id, change, profile: session.profileID) { try await session.profileForWrite() }
            guard case .changed = last else { break }
        }
        switch last {
        case .changed(let episode, let state): return .ok(.init(body: .json(.init(episode, state))))
        case .failed(let error): return Self.problem(error, as: Operations.PutLibraryEpisode.Output.self)
        case .tooManyNewVisitors(let wait):
            return .tooManyRequests(.after(wait))
        default: return .serviceUnavailable(.notSaved)
        }
    }

    func logEpisodeWatch(_ input: Operations.LogEpisodeWatch.Input) async throws -> Operations.LogEpisodeWatch.Output {
        guard let id = Int(exactly: input.path.episodeId), id > 0 else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("episodeId must be a positive TVMaze episode id."))))
        }
        guard let session = APIScope.session else { throw APIError.noSession }
        var watchedAt: String?
        var when: String?
        if case .json(let body)? = input.body { (watchedAt, when) = (body.watchedAt, body.when?.rawValue) }
        let day: EpisodeWatchDay
        do {
            day = try Self.watchDay(watchedAt: watchedAt, when: when)
        } catch {
            return .unprocessableContent(.init(body: .applicationProblemJson(.init(status: 422, detail: error.message))))
        }
        switch await episodes.change(episodeID: id, .watchAgain(day), profile: session.profileID, writer: { try await session.profileForWrite() }) {
        case .changed(let episode, let state): return .ok(.init(body: .json(.init(episode, state))))
        case .failed(let error):
            switch error {
            case .notFound: return .notFound(.init(body: .applicationProblemJson(.notFound(error.message))))
            case .notAired, .invalid: return .unprocessableContent(.init(body: .applicationProblemJson(.init(status: 422, detail: error.message))))
            case .storageFailed: return .serviceUnavailable(.init(body: .applicationProblemJson(.unavailable(error.message))))
            }
        case .tooManyNewVisitors(let wait):
            return .tooManyRequests(.after(wait))
        default: return .serviceUnavailable(.notSaved)
        }
    }

    func markShowWatched(_ input: Operations.MarkShowWatched.Input) async throws -> Operations.MarkShowWatched.Output {
        guard let id = Int(exactly: input.path.id), (1...TitleLookup.maxShowID).contains(id) else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("id must be a positive TVMaze show id."))))
        }
        guard let session = APIScope.session else { throw APIError.noSession }
        var season: Int?
        if case .json(let body)? = input.body { season = body.season }
        if let season, !(0...10_000).contains(season) {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("season must be a season's number, 0 to 10000."))))
        }
        switch await episodes.watchAll(showID: id, season: season, profile: session.profileID, writer: { try await session.profileForWrite() }) {
        case .marked(let count): return .ok(.init(body: .json(.init(marked: count))))
        case .failed(.notFound): return .notFound(.noShow(id))
        case .tooManyNewVisitors(let wait):
            return .tooManyRequests(.after(wait))
        default: return .serviceUnavailable(.notSaved)
        }
    }

    func putShowProgress(_ input: Operations.PutShowProgress.Input) async throws -> Operations.PutShowProgress.Output {
        guard let id = Int(exactly: input.path.id), (1...TitleLookup.maxShowID).contains(id) else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("id must be a positive TVMaze show id."))))
        }
        guard let session = APIScope.session else { throw APIError.noSession }
        guard case .json(let body) = input.body else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("Send {\"stopped\": true} or {\"includeSpecials\": true}."))))
        }
        let outcome = await episodes.choose(
            showID: id, stopped: body.stopped, includeSpecials: body.includeSpecials, profile: session.profileID,
            writer: { try await session.profileForWrite() })
        switch outcome {
        case .chosen:
            guard case .found(_, let listed) = await episodes.listing(showID: id, profile: session.profileID) else {
                return .serviceUnavailable(.init(body: .applicationProblemJson(.unavailable(ErrorTexts.fetchFailed))))
            }
            return .ok(.init(body: .json(.init(listed.progress))))
        case .failed(.notFound): return .notFound(.noShow(id))
        case .tooManyNewVisitors(let wait):
            return .tooManyRequests(.after(wait))
        default: return .serviceUnavailable(.notSaved)
        }
    }

    func putSeasonRating(_ input: Operations.PutSeasonRating.Input) async throws -> Operations.PutSeasonRating.Output {
        guard let id = Int(exactly: input.path.id), (1...TitleLookup.maxShowID).contains(id) else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("id must be a positive TVMaze show id."))))
        }
        guard (1...10_000).contains(input.path.season) else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("season must be a season's number, 1 to 10000."))))
        }
        guard let session = APIScope.session else { throw APIError.noSession }
        guard case .json(let body) = input.body, (0...10).contains(body.rating) else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("Send {\"rating\": 1…10}, or {\"rating\": 0} to clear it."))))
        }
        let outcome = await episodes.rateSeason(
            showID: id, season: input.path.season, rating: Self.ratingChange(body.rating), profile: session.profileID,
            writer: { try await session.profileForWrite() })
        switch outcome {
        case .seasonRated(let season, let rating): return .ok(.init(body: .json(.init(season: season, rating: rating))))
        case .failed(.notFound): return .notFound(.init(body: .applicationProblemJson(.notFound("This show has no season \(input.path.season)."))))
        case .failed(.invalid(let message)): return .badRequest(.init(body: .applicationProblemJson(.badRequest(message))))
        case .tooManyNewVisitors(let wait): return .tooManyRequests(.after(wait))
        default: return .serviceUnavailable(.notSaved)
        }
    }

    func listUpNext(_ input: Operations.ListUpNext.Input) async throws -> Operations.ListUpNext.Output {
        guard let profile = APIScope.session?.existing else { return .unauthorized(APIRefusal.signInResponse) }
        let filter = UpNextFilter(rawValue: input.query.filter?.rawValue ?? UpNextFilter.toWatch.rawValue) ?? .toWatch
        let items = try await episodes.episodes.upNext(profile: profile, filter: filter)
        return .ok(.init(body: .json(.init(items: items.map(Components.Schemas.UpNextItem.init)))))
    }

    /// The day a watch is logged on: `watchedAt`'s UTC day (not in the future), else `when`.
    static func watchDay(watchedAt text: String?, when: String?) throws(LibraryError) -> EpisodeWatchDay {
        if let text {
            let strategies: [Date.ISO8601FormatStyle] = [
                .iso8601, .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .colon),
                Date.ISO8601FormatStyle(includingFractionalSeconds: true),
            ]
            guard let watchedAt = strategies.lazy.compactMap({ try? Date(text, strategy: $0) }).first else {
                throw .invalidDay("“\(text.prefix(40))” is not a moment of the calendar. Send it as 2026-11-29T21:30:00Z.")
            }
            return .day(try DiaryService.validatedDay(DiaryService.today(watchedAt), now: Date()))
        }
        switch when ?? "now" {
        case "airdate": return .airDate
        case "unknown": return .unknown
        default: return .now
        }
    }

    static func problem(_ error: EpisodeError, as: Operations.PutLibraryEpisode.Output.Type) -> Operations.PutLibraryEpisode.Output {
        switch error {
        case .notFound: .notFound(.init(body: .applicationProblemJson(.notFound(error.message))))
        case .notAired, .invalid: .unprocessableContent(.init(body: .applicationProblemJson(.init(status: 422, detail: error.message))))
        case .storageFailed: .serviceUnavailable(.init(body: .applicationProblemJson(.unavailable(error.message))))
        }
    }
}

extension Components.Schemas.Episode {
    init(_ episode: App.Episode, _ state: EpisodeState) {
        self.init(
            id: Int64(episode.id), season: episode.season, number: episode.number, name: episode.name,
            _type: .init(rawValue: episode.kind.rawValue) ?? .regular, airdate: episode.airdate, airstamp: episode.airstamp,
            runtime: episode.runtimeMinutes, watched: state.watched, watchCount: state.watchCount, rating: state.rating)
    }
}

extension Components.Schemas.EpisodeState {
    init(_ episode: App.Episode, _ state: App.EpisodeState) {
        self.init(id: Int64(episode.id), watched: state.watched, watchCount: state.watchCount, rating: state.rating)
    }
}

extension Components.Schemas.ShowProgress {
    init(_ progress: App.ShowProgress) {
        self.init(
            status: .init(rawValue: progress.status.rawValue) ?? .notStarted, aired: progress.aired, watched: progress.watched,
            remaining: progress.remaining, stopped: progress.choices.stopped, includeSpecials: progress.choices.includeSpecials,
            lastWatchedAt: progress.choices.lastWatchedAt)
    }
}

extension Components.Schemas.ShowEpisodes {
    init(_ listed: App.ShowEpisodes) {
        self.init(
            seasons: listed.seasons.map { season in
                .init(
                    number: season.season.number, name: season.season.name,
                    episodes: season.episodes.map { Components.Schemas.Episode($0.episode, $0.state) }, rating: season.rating)
            },
            specials: listed.specials.map { Components.Schemas.Episode($0.episode, $0.state) }, progress: .init(listed.progress),
            source: .init(rawValue: listed.held.source.rawValue) ?? .tvmaze)
    }
}

extension Components.Schemas.UpNextItem {
    init(_ item: App.UpNextItem) {
        let none = EpisodeState()
        self.init(
            show: .init(
                id: Int64(item.showID), name: item.title, posterUrl: Route.posterImage(source: item.artworkURL, seed: item.showID, title: item.title)),
            next: item.next.map { Components.Schemas.Episode($0, none) }, remaining: item.remaining, new: item.new,
            nextAiring: item.nextAiring.map { Components.Schemas.Episode($0, none) }, lastWatchedAt: item.lastWatchedAt)
    }
}

extension Components.Responses.TooManyNewVisitors {
    /// Nothing was saved: this address started too many visitors lately; try again after `wait` seconds.
    static func after(_ wait: Int) -> Self {
        .init(
            headers: .init(retryAfter: wait),
            body: .applicationProblemJson(.init(status: 429, detail: VisitorThrottle.Refused(retryAfter: wait).message)))
    }
}

extension Components.Responses.Unavailable {
    /// An episode change the database did not take.
    static var notSaved: Self { .init(body: .applicationProblemJson(.unavailable(EpisodeError.storageFailed.message))) }
}

extension Components.Responses.NotFound {
    static func noShow(_ id: Int) -> Self { .init(body: .applicationProblemJson(.notFound("TVMaze has no show with id \(id)."))) }
}
