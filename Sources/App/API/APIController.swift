import Foundation
import Hummingbird
import Logging
import OpenAPIHummingbird
import OpenAPIRuntime
import PopcornAPI

/// JSON API v1: the generated `APIProtocol` implemented over the same services as the pages.
struct APIController: APIProtocol {
    let catalog: MovieCatalog
    let shows: ShowCatalog
    let library: LibraryService
    let search: SearchService
    let offers: OfferService
    let offerAdmin: OfferAdmin
    let shopOrders: ShopOrders
    let actions: LibraryActions
    let titles: TitleLookup
    let exports: ExportService
    let episodes: EpisodeActions
    let calendar: CalendarService
    let calendarFeeds: CalendarFeeds
    let integrations: Integrations
    let accounts: AccountService
    /// What changed in a person's data, for devices keeping a copy.
    let sync: SyncFeed
    /// `PUBLIC_URL`, when set: the site's address in links the API gives (`SiteAddress`).
    let publicURL: String?
    let clock: any AppClock
    let logger: Logger

    /// The API's routes, each in its group: every answer goes through `APIProblemMiddleware`,
    /// operations through `APISessionMiddleware`, the admin ones through its admin-only instance.
    func register(
        on router: Router<AppRequestContext>, routes: APIRoutes, sessions: SessionService, tokens: APITokenService, accounts: AccountService,
        idempotency: IdempotencyMiddleware
    ) throws {
        let api = router.group().add(middleware: APIProblemMiddleware(logger: logger))
        let fairShare = FairShareMiddleware(tokenAccount: { APIScope.session?.existing })
        let members = api.group().add(
            middleware: APISessionMiddleware(sessions: sessions, tokens: tokens, accounts: accounts, adminOnly: false, publicURL: publicURL)
        )
        .add(middleware: idempotency).add(middleware: fairShare)
        let admins = api.group().add(
            middleware: APISessionMiddleware(sessions: sessions, tokens: tokens, accounts: accounts, adminOnly: true, publicURL: publicURL)
        )
        .add(middleware: idempotency).add(middleware: fairShare)
        members.on(APIRoute.document) { _, _ in
            guard let url = APISpec.documentURL, let data = try? Data(contentsOf: url) else { throw HTTPError(.notFound) }
            var headers = HTTPFields()
            headers[.contentType] = "application/yaml; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: data)))
        }
        for method: HTTPRequest.Method in [.get, .head, .post, .put, .delete, .patch, .options] {
            members.on(RouterPath(APIRoute.unknown.pattern), method: method) { _, _ -> Response in throw HTTPError(.notFound) }
        }
        try registerHandlers(
            on: APITransport(members: members, admins: admins, routes: routes), configuration: Configuration(dateTranscoder: APIDates()))
    }

    func listMovies(_ input: Operations.ListMovies.Input) async throws -> Operations.ListMovies.Output {
        let current = clock.currentYear
        let year = input.query.year ?? current
        guard (MovieCatalog.firstYear...MovieCatalog.lastAPIYear).contains(year) else {
            return .badRequest(
                .init(body: .applicationProblemJson(.badRequest("year must be between \(MovieCatalog.firstYear) and \(MovieCatalog.lastAPIYear)."))))
        }
        // Too far ahead for anything to be announced: no need to ask iTunes.
        guard year <= MovieCatalog.latestYear(current: current) else {
            return .ok(.init(body: .json(.init(year: year, source: .init(.live(fetchedAt: clock.now())), movies: []))))
        }
        let list = await catalog.movies(year: year)
        return .ok(.init(body: .json(.init(year: year, source: .init(list.source), movies: list.movies.map(Components.Schemas.Movie.init)))))
    }

