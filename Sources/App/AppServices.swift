import Foundation
import Logging
import SQLKit

/// Everything the controllers use, built once. Tests build it with fakes for the side effects.
public struct AppServices: Sendable {
    public let config: AppConfig
    public let database: AppDatabase
    public let clock: any AppClock
    public let catalog: MovieCatalog
    public let shows: ShowCatalog
    /// Every show's episodes and seasons, from TVMaze into the database.
    public let episodeCatalog: EpisodeCatalog
    /// A person's episodes: watches, ratings, Stopped, Up Next.
    public let episodes: EpisodeService
    /// A person's calendar (episodes of tracked shows, favourite films' releases) and its feed.
    public let calendar: CalendarService
    public let calendarFeeds: CalendarFeeds
    /// Where people are told of episodes airing, and the worker telling them.
    public let notificationTargets: NotificationTargets
    public let notifications: NotificationWorker
    /// Media servers' integration URLs and events, and the worker turning events into watches.
    public let integrations: Integrations
    public let integrationWorker: IntegrationWorker
    public let library: LibraryService
    public let diary: DiaryService
    public let customLists: CustomListService
    /// What changed in a person's data, for devices keeping a copy (`GET /api/v1/changes`).
    public let syncFeed: SyncFeed
    public let statistics: StatisticsService
    /// Backups and CSV exports of a person's data.
    public let exports: ExportService
    /// Imports of other trackers' exports.
    public let imports: ImportService
    let titles: TitleLookup
    /// Every film and show received, searchable without an upstream.
    let titleIndex: TitleIndex
    /// Release years kept warm and details of titles saved by id, in the background.
    let catalogWorker: CatalogWorker
    /// Held episode lists asked of TVMaze again when TVMaze says their show changed.
    let episodeRefresher: EpisodeRefresher
    public let sessions: SessionService
    public let accounts: AccountService
    public let posters: PosterService
    public let search: SearchService
    public let offers: OfferService
    public let offerAdmin: OfferAdmin
    /// Orders the partner shops report back (`/api/v1/shops/{id}/orders`).
    let shopOrders: ShopOrders
    public let tokens: APITokenService
    public let logger: Logger
    /// What `/metrics` shows (`AppMetrics`), and whether this server takes requests (`/ready`).
    public let metrics: AppMetrics
    public let readiness: Readiness
    /// This server among those sharing the database (the owner of the leases it takes).
    public let instance: String
    /// The signed visitor ids partner offers are counted for.
    let visitorIDs: VisitorIDs
    /// Every in-memory cache of this server.
    let caches: Caches

