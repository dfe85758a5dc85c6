import Foundation

/// Every setting of the server, typed and read once from the environment.
public struct AppConfig: Sendable {
    public enum Storage: Sendable, Equatable {
        case sqlite(path: String)
        case postgres(url: String)
    }

    public var host: String = "127.0.0.1"
    public var port: Int = 8080
    public var storage: Storage = .sqlite(path: "./popcornswirl.sqlite")
    public var itunesBaseURL: String = "https://itunes.apple.com"
    public var tvmazeBaseURL: String = "https://api.tvmaze.com"
    /// OMDb enriches search results when a key is set (`OMDB_API_KEY`); without one, iTunes alone answers.
    public var omdbAPIKey: String?
    public var omdbBaseURL: String = "https://www.omdbapi.com"
    public var posterCacheDirectory: String = "./poster-cache"
    /// When set, allow-listed image URLs are fetched from `imageBaseURL/<host>/<path>` (the stub upstream in tests).
    public var imageBaseURL: String?
    /// `POPCORN_OFFLINE=1`: never call upstream; serve the cache and the bundled catalogue.
    public var offline: Bool = false
    /// `IMPORT_WORKER=0`: this server works on no import and sweeps no media-server event
    /// (another server sharing the database does); uploads and events are still taken, and an
    /// event received is still started at once.
    public var importWorker = true
    /// `CATALOG_WORKER=0`: this server leaves the catalogue's background work (release years kept
    /// warm, details of titles saved by id) to the others sharing the database (`CatalogWorker`).
    public var catalogWorker = true
    /// `NOTIFICATION_WORKER=0`: this server sends no notifications (the others sharing the
    /// database do; each notice is claimed by one).
    public var notificationWorker = true
    /// `NOTIFY_ALLOW_PRIVATE=1`: notification targets may be on private, loopback or link-local
    /// addresses and plain http (a home server's ntfy). Off: https to public addresses only.
    public var notifyAllowPrivate = false
    /// `OFFLINE_POSTERS` / `OFFLINE_POSTER_MB`: the cap on posters each browser keeps for offline
    /// use (count, and MiB); the least recently used go first.
    public var offlinePosters = 400
    public var offlinePosterMB = 40
    /// Storefront used for iTunes requests and passed on to partner shops.
    public var country: String = "US"
    /// `PUBLIC_URL`: the address people use. An `https://` one makes every request count as HTTPS
    /// (TLS ends in front of the app): Secure, `__Host-` cookies and HSTS.
    public var publicURL: String?
    /// `TRUSTED_PROXIES`: addresses (comma-separated) whose `X-Forwarded-Proto: https` is believed.
    public var trustedProxies: [String] = []
    /// `SESSION_IDLE_DAYS`: a session unused this long ends (30 by default).
    public var sessionIdleDays: Double = 30
    /// Each client's fair share of the upstreams' allowances (`SHARE_ITUNES_PER_MINUTE`,
    /// `SHARE_TVMAZE_PER_MINUTE`, `SHARE_OMDB_PER_DAY`; 0 = no per-client limit for that upstream).
    public var shares = ClientShare.Limits()
    /// `NEW_VISITORS_PER_HOUR`: visitor profiles a client address may start with writes in an hour
    /// (30 by default; 0 = no limit).
    public var newVisitorsPerHour = 30
    /// Who the shops' orders are made for (`STORE_ID`, `STORE_NAME`, `STORE_COUNTRY`, `STORE_CURRENCY`):
    /// pushed with every click-through and shown in the console.
    public var referringStore = ReferringStore()
    /// `DEMO_OFFERS=1`: visitors see the fictional shops and offers a fresh install is seeded with
    /// (`demo`, landing on `.example` addresses that never load). Off by default: only shops an
    /// administrator added are shown; the console shows the demo ones either way.
    public var demoOffers = false
    /// Metrics, logs, shutdown and the longest wait on an upstream (`OperationsConfig`).
    public var operations = OperationsConfig()

    public init() {}

    public enum ConfigError: Error, CustomStringConvertible {
        case invalid(name: String, value: String, reason: String)
        public var description: String {
            switch self {
            case .invalid(let name, let value, let reason): "\(name)=\(value): \(reason)"
            }
        }
    }

