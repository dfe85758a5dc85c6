import Foundation
import OpenAPIRuntime
import PopcornAPI

/// The TV part of JSON API v1, over the same services as the TV pages.
extension APIController {
    func listShows(_ input: Operations.ListShows.Input) async throws -> Operations.ListShows.Output {
        if let q = input.query.q?.trimmingCharacters(in: .whitespacesAndNewlines), !q.isEmpty {
            guard TextRules.length(q) <= SearchQuery.maxLength else {
                return .badRequest(.init(body: .applicationProblemJson(.badRequest("q must be at most 200 characters."))))
            }
            let result = await shows.search(q)
            return .ok(
                .init(
                    body: .json(
                        .init(query: result.query, isEnd: true, source: .init(result.source), shows: result.shows.map(Components.Schemas.Show.init))))
            )
        }
        let page = input.query.page ?? 1
        guard (1...ShowCatalog.maxPage).contains(page) else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("page must be between 1 and \(ShowCatalog.maxPage)."))))
        }
        let result = await shows.page(page)
        return .ok(
            .init(
                body: .json(
                    .init(page: page, isEnd: result.isEnd, source: .init(result.source), shows: result.shows.map(Components.Schemas.Show.init)))))
    }

    func getShow(_ input: Operations.GetShow.Input) async throws -> Operations.GetShow.Output {
        guard let id = Int(exactly: input.path.id), id > 0 else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("id must be a positive TVMaze show id."))))
        }
        let profile = APIScope.session?.profileID
        switch await titles.show(id, profile: profile) {
        case .found(let show, let source):
            let saved = (try? await library.item(profile: profile, movieID: id, kind: .show))??.favorite == true
            return .ok(.init(body: .json(.init(show: .init(show), source: .init(source), saved: saved))))
        case .notFound:
            return .notFound(.init(body: .applicationProblemJson(.notFound("TVMaze has no show with id \(id)."))))
        case .unavailable:
            return .serviceUnavailable(.init(body: .applicationProblemJson(.unavailable(ErrorTexts.fetchFailed))))
        }
    }

    func putLibraryShow(_ input: Operations.PutLibraryShow.Input) async throws -> Operations.PutLibraryShow.Output {
        guard let id = Int(exactly: input.path.id), id > 0 else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("id must be a positive TVMaze show id."))))
        }
        guard let session = APIScope.session else { throw APIError.noSession }
        // Without a body: add to TV Favorites, as before ratings.
        var favorite: Bool? = true
        var rating: Int?? = nil
        if case .json(let change)? = input.body {
            favorite = change.favorite
            rating = change.rating.map(Self.ratingChange)
        }
        let outcome = await actions.saveShow(id, favorite: favorite, rating: rating, madeAt: input.headers.changeMadeAt, profile: session.profileID) {
            try await session.profileForWrite()
        }
        switch (outcome, outcome.problem(.show, id)) {
        case (.saved(let item?, _), _): return .ok(.init(body: .json(.init(item))))
        case (.superseded(let detail), _): return .conflict(.init(body: .applicationProblemJson(.superseded(detail))))
        case (.saved(nil, _), _): return .noContent(.init())
        case (.invalidRating, let problem?):
            return .unprocessableContent(.init(body: .applicationProblemJson(.init(status: 422, detail: problem.detail))))
        case (.titleNotFound, let problem?): return .notFound(.init(body: .applicationProblemJson(.init(status: 404, detail: problem.detail))))
        case (.tooManyNewVisitors(let wait), let problem?):
            return .tooManyRequests(
                .init(headers: .init(retryAfter: wait), body: .applicationProblemJson(.init(status: 429, detail: problem.detail))))
        case (_, let problem):
            return .serviceUnavailable(.init(body: .applicationProblemJson(.unavailable(problem?.detail ?? ErrorTexts.saveShowFailed))))
        }
    }

    func deleteLibraryShow(_ input: Operations.DeleteLibraryShow.Input) async throws -> Operations.DeleteLibraryShow.Output {
        guard let id = Int(exactly: input.path.id), id > 0 else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("id must be a positive TVMaze show id."))))
        }
        let outcome = await actions.remove(id, kind: .show, profile: APIScope.session?.profileID, madeAt: input.headers.changeMadeAt)
        switch (outcome, outcome.problem(.show, id)) {
        case (.superseded(let detail), _): return .conflict(.init(body: .applicationProblemJson(.superseded(detail))))
        case (.notInLists, let problem?): return .notFound(.init(body: .applicationProblemJson(.init(status: 404, detail: problem.detail))))
        case (_, let problem?): return .serviceUnavailable(.init(body: .applicationProblemJson(.init(status: 503, detail: problem.detail))))
        case (_, nil): return .noContent(.init())
        }
    }
}

enum APIError: Error {
    case noSession
}

extension Components.Schemas.Show {
    init(_ show: App.Show) {
        self.init(
            id: Int64(show.id), name: show.name, genres: show.genres, status: show.status, premiered: show.premiered,
            ended: show.ended, network: show.network, webChannel: show.webChannel, schedule: show.scheduleText,
            runtimeMinutes: show.runtimeMinutes, rating: show.rating,
            summaryHtml: show.summaryHTML.map(HTMLSanitizer.sanitize), imdbUrl: show.imdbURL, officialSite: show.officialSite,
            tvmazeUrl: show.tvmazeURL, posterUrl: Route.posterImage(source: show.imageMedium, seed: show.id, title: show.name)
        )
    }
}