    public init(
        config: AppConfig, database: AppDatabase, http: any UpstreamHTTP, clock: any AppClock = SystemClock(), logger: Logger,
        sleep: @escaping @Sendable (TimeInterval) async -> Void = { try? await Task.sleep(for: .seconds($0)) }
    ) throws {
        self.config = config
        self.database = database
        self.clock = clock
        // Whatever handler the caller set up, secrets are redacted from every line (OMDb's key is in its URLs).
        var logger = logger
        logger.handler = RedactingLogHandler(logger.handler)
        self.logger = logger
        let metrics = AppMetrics()
        self.metrics = metrics
        let caches = Caches(metrics: metrics, changes: database.changes)
        self.caches = caches
        instance = "server-" + RequestTrace.newID().prefix(12)
        readiness = Readiness(database: database, server: instance, timeout: .milliseconds(config.operations.readinessProbeMilliseconds))
        database.changes.isSending = config.operations.listensForChanges
        let maxWait = Duration.milliseconds(config.operations.upstreamWaitMilliseconds)
        // Several servers share a PostgreSQL database: one upstream call per key among them, and
        // the upstreams' limits counted for all of them. SQLite is one server: its own memory does.
        let leases = database.isPostgres ? Leases(database: database, clock: clock, owner: instance) : nil
        // Every answer kept is indexed as it is written: the title index holds every title received.
        let titleIndex = TitleIndex(database: database, clock: clock, logger: logger)
        self.titleIndex = titleIndex
        let store = TitleIndexingStore(base: SQLCacheStore(database: database), index: titleIndex)
        let requests = CatalogRequests(database: database, clock: clock, logger: logger)
        // iTunes: about 20 calls a minute, shared by the year lists, lookups and title searches.
        let itunesBreaker = HostBreaker(coolDown: 30, clock: clock)
        let upstream = CachedUpstream(
            http: http, store: store,
            throttle: .forUpstream(.itunes, database: database, clock: clock),
            breaker: itunesBreaker,
            clock: clock, offline: config.offline, logger: logger, share: .itunes(config.shares, database: database, clock: clock),
            maxWait: maxWait, metrics: metrics, leases: leases
        )
        let offlineCatalog = try OfflineCatalog.bundled()
        catalog = MovieCatalog(
            upstream: upstream, baseURL: config.itunesBaseURL, country: config.country,
            offline: offlineCatalog, clock: clock, requests: requests, decoded: caches.yearLists
        )
        // TVMaze allows at least 20 calls per 10 s; on 429 it wants ~2 s of quiet, then one retry.
        let tvmaze = CachedUpstream(
            http: http, store: store,
            throttle: .forUpstream(.tvmaze, database: database, clock: clock),
            breaker: HostBreaker(coolDown: 30, clock: clock),
            clock: clock, offline: config.offline, logger: logger, rateLimitRetryDelay: 2,
            share: .tvmaze(config.shares, database: database, clock: clock), sleep: sleep, maxWait: maxWait, metrics: metrics, leases: leases
        )
        let offlineShows = try OfflineShows.bundled()
        shows = ShowCatalog(upstream: tvmaze, baseURL: config.tvmazeBaseURL, offline: offlineShows)
        episodeCatalog = EpisodeCatalog(
            upstream: tvmaze, baseURL: config.tvmazeBaseURL, offline: try OfflineEpisodes.bundled(shows: offlineShows), database: database,
            clock: clock, logger: logger)
        episodes = EpisodeService(database: database, clock: clock, lists: caches.episodeLists)
        calendar = CalendarService(database: database, clock: clock)
        calendarFeeds = CalendarFeeds(database: database, clock: clock)
        notificationTargets = NotificationTargets(database: database, clock: clock, allowPrivate: config.notifyAllowPrivate)
        let publicURL = config.publicURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        notifications = NotificationWorker(
            database: database, calendar: calendar, poster: GuardedPoster(allowPrivate: config.notifyAllowPrivate), clock: clock, logger: logger,
            episodeLink: { id in publicURL.map { $0 + Route.episode.link(id) } }, owner: instance)
        // OMDb's free key: 1,000 calls a day, counted in the database.
        let omdbUpstream = CachedUpstream(
            http: http, store: store,
            throttle: .forUpstream(.omdb, database: database, clock: clock),
            breaker: HostBreaker(coolDown: 30, clock: clock),
            clock: clock, offline: config.offline, logger: logger, share: .omdb(config.shares, database: database, clock: clock),
            maxWait: maxWait, metrics: metrics, leases: leases
        )
        let omdb = OMDbClient(
            upstream: omdbUpstream, store: store, apiKey: config.omdbAPIKey, baseURL: config.omdbBaseURL,
            budget: DailyCallCounter(database: database, api: "omdb", limit: OMDbClient.dailyLimit, clock: clock)
        )
        library = LibraryService(database: database, clock: clock)
        search = SearchService(
            upstream: upstream, catalog: catalog, baseURL: config.itunesBaseURL, country: config.country, offline: offlineCatalog, shows: shows,
            omdb: omdb, lastSearches: LastSearchStore(database: database), history: SearchHistoryStore(database: database),
            connectivity: Connectivity(
                http: http, probeURL: URL(string: config.itunesBaseURL)!, offlineMode: config.offline, breaker: itunesBreaker, clock: clock
            ),
            clock: clock, index: titleIndex
        )
        visitorIDs = VisitorIDs(keys: DeploymentKeys(database: database, clock: clock))
        let offerStore = OfferStore(database: database, clock: clock, copies: caches.offers)
        let tracker = OfferTracker(database: database, clock: clock, logger: logger, caps: config.operations.offerCaps)
        offers = OfferService(
            store: offerStore, rankings: caches.rankings, tracker: tracker, clock: clock, logger: logger, referringStore: config.referringStore,
            showsDemo: config.demoOffers)
        offerAdmin = OfferAdmin(store: offerStore, tracker: tracker, clock: clock, referringStore: config.referringStore)
        shopOrders = ShopOrders(database: database, clock: clock, secrets: offers.secrets, store: config.referringStore)
        diary = DiaryService(database: database, clock: clock)
        customLists = CustomListService(database: database, clock: clock)
        syncFeed = SyncFeed(database: database, diary: diary, lists: customLists)
        statistics = StatisticsService(database: database, clock: clock)
        exports = ExportService(database: database, clock: clock)
        let kept = KeptFilms(store: store, clock: clock)
        titles = TitleLookup(catalog: catalog, shows: shows, library: library, kept: kept, index: titleIndex)
        catalogWorker = CatalogWorker(
            catalog: catalog, shows: shows, index: titleIndex, library: library, leases: Leases(database: database, clock: clock, owner: instance),
            clock: clock, logger: logger)
        episodeRefresher = EpisodeRefresher(
            catalog: episodeCatalog, leases: Leases(database: database, clock: clock, owner: instance), logger: logger)
        let importStore = ImportStore(database: database, clock: clock)
        let matcher = TitleMatcher(search: search, shows: shows, omdb: omdb, kept: kept, database: database, clock: clock)
        integrations = Integrations(database: database, clock: clock)
        integrationWorker = IntegrationWorker(
            integrations: integrations, database: database, matcher: matcher, titles: titles, shows: shows, episodeCatalog: episodeCatalog,
            episodes: episodes, library: library, diary: diary, calendar: calendar, metrics: metrics, clock: clock, logger: logger)
        imports = ImportService(
            store: importStore, matcher: matcher,
            landing: ImportLanding(
                library: library, diary: diary, lists: customLists, episodes: episodes, episodeCatalog: episodeCatalog, store: importStore),
            titles: titles,
            restore: BackupRestore(database: database, history: SearchHistoryStore(database: database)),
            uploads: UploadThrottle(database: database, clock: clock), logger: logger)
        sessions = SessionService(
            database: database, clock: clock, known: caches.sessions, idleTimeout: config.sessionIdleDays * 86_400,
            newVisitorsPerHour: config.newVisitorsPerHour
        )
        tokens = APITokenService(database: database, clock: clock)
        accounts = AccountService(database: database, sessions: sessions, library: library, tokens: tokens, clock: clock)
        posters = PosterService(
            directory: config.posterCacheDirectory, http: http, imageBaseURL: config.imageBaseURL, offline: config.offline,
            breaker: HostBreaker(coolDown: 30, clock: clock), logger: logger
        )
        collectGauges()
    }

