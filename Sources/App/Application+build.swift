import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import OpenAPIHummingbird
import PopcornAPI
import ServiceLifecycle

/// The server as used by `main` and by the tests.
public func buildApplication(services: AppServices, onShutdown: [@Sendable () async -> Void] = []) async throws -> some ApplicationProtocol {
    let router = try await buildRouter(services: services)
    // The deployment's visitor key made (or read) before the first request, not by it; a database
    // that does not answer yet leaves it to the first visit.
    _ = try? await services.visitorIDs.keys.key(DeploymentKeys.visitors)
    // Impressions still queued in memory are written before the database closes.
    let flushImpressions: @Sendable () async -> Void = { await services.offers.tracker.close() }
    return Application(
        router: router, server: .http1(configuration: httpConfiguration),
        configuration: .init(address: .hostname(services.config.host, port: services.config.port), serverName: "PopcornSwirl"),
        // Stopped last first: the import worker ends its batch before the database closes.
        services: (services.config.operations.listensForChanges
            // Its own connection: it may hear changes until the very end.
            ? [ChangeListener(database: services.database, logger: services.logger)] : [])
            + [
                SessionCleanup(
                    sessions: services.sessions, logger: services.logger, interval: TimeInterval(services.config.operations.cleanupIntervalSeconds),
                    owner: services.instance),
                ShutdownHooks(hooks: [flushImpressions] + onShutdown),
            ]
            + (services.config.importWorker
                ? [ImportWorker(imports: services.imports, logger: services.logger), services.integrationWorker] as [any Service] : [])
            + (services.config.catalogWorker ? [services.catalogWorker, services.episodeRefresher] : [])
            + (services.config.notificationWorker ? [services.notifications] : []),
        logger: services.logger
    )
}

/// Runs the server until SIGTERM or SIGINT, then shuts down in order: `/ready` turns 503 and
/// requests are still served for `SHUTDOWN_DRAIN_SECONDS` (`DrainService`); the listener closes and
/// requests in flight finish, within `SHUTDOWN_TIMEOUT_SECONDS` (after which they are cancelled);
/// then queued impressions are written and the database closes. The metrics listener, when
/// configured, stops last.
public func serve(services: AppServices, onShutdown: [@Sendable () async -> Void] = []) async throws {
    let operations = services.config.operations
    var group: [ServiceGroupConfiguration.ServiceConfiguration] = []
    if operations.metricsPort != nil {
        group.append(.init(service: buildMetricsApplication(metrics: services.metrics, operations: operations, logger: services.logger)))
    }
    group.append(.init(service: try await buildApplication(services: services, onShutdown: onShutdown)))
    let drain = Duration.seconds(operations.drainSeconds)
    group.append(.init(service: DrainService(readiness: services.readiness, drain: drain, logger: services.logger)))
    var configuration = ServiceGroupConfiguration(services: group, gracefulShutdownSignals: [.sigterm, .sigint], logger: services.logger)
    configuration.maximumGracefulShutdownDuration = drain + .seconds(operations.shutdownTimeoutSeconds)
    try await ServiceGroup(configuration: configuration).run()
}

/// A connection silent for 30 s is closed (idle keep-alives and half-sent requests alike). Headers
/// are bounded: 16 KiB a field, 32 KiB in all, 100 fields (a browser sends about 1 KiB).
let httpConfiguration = HTTP1Channel.Configuration(
    idleTimeout: .seconds(30),
    httpDecoderConfiguration: .init(maxHeaderFieldSize: 16 * 1024, maxHeaderListSize: 32 * 1024, maxHeaderFieldCount: 100)
)