    func getMovie(_ input: Operations.GetMovie.Input) async throws -> Operations.GetMovie.Output {
        guard let id = Int(exactly: input.path.id), id > 0 else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("id must be a positive iTunes track id."))))
        }
        let profile = APIScope.session?.profileID
        switch await titles.movie(id, profile: profile) {
        case .found(let movie, let source):
            let saved = try? await library.item(profile: profile, movieID: id)
            let state = saved.map { Components.Schemas.LibraryState(favorite: $0.favorite, watched: $0.watched, note: $0.note) }
            return .ok(.init(body: .json(.init(movie: .init(movie), source: .init(source), library: state))))
        case .notFound:
            return .notFound(.init(body: .applicationProblemJson(.notFound("No film with id \(id) on iTunes."))))
        case .unavailable:
            return .serviceUnavailable(.init(body: .applicationProblemJson(.unavailable(ErrorTexts.fetchFailed))))
        }
    }

    func listLibrary(_ input: Operations.ListLibrary.Input) async throws -> Operations.ListLibrary.Output {
        let list = LibraryList(rawValue: input.query.list?.rawValue ?? "all") ?? .all
        let kind = input.query.kind.flatMap { MediaKind(rawValue: $0.rawValue) }
        let page = input.query.page ?? 1
        guard (1...100_000).contains(page) else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("page must be between 1 and 100000."))))
        }
        guard let profile = APIScope.session?.existing else {
            return .unauthorized(APIRefusal.signInResponse)
        }
        let filter: LibraryFilter
        do {
            filter = try LibraryFilter.checked(
                kind: kind, sort: input.query.sort.flatMap { LibrarySort(rawValue: $0.rawValue) } ?? .changed, genre: input.query.genre,
                year: input.query.year, rated: input.query.rated, text: input.query.q)
        } catch {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest(error.message))))
        }
        let result = try await library.list(profile: profile, list: list, page: page, filter: filter)
        return .ok(
            .init(
                body: .json(
                    .init(
                        list: .init(rawValue: list.rawValue)!, page: result.page, pageSize: LibraryPage.pageSize, total: result.total,
                        items: result.items.map(Components.Schemas.LibraryEntry.init)
                    ))))
    }

    func putLibraryMovie(_ input: Operations.PutLibraryMovie.Input) async throws -> Operations.PutLibraryMovie.Output {
        guard let id = Int(exactly: input.path.id), id > 0 else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("id must be a positive iTunes track id."))))
        }
        guard case .json(let body) = input.body else { throw HTTPError(.unsupportedMediaType) }
        guard let session = APIScope.session else { throw APIError.noSession }
        let change = LibraryChange(
            favorite: body.favorite, watched: body.watched, note: body.note.map { .some($0) }, rating: body.rating.map(Self.ratingChange),
            madeAt: input.headers.changeMadeAt)
        let outcome = await actions.saveMovie(id, change: change, profile: session.profileID) { try await session.profileForWrite() }
        let problem = outcome.problem(.movie, id).map { Components.Schemas.Problem(status: $0.status.code, detail: $0.detail) }
        switch (outcome, problem) {
        case (.saved(let item?, _), _): return .ok(.init(body: .json(.init(item))))
        case (.superseded(let detail), _): return .conflict(.init(body: .applicationProblemJson(.superseded(detail))))
        case (.titleNotFound, let problem?): return .notFound(.init(body: .applicationProblemJson(problem)))
        case (.invalidNote, let problem?), (.invalidRating, let problem?):
            return .unprocessableContent(.init(body: .applicationProblemJson(problem)))
        case (.tooManyNewVisitors(let wait), let problem?):
            return .tooManyRequests(.init(headers: .init(retryAfter: wait), body: .applicationProblemJson(problem)))
        case (_, let problem?): return .serviceUnavailable(.init(body: .applicationProblemJson(problem)))
        default: return .noContent(.init())
        }
    }

    func deleteLibraryMovie(_ input: Operations.DeleteLibraryMovie.Input) async throws -> Operations.DeleteLibraryMovie.Output {
        guard let id = Int(exactly: input.path.id), id > 0 else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("id must be a positive iTunes track id."))))
        }
        let outcome = await actions.remove(id, kind: .movie, profile: APIScope.session?.profileID, madeAt: input.headers.changeMadeAt)
        switch (outcome, outcome.problem(.movie, id)) {
        case (.superseded(let detail), _): return .conflict(.init(body: .applicationProblemJson(.superseded(detail))))
        case (.notInLists, let problem?): return .notFound(.init(body: .applicationProblemJson(.init(status: 404, detail: problem.detail))))
        case (_, let problem?): return .serviceUnavailable(.init(body: .applicationProblemJson(.init(status: 503, detail: problem.detail))))
        case (_, nil): return .noContent(.init())
        }
    }
}

extension Components.Schemas.Problem {
    init(status: Int, detail: String) {
        self.init(Self.statuses[status] ?? HTTPResponse.Status(code: status), detail)
    }

