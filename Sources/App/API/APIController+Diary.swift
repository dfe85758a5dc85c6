import Foundation
import Hummingbird
import OpenAPIRuntime
import PopcornAPI

/// The watch diary in JSON API v1, over the same use cases as the diary pages.
extension APIController {
    func listDiary(_ input: Operations.ListDiary.Input) async throws -> Operations.ListDiary.Output {
        let page = input.query.page ?? 1
        guard (1...100_000).contains(page) else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("page must be between 1 and 100000."))))
        }
        guard let profile = APIScope.session?.existing else { return .unauthorized(APIRefusal.signInResponse) }
        let result = try await actions.diary.page(profile: profile, page: page)
        return .ok(
            .init(
                body: .json(
                    .init(
                        page: result.page, pageSize: DiaryPage.pageSize, total: result.total,
                        items: result.watches.map(Components.Schemas.DiaryEntry.init)))))
    }

    func logWatch(_ input: Operations.LogWatch.Input) async throws -> Operations.LogWatch.Output {
        guard case .json(let body) = input.body else { throw HTTPError(.unsupportedMediaType) }
        guard let session = APIScope.session else { throw APIError.noSession }
        guard let id = Int(exactly: body.titleId), id > 0 else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("titleId must be a positive id."))))
        }
        let kind: MediaKind = body.kind == .show ? .show : .movie
        let rating = body.rating.flatMap(Self.ratingChange)
        let outcome = await actions.logWatch(
            kind: kind, id: id, day: body.date, rating: rating, note: body.note.flatMap { $0.isEmpty ? nil : $0 }, profile: session.profileID
        ) { try await session.profileForWrite() }
        switch outcome {
        case .logged(let watch): return .created(.init(body: .json(.init(watch))))
        case .invalid(let message): return .unprocessableContent(.init(body: .applicationProblemJson(.init(status: 422, detail: message))))
        case .titleNotFound:
            return .notFound(.init(body: .applicationProblemJson(.notFound(LibraryOutcome.titleNotFoundText(kind, id)))))
        case .tooManyNewVisitors(let wait):
            let problem = Components.Schemas.Problem(status: 429, detail: VisitorThrottle.Refused(retryAfter: wait).message)
            return .tooManyRequests(.init(headers: .init(retryAfter: wait), body: .applicationProblemJson(problem)))
        case .storageFailed:
            return .serviceUnavailable(.init(body: .applicationProblemJson(.unavailable(LibraryOutcome.saveFailedText(kind)))))
        }
    }

    func deleteWatch(_ input: Operations.DeleteWatch.Input) async throws -> Operations.DeleteWatch.Output {
        let missing = Components.Schemas.Problem.notFound("That watch is not in your diary.")
        guard let id = UUID(uuidString: input.path.entryId), let profile = APIScope.session?.existing else {
            return .notFound(.init(body: .applicationProblemJson(missing)))
        }
        do {
            return try await actions.diary.delete(profile: profile, id: id)
                ? .noContent(.init()) : .notFound(.init(body: .applicationProblemJson(missing)))
        } catch {
            return .serviceUnavailable(.init(body: .applicationProblemJson(.unavailable(ErrorTexts.saveFailed))))
        }
    }
}

extension Components.Schemas.DiaryEntry {
    init(_ watch: Watch) {
        self.init(
            id: watch.id.uuidString.lowercased(), kind: watch.kind == .show ? .show : .movie, titleId: Int64(watch.itemID) ?? 0,
            title: watch.title, date: watch.day, rating: watch.rating, note: watch.note, rewatch: watch.isRewatch,
            episode: watch.episode.map { .init(id: Int64($0.id), season: $0.season, number: $0.number, name: $0.name) })
    }
}

extension APIController {
    func getStatistics(_ input: Operations.GetStatistics.Input) async throws -> Operations.GetStatistics.Output {
        guard let profile = APIScope.session?.existing else { return .unauthorized(APIRefusal.signInResponse) }
        let year: Int?
        do { year = try ReviewYear.parse(input.query.year.map(String.init)) } catch {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest(error.message))))
        }
        let stats = try await actions.statistics.statistics(profile: profile, year: year)
        func periods(_ list: [WatchStatistics.Period]) -> [Components.Schemas.StatisticsPeriod] {
            list.map { .init(period: $0.key, films: $0.films, shows: $0.shows, episodes: $0.episodes, minutes: $0.minutes) }
        }
        return .ok(
            .init(
                body: .json(
                    .init(
                        year: stats.year, watches: stats.watches, films: stats.films, shows: stats.shows, episodes: stats.episodes,
                        showsFinished: stats.showsFinished, titles: stats.titles,
                        rewatches: stats.rewatches, filmMinutes: stats.filmMinutes, showMinutes: stats.showMinutes, months: periods(stats.months),
                        years: periods(stats.years), ratings: stats.ratings,
                        genres: stats.genres.map { .init(genre: $0.name, watches: $0.watches) },
                        mostRewatched: stats.rewatched.map {
                            .init(kind: $0.kind == .show ? .show : .movie, titleId: Int64($0.itemID) ?? 0, title: $0.title, watches: $0.watches)
                        }, reviewYears: stats.reviewYears))))
    }
}

extension APIController {
    func updateWatch(_ input: Operations.UpdateWatch.Input) async throws -> Operations.UpdateWatch.Output {
        guard case .json(let body) = input.body else { throw HTTPError(.unsupportedMediaType) }
        let missing = Components.Schemas.Problem.notFound("That watch is not in your diary.")
        guard let id = UUID(uuidString: input.path.entryId), let profile = APIScope.session?.existing,
            let watch = try await actions.diary.watch(profile: profile, id: id)
        else { return .notFound(.init(body: .applicationProblemJson(missing))) }
        do {
            let rating = body.rating.map(Self.ratingChange) ?? watch.rating
            let note = body.note ?? watch.note
            guard try await actions.diary.update(profile: profile, id: id, day: body.date ?? watch.day, rating: rating, note: note),
                let saved = try await actions.diary.watches(profile: profile, kind: watch.kind, itemID: watch.itemID).first(where: { $0.id == id })
            else { return .notFound(.init(body: .applicationProblemJson(missing))) }
            return .ok(.init(body: .json(.init(saved))))
        } catch let error as LibraryError {
            if case .storageFailed = error { return .serviceUnavailable(.init(body: .applicationProblemJson(.unavailable(error.message)))) }
            return .unprocessableContent(.init(body: .applicationProblemJson(.init(status: 422, detail: error.message))))
        }
    }
}