public func buildRouter(services: AppServices) async throws -> Router<AppRequestContext> {
    let caches = services.caches
    let renderer = try await PageRenderer.load(cards: caches.cards)
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: ObservingMiddleware(metrics: services.metrics))
    router.add(middleware: CompressionMiddleware(staticAnswers: caches.staticAnswers))
    router.add(middleware: SecurityHeadersMiddleware(transport: Transport(config: services.config)))
    // Outside the file server, so a missing file becomes a readable 404 page.
    router.add(middleware: ErrorPageMiddleware(renderer: renderer, logger: services.logger))
    router.add(middleware: RequestLimitsMiddleware())
    router.add(middleware: BodyLimitMiddleware())
    router.add(middleware: TextInputMiddleware())
    if let publicDirectory = Bundle.module.url(forResource: "public", withExtension: nil, subdirectory: "Resources") {
        router.add(
            middleware: FileMiddleware(
                publicDirectory.path, urlBasePath: Route.staticFiles, cacheControl: .init([(MediaType(type: .any), [.maxAge(3600), .public])]),
                logger: services.logger
            ))
    }
    // Probes: before the visitor's session is looked up, so `/health` never touches the database.
    HealthController(readiness: services.readiness).register(on: router)
    // Calendar apps ask for a feed by its private address: no session, no cookie.
    CalendarFeedController(
        calendar: services.calendar, feeds: services.calendarFeeds, answers: services.caches.calendarFeeds,
        changes: services.caches.calendarChanges, publicURL: services.config.publicURL, clock: services.clock
    ).register(on: router)
    // Media servers post their events to a private URL: no session either.
    IntegrationReceiver(integrations: services.integrations, worker: services.integrationWorker, logger: services.logger).register(on: router)
    router.add(middleware: VisitorMiddleware(sessions: services.sessions, visitors: services.visitorIDs))
    let apiRoutes = try APIRoutes.load()
    router.add(middleware: APIMethodMiddleware(routes: apiRoutes))

    // Pages and forms: CSRF-checked. The console is a group inside them whose gate denies by default.
    let idempotency = IdempotencyMiddleware(store: IdempotencyStore(database: services.database, clock: services.clock))
    let pages = router.group().add(middleware: CSRFMiddleware(renderer: renderer)).add(middleware: idempotency)
        .add(middleware: FairShareMiddleware())
    let actions = LibraryActions(services)
    let titlePages = TitlePages(sharedPages: caches.sharedPages, offers: services.offers, renderer: renderer)
    MoviesController(
        catalog: services.catalog, library: services.library, actions: actions, offers: services.offers, titles: services.titles,
        clock: services.clock, renderer: renderer, sharedPages: caches.sharedPages, titlePages: titlePages
    ).register(on: pages)
    LibraryController(
        library: services.library, sessions: services.sessions, actions: actions, offers: services.offers, renderer: renderer
    ).register(on: pages)
    DiaryController(diary: services.diary, sessions: services.sessions, actions: actions, renderer: renderer).register(on: pages)
    StatsController(statistics: actions.statistics, renderer: renderer).register(on: pages)
    ListsController(lists: services.customLists, sessions: services.sessions, actions: actions, renderer: renderer).register(on: pages)
    ExportController(exports: services.exports).register(on: pages)
    ImportController(imports: services.imports, sessions: services.sessions, clock: services.clock, renderer: renderer).register(on: pages)
    PosterController(posters: services.posters).register(on: pages)
    let episodes = EpisodeActions(services)
    ShowsController(
        shows: services.shows, library: services.library, sessions: services.sessions, offers: services.offers,
        titles: services.titles, actions: actions, renderer: renderer, titlePages: titlePages, sharedPages: caches.sharedPages,
        episodes: episodes
    ).register(on: pages)
    EpisodesController(actions: episodes, sessions: services.sessions, renderer: renderer).register(on: pages)
    CalendarController(calendar: services.calendar, renderer: renderer).register(on: pages)
    NotificationsController(
        accounts: services.accounts, targets: services.notificationTargets, worker: services.notifications, renderer: renderer
    ).register(on: pages)
    IntegrationsController(
        accounts: services.accounts, integrations: services.integrations, worker: services.integrationWorker,
        publicURL: services.config.publicURL, renderer: renderer
    ).register(on: pages)
    SearchController(
        search: services.search, library: services.library, clock: services.clock, offers: services.offers,
        logger: services.logger, renderer: renderer
    ).register(on: pages)
    OffersController(offers: services.offers, catalog: services.catalog, shows: services.shows, renderer: renderer).register(on: pages)
    try OfflineController(
        library: services.library, lists: services.customLists, search: services.search, episodes: services.episodes, renderer: renderer,
        config: services.config
    )
    .register(on: pages)
    AccountController(
        accounts: services.accounts, tokens: services.tokens, calendar: services.calendar, calendarFeeds: services.calendarFeeds,
        publicURL: services.config.publicURL, renderer: renderer
    ).register(on: pages)

    let admin = pages.group(RouterPath(AdminRoute.group)).add(middleware: AdminGate(accounts: services.accounts, renderer: renderer))
    let adminOffers = AdminOffersController(
        admin: services.offerAdmin, renderer: renderer, omdb: services.search.omdb, showsDemo: services.offers.showsDemo)
    adminOffers.register(on: admin)
    AdminAdvertisersController(offers: adminOffers).register(on: admin)

    try apiController(services, actions: actions).register(
        on: router, routes: apiRoutes, sessions: services.sessions, tokens: services.tokens, accounts: services.accounts,
        idempotency: idempotency)
    return router
}

extension LibraryActions {
    init(_ services: AppServices) {
        self.init(
            titles: services.titles, library: services.library, diary: services.diary, lists: services.customLists, statistics: services.statistics,
            posters: services.posters, logger: services.logger)
    }
}

/// The JSON API over the same services and use cases as the pages.
func apiController(_ services: AppServices, actions: LibraryActions) -> APIController {
    APIController(
        catalog: services.catalog, shows: services.shows, library: services.library, search: services.search,
        offers: services.offers, offerAdmin: services.offerAdmin, shopOrders: services.shopOrders, actions: actions, titles: services.titles,
        exports: services.exports, episodes: EpisodeActions(services), calendar: services.calendar, calendarFeeds: services.calendarFeeds,
        integrations: services.integrations, accounts: services.accounts,
        sync: services.syncFeed,
        publicURL: services.config.publicURL, clock: services.clock,
        logger: services.logger
    )
}

/// Closes the database and HTTP clients when the server stops.
struct ShutdownHooks: Service {
    let hooks: [@Sendable () async -> Void]

    func run() async throws {
        try? await gracefulShutdown()
        for hook in hooks { await hook() }
    }
}
