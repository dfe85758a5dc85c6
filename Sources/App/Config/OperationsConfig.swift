import Foundation

/// How the server is run and watched: metrics, logs, shutdown, and how long a page waits on an upstream.
public struct OperationsConfig: Sendable, Equatable {
    public enum LogFormat: String, Sendable, Equatable {
        case text, json
    }

    /// `METRICS_PORT`: where `/metrics` (Prometheus text) is served, on its own listener so the
    /// balancer in front never exposes it; nil (unset, the default): no metrics listener.
    public var metricsPort: Int?
    /// `METRICS_HOST`: the metrics listener's address (loopback by default).
    public var metricsHost = "127.0.0.1"
    /// `SHUTDOWN_DRAIN_SECONDS`: after SIGTERM, `/ready` answers 503 for this long while every
    /// request is still served, so a balancer stops sending new ones before the listener closes.
    public var drainSeconds = 0
    /// `SHUTDOWN_TIMEOUT_SECONDS`: how long requests in flight may take to finish once the
    /// listener has closed; what is still running then is cancelled.
    public var shutdownTimeoutSeconds = 10
    /// `LOG_FORMAT=json`: one JSON object a line (for a log collector) instead of text.
    public var logFormat = LogFormat.text
    /// `UPSTREAM_WAIT_MS`: the longest a page waits on an upstream call before it is answered from
    /// the stale or bundled data; the call goes on and its answer is kept for the next person.
    public var upstreamWaitMilliseconds = 1000
    /// `CLEANUP_INTERVAL_SECONDS`: how often expired sessions, visitors and counters are swept
    /// (by one server of those sharing the database).
    public var cleanupIntervalSeconds = 3600
    /// `OFFER_CLICKS_PER_ADDRESS`, `OFFER_IMPRESSIONS_PER_ADDRESS`: counted clicks (3) and
    /// impressions (10) per client address, offer and UTC day; 0 = no cap (a test rig whose every
    /// browser is 127.0.0.1).
    public var offerCaps = OfferTracker.AddressCaps()
    /// Whether this server tells the others sharing a PostgreSQL database of its changes and
    /// listens for theirs. Always, but in the Swift tests: their many apps share one database,
    /// and each would hear every other test's writes (and send a notice per write on a loaded pool).
    public var listensForChanges = true
    /// How long `/ready` waits for the database's `SELECT 1` (2 s; the tests, on a loaded machine, longer).
    public var readinessProbeMilliseconds = 2000

    public init() {}

    static func read(_ value: (String) -> String?) throws -> OperationsConfig {
        var config = OperationsConfig()
        func number(_ name: String, _ range: ClosedRange<Int>, _ what: String) throws -> Int? {
            guard let raw = value(name) else { return nil }
            guard let number = Int(raw), range.contains(number) else {
                throw AppConfig.ConfigError.invalid(
                    name: name, value: raw, reason: "expected \(what) from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }
        config.metricsPort = try number("METRICS_PORT", 1...65535, "a port number")
        if let host = value("METRICS_HOST") { config.metricsHost = host }
        if let seconds = try number("SHUTDOWN_DRAIN_SECONDS", 0...120, "a number of seconds") { config.drainSeconds = seconds }
        if let seconds = try number("SHUTDOWN_TIMEOUT_SECONDS", 1...600, "a number of seconds") { config.shutdownTimeoutSeconds = seconds }
        if let raw = value("LOG_FORMAT") {
            guard let format = LogFormat(rawValue: raw.lowercased()) else {
                throw AppConfig.ConfigError.invalid(name: "LOG_FORMAT", value: raw, reason: "expected text or json")
            }
            config.logFormat = format
        }
        if let wait = try number("UPSTREAM_WAIT_MS", 50...30_000, "milliseconds") { config.upstreamWaitMilliseconds = wait }
        if let seconds = try number("CLEANUP_INTERVAL_SECONDS", 1...86_400, "a number of seconds") { config.cleanupIntervalSeconds = seconds }
        if let clicks = try number("OFFER_CLICKS_PER_ADDRESS", 0...1_000_000, "a number of clicks") { config.offerCaps.clicks = clicks }
        if let views = try number("OFFER_IMPRESSIONS_PER_ADDRESS", 0...1_000_000, "a number of impressions") { config.offerCaps.impressions = views }
        return config
    }
}
