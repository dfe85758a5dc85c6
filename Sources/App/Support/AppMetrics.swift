import CoreMetrics
import Foundation
import Prometheus
import Synchronization

/// The server's metrics, recorded through swift-metrics into one Prometheus registry per server
/// (each test server has its own) and served in Prometheus' text format at `/metrics` on the
/// metrics listener (`OperationsConfig.metricsPort`). Names follow Prometheus' conventions:
/// counters end in `_total`, durations are histograms in `_seconds`; labels hold route templates,
/// hosts and states, never a person's id.
public final class AppMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory
    /// Read just before each scrape: gauges of things measured rather than counted (queue lengths,
    /// import jobs, database connections).
    private let collectors = Mutex<[@Sendable () async -> Void]>([])

    public init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // From 1 ms (a cached page) to 10 s (an upstream's timeout).
        factory.defaultDurationHistogramBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10].map {
            Duration.nanoseconds(Int64($0 * 1e9))
        }
        self.factory = factory
    }

    func counter(_ name: String, _ labels: [(String, String)]) -> CoreMetrics.Counter {
        CoreMetrics.Counter(label: name, dimensions: labels, factory: factory)
    }

    func gauge(_ name: String, _ labels: [(String, String)] = []) -> CoreMetrics.Gauge {
        CoreMetrics.Gauge(label: name, dimensions: labels, factory: factory)
    }

    func timer(_ name: String, _ labels: [(String, String)]) -> CoreMetrics.Timer {
        CoreMetrics.Timer(label: name, dimensions: labels, preferredDisplayUnit: .seconds, factory: factory)
    }

    /// One answered HTTP request: its method, the route template it matched (`/movies/{id}`,
    /// `/static/*`, or `unmatched`), its status and how long it took.
    /// A method outside HTTP's own is counted as `other`: a client chooses the method, and each
    /// label value is a series kept for the life of the server.
    public func recordRequest(method: String, route: String, status: Int, duration: Duration) {
        let method = Self.knownMethods.contains(method) ? method : "other"
        let key = RequestSeries(method: method, route: route, status: status)
        let series = Self.kept(requestSeries, key) {
            let labels = [("method", method), ("route", route), ("status", String(status))]
            return (counter("http_server_requests_total", labels), timer("http_server_request_duration_seconds", labels))
        }
        series.count.increment()
        series.duration.recordNanoseconds(duration.nanoseconds)
    }

    static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "CONNECT", "TRACE"]

    private struct RequestSeries: Hashable {
        let method: String
        let route: String
        let status: Int
    }

    private let requestSeries = Mutex<[RequestSeries: (count: CoreMetrics.Counter, duration: CoreMetrics.Timer)]>([:])

    /// What a cached upstream lookup came to (`UpstreamLookup`), per upstream host.
    func recordLookup(host: String, _ lookup: UpstreamLookup) {
        Self.kept(lookupSeries, LookupSeries(host: host, result: lookup)) {
            counter("upstream_lookups_total", [("host", host), ("result", lookup.rawValue)])
        }.increment()
    }

    /// The series kept under `key`, made the first time. The factory takes the registry's lock to
    /// find a series: once per series, not per request (per lookup it was 2.9 % of a kept search
    /// page's CPU).
    private static func kept<Key: Hashable & Sendable, Series: Sendable>(
        _ table: borrowing Mutex<[Key: Series]>, _ key: Key, make: () -> Series
    ) -> Series {
        if let found = table.withLock({ $0[key] }) { return found }
        let made = make()
        table.withLock { $0[key] = made }
        return made
    }

    private struct LookupSeries: Hashable {
        let host: String
        let result: UpstreamLookup
    }

    private let lookupSeries = Mutex<[LookupSeries: CoreMetrics.Counter]>([:])

    /// A call our own limits kept from going out: `throttle` (the host's rate), `budget` (a daily
    /// allowance), `share` (one client's fair share), `breaker` (the host failed moments ago), `offline`.
    func recordRefusal(host: String, reason: String) {
        counter("upstream_refusals_total", [("host", host), ("reason", reason)]).increment()
    }

    /// One call that went out to an upstream host, by how it ended (`ok`, `status_4xx`, `status_5xx`, `unreachable`…).
    func recordCall(host: String, outcome: String, duration: Duration) {
        let labels = [("host", host), ("outcome", outcome)]
        counter("upstream_calls_total", labels).increment()
        timer("upstream_call_duration_seconds", labels).recordNanoseconds(duration.nanoseconds)
    }

    /// Adds something read at each scrape.
    func collect(_ collector: @escaping @Sendable () async -> Void) {
        collectors.withLock { $0.append(collector) }
    }

    /// Everything in Prometheus' text exposition format (version 0.0.4).
    public func exposition() async -> [UInt8] {
        for collector in collectors.withLock({ $0 }) { await collector() }
        return registry.emitToBuffer()
    }

    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"
}

/// What a lookup through the upstream cache came to.
enum UpstreamLookup: String, Sendable {
    /// A stored answer still fresh: no call.
    case hit
    /// Nothing fresh: the upstream was asked and answered.
    case miss
    /// The upstream failed, took too long or was not asked (`upstream_refusals_total`); the last
    /// stored answer was served.
    case stale
    /// The same with nothing stored: the page falls back to the bundled data or the retry dialog.
    case failed
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
