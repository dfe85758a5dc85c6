import Hummingbird
import Logging
import NIOCore

/// What a balancer and an orchestrator ask of the server: `/health` (alive: answers without the
/// database) and `/ready` (the database answers and shutdown has not begun; 503 otherwise, with why).
struct HealthController {
    let readiness: Readiness

    func register(on router: some RouterMethods<AppRequestContext>) {
        for route in [Route.health, .healthz] {
            router.on(route) { _, _ in Self.text(.ok, "ok") }
        }
        router.on(Route.ready) { _, _ in
            guard let problem = await readiness.check() else { return Self.text(.ok, "ready") }
            return Self.text(.serviceUnavailable, "not ready: \(problem)")
        }
    }

    static func text(_ status: HTTPResponse.Status, _ body: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}

/// The metrics listener's one address.
enum MetricsRoute: String, SiteRoute {
    static let group = ""
    case metrics = "GET /metrics"
}

/// `/metrics` in Prometheus' text format, served on its own listener (`METRICS_HOST:METRICS_PORT`),
/// never through the site's port, so a balancer in front of the site cannot expose it.
func buildMetricsApplication(metrics: AppMetrics, operations: OperationsConfig, logger: Logger) -> some ApplicationProtocol {
    let router = Router(context: AppRequestContext.self)
    router.on(MetricsRoute.metrics) { _, _ in
        let body = await metrics.exposition()
        return Response(
            status: .ok, headers: [.contentType: AppMetrics.contentType, .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
    return Application(
        router: router, server: .http1(configuration: httpConfiguration),
        configuration: .init(address: .hostname(operations.metricsHost, port: operations.metricsPort ?? 0), serverName: "PopcornSwirl metrics"),
        logger: logger
    )
}