    /// `popcornswirl create-token`: a personal API token for the named account.
    public func createToken(username: String, name: String) async throws -> String {
        guard let profile = try await accounts.profile(username: username) else {
            throw AccountService.Failure.invalid(["username": "There is no account named “\(username)”."])
        }
        return try await tokens.create(profile: profile, name: name).token
    }

    /// `popcornswirl export`: an account's data as the backup (`letterboxd`: false) or the Letterboxd CSV.
    public func export(username: String, letterboxd: Bool) async throws -> Data {
        guard let profile = try await accounts.profile(username: username) else {
            throw AccountService.Failure.invalid(["username": "There is no account named “\(username)”."])
        }
        let backup = try await exports.backup(profile: profile)
        return letterboxd ? Data(ExportFormats.letterboxdCSV(backup).utf8) : try Backup.encoder.encode(backup)
    }

    /// `popcornswirl import`: reads the files (one export) into a new import for the named account and works
    /// on it here until every row is dealt with; `progress` is told after each batch.
    public func importFile(
        username: String, files: [(name: String, data: Data)], progress: @Sendable (ImportJob) -> Void
    ) async throws -> ImportJob {
        guard let profile = try await accounts.profile(username: username) else {
            throw AccountService.Failure.invalid(["username": "There is no account named “\(username)”."])
        }
        guard case .started(let job) = try await imports.start(profile: profile, files: files) else {
            throw ImportRefused(message: "\(username) has an import under way: wait for it to finish, or cancel it on the import page.")
        }
        return try await imports.drain(job: job.id, owner: "cli-\(UUID().uuidString.prefix(8))", progress: progress)
    }

    /// The current year by the injected clock: the Movies screen's default.
    var currentYear: Int { clock.currentYear }
}

extension AppServices {
    /// The gauges read at each scrape: queues in memory, import jobs, and database connections.
    func collectGauges() {
        let (metrics, database, tracker, logger) = (metrics, database, offers.tracker, logger)
        let impressions = metrics.gauge("offer_impressions_queued")
        let clicks = metrics.gauge("offer_clicks_queued")
        let writes = metrics.gauge("db_write_transactions")
        let failedWrites = metrics.gauge("db_write_failures")
        let maxConnections = metrics.gauge("db_pool_connections_max")
        let maxCount = database.maxConnections
        metrics.collect {
            let queued = tracker.queueLengths
            impressions.record(queued.impressions)
            clicks.record(queued.clicks)
            writes.record(database.writesInFlight.load(ordering: .relaxed))
            failedWrites.record(database.writeFailures.load(ordering: .relaxed))
            maxConnections.record(maxCount)
        }
        // Every state is recorded each time, so one that empties reads 0 rather than its last count.
        let jobStates = ["loading", "queued", "running"]
        let jobs = Dictionary(uniqueKeysWithValues: jobStates.map { ($0, metrics.gauge("import_jobs", [("state", $0)])) })
        let pendingRows = metrics.gauge("import_rows_pending")
        // PostgreSQL only: SQLite's connections are opened once and never leave the process.
        let connectionStates = database.isPostgres ? ["active", "idle", "idle in transaction"] : []
        let connections = Dictionary(
            uniqueKeysWithValues: connectionStates.map { ($0, metrics.gauge("db_pool_connections", [("state", $0)])) })
        metrics.collect {
            do {
                let rows = try await database.sql.raw(
                    """
                    SELECT state, COUNT(*) AS jobs, COALESCE(SUM(pending_rows), 0) AS pending FROM import_jobs
                    WHERE state IN ('loading', 'queued', 'running') GROUP BY state
                    """
                ).all()
                var counts: [String: Int] = [:]
                var pending = 0
                for row in rows {
                    counts[try row.decode(column: "state", as: String.self)] = try row.decode(column: "jobs", as: Int.self)
                    pending += try row.decode(column: "pending", as: Int.self)
                }
                for (state, gauge) in jobs { gauge.record(counts[state] ?? 0) }
                pendingRows.record(pending)
                let open = try await database.connectionStates()
                for (state, gauge) in connections { gauge.record(open[state] ?? 0) }
            } catch {
                logger.warning("metrics: a gauge could not be read", metadata: ["error": "\(error)"])
            }
        }
    }
}
