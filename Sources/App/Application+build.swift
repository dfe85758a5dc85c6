import Foundation
import Hummingbird
import Logging
import OpenAPIHummingbird
import PopcornAPI
import ServiceLifecycle

/// The server as used by `main` and by the tests.
public func buildApplication(services: AppServices, onShutdown: [@Sendable () async -> Void] = []) async throws -> some ApplicationProtocol {
    let router = try await buildRouter(services: services)
    // Impressions still queued in memory are written before the database closes.
    let flushImpressions: @Sendable () async -> Void = { await services.offers.tracker.close() }
    return Application(
        router: router,
        configuration: .init(address: .hostname(services.config.host, port: services.config.port), serverName: "PopcornSwirl"),
        services: [ShutdownHooks(hooks: [flushImpressions] + onShutdown)],
        logger: services.logger
    )
}

public func buildRouter(services: AppServices) async throws -> Router<AppRequestContext> {
    let renderer = try await PageRenderer.load()
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: SecurityHeadersMiddleware(transport: Transport(config: services.config)))
    // Outside the file server, so a missing file becomes a readable 404 page.
    router.add(middleware: ErrorPageMiddleware(renderer: renderer, logger: services.logger))
    router.add(middleware: RequestLimitsMiddleware())
    if let publicDirectory = Bundle.module.url(forResource: "public", withExtension: nil, subdirectory: "Resources") {
        router.add(middleware: FileMiddleware(
            publicDirectory.path, urlBasePath: "/static", cacheControl: .init([(MediaType(type: .any), [.maxAge(3600), .public])]),
            logger: services.logger
        ))
    }
    router.add(middleware: VisitorMiddleware(sessions: services.sessions))
    router.add(middleware: CSRFMiddleware(renderer: renderer))
    router.get("/healthz") { _, _ in "ok" }

    let movies = MoviesController(services: services, renderer: renderer, sharedPages: RenderedPageCache())
    movies.register(on: router)
    let personalPages = PersonalPageCache(clock: services.clock)
    LibraryController(services: services, renderer: renderer, movies: movies, pages: personalPages).register(on: router)
    PosterController(posters: services.posters).register(on: router)
    let shows = ShowsController(services: services, renderer: renderer)
    shows.register(on: router)
    SearchController(services: services, renderer: renderer).register(on: router)
    OffersController(services: services, renderer: renderer).register(on: router)
    AccountController(services: services, renderer: renderer).register(on: router)
    let gate = AdminGate(accounts: services.accounts, renderer: renderer)
    gate.register(on: router)
    let adminOffers = AdminOffersController(services: services, renderer: renderer, gate: gate)
    adminOffers.register(on: router)
    AdminAdvertisersController(offers: adminOffers).register(on: router)
    try APIController(services: services, movies: movies, shows: shows).register(on: router)
    return router
}

/// Closes the database and HTTP clients when the server stops.
struct ShutdownHooks: Service {
    let hooks: [@Sendable () async -> Void]

    func run() async throws {
        try? await gracefulShutdown()
        for hook in hooks { await hook() }
    }
}
