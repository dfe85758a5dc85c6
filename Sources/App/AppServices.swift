import Foundation
import Logging

/// Everything the controllers use, built once. Tests build it with fakes for the side effects.
public struct AppServices: Sendable {
    public let config: AppConfig
    public let database: AppDatabase
    public let clock: any AppClock
    public let catalog: MovieCatalog
    public let library: LibraryService
    public let sessions: SessionService
    public let posters: PosterService
    public let logger: Logger

    public init(config: AppConfig, database: AppDatabase, http: any UpstreamHTTP, clock: any AppClock = SystemClock(), logger: Logger) throws {
        self.config = config
        self.database = database
        self.clock = clock
        self.logger = logger
        let upstream = CachedUpstream(
            http: http, store: SQLCacheStore(database: database),
            throttle: HostThrottle(limit: 20, window: 60, clock: clock),
            breaker: HostBreaker(coolDown: 30, clock: clock),
            clock: clock, offline: config.offline, logger: logger
        )
        catalog = MovieCatalog(
            upstream: upstream, baseURL: config.itunesBaseURL, country: config.country,
            offline: try OfflineCatalog.bundled(), clock: clock
        )
        library = LibraryService(database: database, clock: clock)
        sessions = SessionService(database: database, clock: clock)
        posters = PosterService(
            directory: config.posterCacheDirectory, http: http, imageBaseURL: config.imageBaseURL, offline: config.offline,
            breaker: HostBreaker(coolDown: 30, clock: clock), logger: logger
        )
    }

    /// The current year by the injected clock: the Movies screen's default.
    var currentYear: Int { Calendar.utc.component(.year, from: clock.now()) }
}
