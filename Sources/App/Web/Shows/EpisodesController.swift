import Foundation
import Hummingbird
import Logging

/// Up Next, an episode's page, and a person's changes of episodes: a check, a watch on a day,
/// unmarking, a rating, a season or a whole show marked watched, Stopped and specials counted.
struct EpisodesController {
    let actions: EpisodeActions
    let sessions: SessionService
    let renderer: PageRenderer

    func register(on router: RouterGroup<AppRequestContext>) {
        router.on(Route.upNext) { request, context in try await upNext(request, context) }
        router.on(Route.episode) { request, context in try await episode(request, context) }
        router.on(Route.saveEpisode) { request, context in try await change(request, context) }
        router.on(Route.watchShowEpisodes) { request, context in try await watchAll(request, context) }
        router.on(Route.saveShowProgress) { request, context in try await choose(request, context) }
        router.on(Route.rateShowSeason) { request, context in try await rateSeason(request, context) }
    }

    func upNext(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let fields = try FormInput.queryFields(request)
        let raw = fields["filter"]
        guard let filter = raw.map(UpNextFilter.init(rawValue:)) ?? .toWatch else {
            return try ErrorPages.badRequest(
                renderer.for(context), "“\(raw?.prefix(20) ?? "")” is not a list of Up Next: “to-watch” or “waiting”.", backURL: Route.upNext.path)
        }
        let page: Int
        do { page = try FormInput.pageNumber(fields["page"]) } catch {
            return try ErrorPages.badRequest(renderer.for(context), error.message, backURL: Route.upNext.path)
        }
        let items = try await actions.episodes.upNext(profile: context.profileID, filter: filter)
        return try renderer.for(context).response(UpNextPage(items: items, filter: filter, page: page))
    }

    func episode(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try Self.id(context, "episode")
        guard let detail = try await actions.episodes.detail(id) else {
            return try ErrorPages.notFound(
                renderer.for(context),
                "This episode isn’t in PopcornSwirl’s TV catalogue: open its show’s page, which lists every episode TVMaze has.")
        }
        switch await actions.titles.show(detail.episode.showID, profile: context.profileID) {
        case .found(let show, _):
            var state: EpisodeState?
            if let profile = context.profileID { state = try await actions.episodes.states(profile: profile, showID: show.id)[id] }
            let neighbours = try await actions.episodes.neighbours(of: detail.episode)
            let page = EpisodePage(
                show: show, episode: detail.episode, summaryHTML: detail.summaryHTML, state: state ?? EpisodeState(), neighbours: neighbours,
                now: actions.episodes.clock.now())
            return try renderer.for(context).response(page)
        case .notFound:
            return try ErrorPages.notFound(renderer.for(context), "This episode’s show isn’t in the TV catalogue any more.")
        case .unavailable:
            return try ErrorPages.fetchFailed(renderer.for(context), retryURL: Route.episode.link(id))
        }
    }

    /// `mark`, not `action`: a form's field named `action` hides the form's own `action` from scripts.
    struct ChangeForm: Decodable {
        var mark: String?
        var on: String?
        var day: String?
        var rating: String?
        var return_to: String?
    }

    func change(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try Self.id(context, "episode")
        let form = try await FormInput.decode(ChangeForm.self, request, context)
        let wantsJSON = FormInput.wantsJSON(request)
        let returnTo = Route.safeReturnPath(form.return_to, fallback: Route.episode.link(id))
        var change: EpisodeChange
        do {
            change = try Self.change(form)
        } catch {
            return try renderer.for(context).unreadableForm(error.message, wantsJSON: wantsJSON, backURL: returnTo)
        }
        // A check kept offline and sent later (`Change-Made-At`) was watched on the day it was made.
        if let madeAt = try FormInput.madeAt(request) {
            switch change {
            case .watch(.now): change = .watch(.day(DiaryService.today(min(madeAt, actions.episodes.clock.now()))))
            case .watchAgain(.now): change = .watchAgain(.day(DiaryService.today(min(madeAt, actions.episodes.clock.now()))))
            default: break
            }
        }
        let writer = WriteProfile(context, sessions)
        let outcome = await actions.change(episodeID: id, change, profile: context.profileID, writer: writer.start)
        let fields = [("mark", form.mark), ("on", form.on), ("day", form.day), ("rating", form.rating), ("return_to", returnTo)]
        let retry = RetryForm(action: Route.saveEpisode.link(id), fields: fields.compactMap { name, value in value.map { (name, $0) } })
        var response: Response
        switch outcome {
        case .changed(let episode, let state):
            let said = "\(episode.code) “\(episode.name)”: " + Self.said(change, state)
            response =
                wantsJSON
                ? try JSONAnswer.ok(EpisodeStateJSON(episode: episode, state: state, said: said))
                : .redirect(to: returnTo, done: said, context)
        default:
            return try failure(outcome, wantsJSON: wantsJSON, retry: retry, returnTo: returnTo, context)
        }
        writer.setCookie(on: &response)
        return response
    }