    /// Reads the documented variables (see README); unset ones keep their defaults.
    public static func fromEnvironment(_ env: [String: String] = ProcessInfo.processInfo.environment) throws -> AppConfig {
        var config = AppConfig()
        func value(_ name: String) -> String? {
            guard let raw = env[name]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
            return raw
        }
        if let host = value("HOST") { config.host = host }
        if let port = value("PORT") {
            guard let number = Int(port), (0...65535).contains(number) else {
                throw ConfigError.invalid(name: "PORT", value: port, reason: "expected a port number 0-65535")
            }
            config.port = number
        }
        if let path = value("SQLITE_PATH") { config.storage = .sqlite(path: path) }
        if let url = value("DATABASE_URL") {
            guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
                throw ConfigError.invalid(name: "DATABASE_URL", value: "…", reason: "expected postgres://user:password@host:port/database")
            }
            config.storage = .postgres(url: url)
        }
        if let url = value("ITUNES_BASE_URL") { config.itunesBaseURL = try validatedBaseURL(url, name: "ITUNES_BASE_URL") }
        if let url = value("TVMAZE_BASE_URL") { config.tvmazeBaseURL = try validatedBaseURL(url, name: "TVMAZE_BASE_URL") }
        if let key = value("OMDB_API_KEY") {
            guard key.count <= 64, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                throw ConfigError.invalid(name: "OMDB_API_KEY", value: "…", reason: "expected the key OMDb e-mailed (letters and digits)")
            }
            config.omdbAPIKey = key
        }
        if let url = value("OMDB_BASE_URL") { config.omdbBaseURL = try validatedBaseURL(url, name: "OMDB_BASE_URL") }
        if let dir = value("POSTER_CACHE_DIR") { config.posterCacheDirectory = dir }
        if let url = value("IMAGE_BASE_URL") { config.imageBaseURL = try validatedBaseURL(url, name: "IMAGE_BASE_URL") }
        if let flag = value("POPCORN_OFFLINE") { config.offline = ["1", "true", "yes"].contains(flag.lowercased()) }
        if let flag = value("IMPORT_WORKER") { config.importWorker = !["0", "false", "no"].contains(flag.lowercased()) }
        if let flag = value("CATALOG_WORKER") { config.catalogWorker = !["0", "false", "no"].contains(flag.lowercased()) }
        if let flag = value("NOTIFICATION_WORKER") { config.notificationWorker = !["0", "false", "no"].contains(flag.lowercased()) }
        if let flag = value("NOTIFY_ALLOW_PRIVATE") { config.notifyAllowPrivate = ["1", "true", "yes"].contains(flag.lowercased()) }
        for (name, range, keyPath) in [("OFFLINE_POSTERS", 1...5000, \AppConfig.offlinePosters), ("OFFLINE_POSTER_MB", 1...1000, \.offlinePosterMB)] {
            guard let raw = value(name) else { continue }
            guard let number = Int(raw), range.contains(number) else {
                throw ConfigError.invalid(name: name, value: raw, reason: "expected a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            config[keyPath: keyPath] = number
        }
        if let country = value("POPCORN_COUNTRY") {
            guard country.count == 2, country.allSatisfy(\.isLetter) else {
                throw ConfigError.invalid(name: "POPCORN_COUNTRY", value: country, reason: "expected a two-letter store code")
            }
            config.country = country.uppercased()
            config.referringStore.country = config.country
        }
        try config.referringStore.read(value)
        if let flag = value("DEMO_OFFERS") {
            switch flag.lowercased() {
            case "1", "true", "yes": config.demoOffers = true
            case "0", "false", "no": config.demoOffers = false
            default: throw ConfigError.invalid(name: "DEMO_OFFERS", value: flag, reason: "expected 1 or true (show the demo offers), 0 or false")
            }
        }
        if let days = value("SESSION_IDLE_DAYS") {
            guard let number = Double(days), number > 0, number <= 400 else {
                throw ConfigError.invalid(name: "SESSION_IDLE_DAYS", value: days, reason: "expected a number of days from 1 to 400")
            }
            config.sessionIdleDays = number
        }
        for (name, limit) in [
            ("SHARE_ITUNES_PER_MINUTE", \ClientShare.Limits.itunesPerMinute), ("SHARE_TVMAZE_PER_MINUTE", \.tvmazePerMinute),
            ("SHARE_OMDB_PER_DAY", \.omdbPerDay),
        ] {
            guard let raw = value(name) else { continue }
            guard let number = Int(raw), (0...1_000_000).contains(number) else {
                throw ConfigError.invalid(name: name, value: raw, reason: "expected a number of calls (0 for no limit)")
            }
            config.shares[keyPath: limit] = number
        }
        if let raw = value("NEW_VISITORS_PER_HOUR") {
            guard let number = Int(raw), (0...1_000_000).contains(number) else {
                throw ConfigError.invalid(name: "NEW_VISITORS_PER_HOUR", value: raw, reason: "expected a number of visitors (0 for no limit)")
            }
            config.newVisitorsPerHour = number
        }
        if let url = value("PUBLIC_URL") { config.publicURL = try validatedBaseURL(url, name: "PUBLIC_URL") }
        if let proxies = value("TRUSTED_PROXIES") {
            config.trustedProxies = proxies.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        config.operations = try OperationsConfig.read(value)
        return config
    }

    static func validatedBaseURL(_ raw: String, name: String) throws -> String {
        guard let url = URL(string: raw), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw ConfigError.invalid(name: name, value: raw, reason: "expected an http(s) URL")
        }
        return raw.hasSuffix("/") ? String(raw.dropLast()) : raw
    }
}