    /// `HTTPResponse.Status(code:)` has no reason phrase; the named statuses do (they title problems).
    static let statuses: [Int: HTTPResponse.Status] = Dictionary(
        uniqueKeysWithValues: [
            HTTPResponse.Status.badRequest, .unauthorized, .forbidden, .notFound, .conflict, .unprocessableContent,
            .tooManyRequests, .internalServerError, .serviceUnavailable,
        ].map { ($0.code, $0) })

    static func badRequest(_ detail: String) -> Self { .init(status: 400, detail: detail) }
    static func notFound(_ detail: String) -> Self { .init(status: 404, detail: detail) }

    /// A change made offline that a newer one beat (`Change-Made-At`): its own type, so a client
    /// tells it from the 409 of an `Idempotency-Key` still being answered.
    static func superseded(_ detail: String) -> Self {
        var problem = Self(status: 409, detail: detail)
        problem._type = supersededType
        return problem
    }

    static let supersededType = "tag:popcornswirl.app,2026:superseded"
    static func unavailable(_ detail: String) -> Self { .init(status: 503, detail: detail) }
}

extension Components.Schemas.Source {
    init(_ source: CatalogSource) {
        switch source {
        case .live(let fetchedAt): self.init(kind: .live, fetchedAt: fetchedAt)
        case .stale(let savedOn): self.init(kind: .stale, fetchedAt: savedOn)
        case .offlineCatalogue: self.init(kind: .offlineCatalogue)
        case .kept: self.init(kind: .kept)
        case .local: self.init(kind: .local)
        case .saved(let on): self.init(kind: .saved, fetchedAt: on)
        }
    }
}

extension Components.Schemas.Movie {
    init(_ movie: App.Movie) {
        self.init(
            id: Int64(movie.id), title: movie.title, year: movie.year, director: movie.director, genre: movie.genre,
            releaseDate: movie.releaseDate, synopsis: movie.synopsis, contentRating: movie.contentRating,
            runtimeMinutes: movie.runtimeMinutes, price: movie.price, currency: movie.currency, storeUrl: movie.storeURL,
            previewUrl: movie.previewURL, posterUrl: Route.posterImage(source: movie.artworkURL, seed: movie.id, title: movie.title)
        )
    }
}

extension Components.Schemas.LibraryEntry {
    init(_ item: LibraryItem) {
        let id = Int64(item.itemID) ?? 0
        self.init(
            kind: item.kind == .show ? .show : .movie, id: id, title: item.title, genre: item.genre, year: item.year, releaseDate: item.releaseDate,
            posterUrl: Route.posterImage(source: item.artworkURL, seed: Int(id), title: item.title), favorite: item.favorite,
            watched: item.watched, note: item.note, rating: item.rating, updatedAt: item.updatedAt,
            titleState: item.titleState.map { $0 == .pending ? .pending : .unknown }
        )
    }
}

extension APIController {
    /// The API's rating field: 0 clears the rating, 1–10 sets it (anything else is refused by the service).
    static func ratingChange(_ value: Int) -> Int? { value == 0 ? nil : value }
}

/// Exports in JSON API v1: the same backup and CSV files as the pages' downloads.
extension APIController {
    func exportBackup(_ input: Operations.ExportBackup.Input) async throws -> Operations.ExportBackup.Output {
        guard let profile = APIScope.session?.existing else { return .unauthorized(APIRefusal.signInResponse) }
        let backup = try await exports.backup(profile: profile)
        // The document is defined once, by `Backup`; the generated type reads the same JSON.
        let body = try JSONDecoder().decode(Components.Schemas.Backup.self, from: try Backup.encoder.encode(backup))
        return .ok(.init(body: .json(body)))
    }

    func exportLetterboxd(_ input: Operations.ExportLetterboxd.Input) async throws -> Operations.ExportLetterboxd.Output {
        guard let profile = APIScope.session?.existing else { return .unauthorized(APIRefusal.signInResponse) }
        let backup = try await exports.backup(profile: profile)
        return .ok(.init(body: .csv(HTTPBody(ExportFormats.letterboxdCSV(backup)))))
    }

    func exportCustomList(_ input: Operations.ExportCustomList.Input) async throws -> Operations.ExportCustomList.Output {
        guard let profile = APIScope.session?.existing else { return .unauthorized(APIRefusal.signInResponse) }
        guard let id = UUID(uuidString: input.path.listId), let list = try await exports.listCSV(profile: profile, id: id) else {
            return .notFound(Self.listNotFound)
        }
        return .ok(.init(body: .csv(HTTPBody(list.csv))))
    }
}