    /// What the form asks for: `mark` watch | again | unwatch | rate, `on` now | airdate | day | unknown.
    static func change(_ form: ChangeForm) throws(FormInput.Invalid) -> EpisodeChange {
        let day: EpisodeWatchDay
        switch form.on ?? "now" {
        case "now": day = .now
        case "airdate": day = .airDate
        case "unknown": day = .unknown
        case "day":
            guard let text = form.day?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
                throw FormInput.Invalid(message: "Choose the day you watched it, or another of the choices.")
            }
            day = .day(text)
        default: throw FormInput.Invalid(message: "“on” must be now, airdate, day or unknown.")
        }
        switch form.mark ?? "watch" {
        case "watch": return .watch(day)
        case "again": return .watchAgain(day)
        case "unwatch": return .unwatch
        case "rate":
            guard case .some(let rating) = try FormInput.rating(form.rating ?? "") else { return .rate(nil) }
            return .rate(rating)
        default: throw FormInput.Invalid(message: "“mark” must be watch, again, unwatch or rate.")
        }
    }

    static func said(_ change: EpisodeChange, _ state: EpisodeState) -> String {
        switch change {
        case .watch, .watchAgain:
            state.watchCount > 1 ? "watched \(state.watchCount) times." : "marked watched."
        case .unwatch: "marked not watched."
        case .rate(let rating): rating.map { "rated \(Rating.words($0))." } ?? "rating cleared."
        }
    }

    struct WatchAllForm: Decodable {
        var season: String?
        var return_to: String?
    }

    func watchAll(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try Self.id(context, "show")
        let form = try await FormInput.decode(WatchAllForm.self, request, context)
        let wantsJSON = FormInput.wantsJSON(request)
        let returnTo = Route.safeReturnPath(form.return_to, fallback: Route.show.link(id) + "#episodes")
        var season: Int?
        if let text = form.season, !text.isEmpty {
            guard let number = Int(text), (0...10_000).contains(number) else {
                return try renderer.for(context).unreadableForm("“season” must be a season’s number.", wantsJSON: wantsJSON, backURL: returnTo)
            }
            season = number
        }
        let writer = WriteProfile(context, sessions)
        let outcome = await actions.watchAll(showID: id, season: season, profile: context.profileID, writer: writer.start)
        let retry = RetryForm(
            action: Route.watchShowEpisodes.link(id),
            fields: [("season", form.season), ("return_to", returnTo)].compactMap { n, v in v.map { (n, $0) } })
        guard case .marked(let count) = outcome else {
            return try failure(outcome, wantsJSON: wantsJSON, retry: retry, returnTo: returnTo, context)
        }
        let said =
            count == 0
            ? "Every aired episode\(season.map { " of season \($0)" } ?? "") was watched already."
            : "\(Formats.count(count, "episode", "episodes"))\(season.map { " of season \($0)" } ?? "") marked watched."
        var response: Response = wantsJSON ? try JSONAnswer.ok(MarkedJSON(marked: count, said: said)) : .redirect(to: returnTo, done: said, context)
        writer.setCookie(on: &response)
        return response
    }

    struct SeasonRatingForm: Decodable {
        var season: String?
        var rating: String?
        var return_to: String?
    }

    func rateSeason(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try Self.id(context, "show")
        let form = try await FormInput.decode(SeasonRatingForm.self, request, context)
        let wantsJSON = FormInput.wantsJSON(request)
        let returnTo = Route.safeReturnPath(form.return_to, fallback: Route.show.link(id) + "#episodes")
        let rating: Int?
        guard let season = form.season.flatMap({ Int($0) }), (1...10_000).contains(season) else {
            return try renderer.for(context).unreadableForm("“season” must be a season’s number.", wantsJSON: wantsJSON, backURL: returnTo)
        }
        do {
            rating = try FormInput.rating(form.rating ?? "") ?? nil
        } catch {
            return try renderer.for(context).unreadableForm(error.message, wantsJSON: wantsJSON, backURL: returnTo)
        }
        let writer = WriteProfile(context, sessions)
        let outcome = await actions.rateSeason(showID: id, season: season, rating: rating, profile: context.profileID, writer: writer.start)
        let fields = [("season", form.season), ("rating", form.rating), ("return_to", returnTo)]
        let retry = RetryForm(action: Route.rateShowSeason.link(id), fields: fields.compactMap { n, v in v.map { (n, $0) } })
        guard case .seasonRated = outcome else {
            return try failure(outcome, wantsJSON: wantsJSON, retry: retry, returnTo: returnTo, context)
        }
        let said = "Season \(season): " + (rating.map { "rated \(Rating.words($0))." } ?? "rating cleared.")
        var response: Response =
            wantsJSON ? try JSONAnswer.ok(SeasonRatingJSON(season: season, rating: rating, said: said)) : .redirect(to: returnTo, done: said, context)
        writer.setCookie(on: &response)
        return response
    }

    struct ChoiceForm: Decodable {
        var stopped: String?
        var include_specials: String?
        var return_to: String?
    }

    func choose(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try Self.id(context, "show")
        let form = try await FormInput.decode(ChoiceForm.self, request, context)
        let wantsJSON = FormInput.wantsJSON(request)
        let returnTo = Route.safeReturnPath(form.return_to, fallback: Route.show.link(id) + "#episodes")
        let stopped: Bool?
        let specials: Bool?
        do {
            stopped = try FormInput.flag(form.stopped, "stopped")
            specials = try FormInput.flag(form.include_specials, "include_specials")
        } catch {
            return try renderer.for(context).unreadableForm(error.message, wantsJSON: wantsJSON, backURL: returnTo)
        }
        let writer = WriteProfile(context, sessions)
        let outcome = await actions.choose(showID: id, stopped: stopped, includeSpecials: specials, profile: context.profileID, writer: writer.start)
        let fields = [("stopped", form.stopped), ("include_specials", form.include_specials), ("return_to", returnTo)]
        let retry = RetryForm(action: Route.saveShowProgress.link(id), fields: fields.compactMap { n, v in v.map { (n, $0) } })
        guard case .chosen(let choices) = outcome else {
            return try failure(outcome, wantsJSON: wantsJSON, retry: retry, returnTo: returnTo, context)
        }
        var said: [String] = []
        if let stopped { said.append(stopped ? "Stopped: hidden from Up Next." : "Back in Up Next.") }
        if let specials { said.append(specials ? "Specials now count in your progress." : "Specials no longer count in your progress.") }
        let text = said.isEmpty ? "Nothing changed." : said.joined(separator: " ")
        var response: Response =
            wantsJSON
            ? try JSONAnswer.ok(ChoicesJSON(stopped: choices.stopped, includeSpecials: choices.includeSpecials, said: text))
            : .redirect(to: returnTo, done: text, context)
        writer.setCookie(on: &response)
        return response
    }

    /// A change that was not made: the spec's error texts, as JSON or a page (a retry form when
    /// the database failed, so nothing typed is lost).
    private func failure(_ outcome: EpisodeOutcome, wantsJSON: Bool, retry: RetryForm, returnTo: String, _ context: AppRequestContext) throws
        -> Response
    {
        let responder = renderer.for(context)
        switch outcome {
        case .tooManyNewVisitors(let wait): throw VisitorThrottle.Refused(retryAfter: wait).httpError
        case .failed(let error):
            if wantsJSON { return try JSONAnswer.error(HTTPResponse.Status(code: error.status), error.message) }
            switch error {
            case .notFound: return try ErrorPages.notFound(responder, error.message)
            case .notAired, .invalid: return try ErrorPages.badRequest(responder, error.message, backURL: returnTo, status: .unprocessableContent)
            case .storageFailed: return try ErrorPages.retry(responder, message: error.message, form: retry)
            }
        default:
            return try ErrorPages.retry(responder, message: EpisodeError.storageFailed.message, form: retry)
        }
    }

    static func id(_ context: AppRequestContext, _ what: String) throws -> Int {
        guard let raw = context.parameters.get("id"), let id = Int(raw), id > 0, id < 10_000_000_000 else {
            throw HTTPError(.notFound, message: "There is no \(what == "show" ? "TV show" : "episode") at this address.")
        }
        return id
    }
}

struct EpisodeStateJSON: Encodable {
    let id: Int
    let watched: Bool
    let watchCount: Int
    let rating: Int?
    let said: String

    init(episode: Episode, state: EpisodeState, said: String) {
        id = episode.id
        watched = state.watched
        watchCount = state.watchCount
        rating = state.rating
        self.said = said
    }
}

struct SeasonRatingJSON: Encodable {
    let season: Int
    let rating: Int?
    let said: String
}

struct MarkedJSON: Encodable {
    let marked: Int
    let said: String
}

struct ChoicesJSON: Encodable {
    let stopped: Bool
    let includeSpecials: Bool
    let said: String
}
