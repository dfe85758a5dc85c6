import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import App

@Suite("Metrics: /metrics in Prometheus' format")
struct MetricsTests {
    func exposition(_ app: TestApp) async -> String {
        String(decoding: await app.services.metrics.exposition(), as: UTF8.self)
    }

    /// The value of the sample whose line starts with `prefix` (name and labels), if there is one.
    func value(_ text: String, _ prefix: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(prefix + " ") }.flatMap { Double($0.split(separator: " ").last!) }
    }

    @Test("requests are counted and timed by method, route template and status; a made-up address is 'unmatched'")
    func requests() async throws {
        try await TestApp.with { app in
            let (profile, cookie) = try await app.signedIn("metrics-reader")
            try await app.test { client in
                for id in ["1001", "1005"] { _ = try await client.get("/movies/\(id)", cookie: cookie) }
                _ = try await client.get("/library", cookie: cookie)
                #expect(try await client.get("/no/such/page-8cc1f").status == .notFound)
                _ = try await client.get("/static/app.css")
                for method in ["BREW-8cc1f", "WHEN-8cc1f"] {
                    _ = try await client.execute(uri: "/", method: HTTPRequest.Method(method)!, headers: [:])
                }
            }
            let text = await exposition(app)
            #expect(text.contains(#"http_server_requests_total{method="other",route="#), "a made-up method is 'other'")
            #expect(value(text, #"http_server_requests_total{method="GET",route="/movies/{id}",status="200"}"#) == 2)
            #expect(value(text, #"http_server_requests_total{method="GET",route="/library",status="200"}"#) == 1)
            #expect(value(text, #"http_server_requests_total{method="GET",route="unmatched",status="404"}"#) == 1)
            #expect(value(text, #"http_server_requests_total{method="GET",route="/static/*",status="200"}"#) == 1)
            #expect(value(text, #"http_server_request_duration_seconds_count{method="GET",route="/movies/{id}",status="200"}"#) == 2)
            #expect(text.contains(#"http_server_request_duration_seconds_bucket{method="GET",route="/movies/{id}",status="200",le="+Inf"} 2"#))
            // The names and labels only: a value (a sum of seconds) may hold any digits.
            let labels = text.split(separator: "\n").map { $0.split(separator: " ").dropLast().joined(separator: " ") }.joined(separator: "\n")
            #expect(!labels.contains("8cc1f") && !labels.contains("1005"), "no address or method a client chose is a label")
            #expect(!text.contains(profile.uuidString) && !text.lowercased().contains(profile.uuidString.lowercased()), "no person's id")
        }
    }

    @Test("every declared cache counts on /metrics: a year's films (anonymous and a person's) and app.css asked twice miss, then hit")
    func caches() async throws {
        try await TestApp.with { app in
            let (_, cookie) = try await app.signedIn("cache-reader")
            try await app.test { client in
                for _ in 0..<2 {
                    _ = try await client.get("/movies?year=2026")
                    _ = try await client.get("/movies?year=2026", cookie: cookie)
                    let css = try await client.execute(uri: "/static/app.css", method: .get, headers: [.acceptEncoding: "gzip"])
                    #expect(css.headers[.contentEncoding] == "gzip")
                }
            }
            let text = await exposition(app)
            for cache in ["shared-pages", "static-gzip"] {
                #expect(value(text, #"popcornswirl_cache_misses_total{cache="\#(cache)"}"#) == 1, "\(cache)")
                #expect(value(text, #"popcornswirl_cache_hits_total{cache="\#(cache)"}"#) == 1, "\(cache)")
            }
            for cache in ["cards", "year-lists", "sessions", "offers", "offer-rankings"] {
                #expect(value(text, #"popcornswirl_cache_misses_total{cache="\#(cache)"}"#) ?? 0 >= 1, "\(cache)")
                #expect(value(text, #"popcornswirl_cache_hits_total{cache="\#(cache)"}"#) ?? 0 >= 1, "\(cache)")
            }
        }
    }

    @Test("upstream lookups: a miss calls the host, a repeat is a hit; refusals and failures are counted by host")
    func upstream() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                _ = try await client.get("/movies?year=2026")
                _ = try await client.get("/movies?year=2026")
            }
            let text = await exposition(app)
            #expect(value(text, #"upstream_lookups_total{host="itunes.test",result="miss"}"#) == 1)
            #expect(value(text, #"upstream_calls_total{host="itunes.test",outcome="status_2xx"}"#) == 1)
            #expect(value(text, #"upstream_call_duration_seconds_count{host="itunes.test",outcome="status_2xx"}"#) == 1)
        }
        try await TestApp.with(upstream: FakeUpstream { _ throws(UpstreamError) in throw .unreachable("down") }) { app in
            try await app.test { client in
                _ = try await client.get("/movies?year=2024")
                _ = try await client.get("/movies?year=2023")
            }
            let text = await exposition(app)
            #expect(value(text, #"upstream_calls_total{host="itunes.test",outcome="unreachable"}"#) == 1)
            #expect(
                value(text, #"upstream_refusals_total{host="itunes.test",reason="breaker"}"#) == 1, "the second waits on no host that just failed")
            #expect(value(text, #"upstream_lookups_total{host="itunes.test",result="failed"}"#) == 2)
        }
    }

    @Test("the cache engine counts hit, miss, stale and each refusal by host")
    func lookups() async throws {
        let metrics = AppMetrics()
        let clock = ManualClock()
        let upstream = FakeUpstream.itunesFixtures()
        let engine = CachedUpstream(
            http: upstream, store: MemoryCacheStore(), throttle: HostThrottle(limit: 1, window: 60, clock: clock),
            breaker: HostBreaker(coolDown: 30, clock: clock), clock: clock, offline: false, logger: TestDatabase.logger, metrics: metrics
        )
        func fetch(_ term: String) async -> Fetched {
            await engine.fetch(key: term, url: URL(string: "https://itunes.test/search?term=\(term)")!, freshFor: 60) {
                _ = try ITunesDecoder.movies(from: $0)
            }
        }
        _ = await fetch("2026")  // miss: called
        _ = await fetch("2026")  // hit
        clock.advance(120)
        upstream.respond { _ throws(UpstreamError) in UpstreamResponse(status: 500, body: Data("down".utf8)) }
        _ = await fetch("2026")  // stale: called, failed, the old answer served
        _ = await fetch("2025")  // the throttle's one call a minute is spent: refused, nothing stored
        let text = String(decoding: await metrics.exposition(), as: UTF8.self)
        for (result, count) in [("miss", 1.0), ("hit", 1), ("stale", 1), ("failed", 1)] {
            #expect(value(text, #"upstream_lookups_total{host="itunes.test",result="\#(result)"}"#) == count, "\(result)")
        }
        #expect(value(text, #"upstream_calls_total{host="itunes.test",outcome="status_5xx"}"#) == 1)
        #expect(value(text, #"upstream_refusals_total{host="itunes.test",reason="throttle"}"#) == 1)
    }

    @Test("the metrics listener serves the text format with the gauges read at each scrape")
    func listener() async throws {
        try await TestApp.with(configure: { $0.operations.metricsPort = 9464 }) { app in
            app.services.offers.tracker.impressions([], viewer: .test("v"))
            try await buildMetricsApplication(
                metrics: app.services.metrics, operations: app.services.config.operations, logger: app.services.logger
            ).test(.router) { client in
                let response = try await client.execute(uri: "/metrics", method: .get)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
                let text = String(buffer: response.body)
                for line in [
                    "offer_impressions_queued 0.0", "offer_clicks_queued 0.0", #"import_jobs{state="queued"} 0.0"#,
                    #"import_jobs{state="running"} 0.0"#, "import_rows_pending 0.0", "db_write_transactions 0.0",
                ] {
                    #expect(text.contains(line + "\n"), "\(line)")
                }
                #expect(value(text, "db_pool_connections_max").map { $0 >= 2 } == true)
                #expect(try await client.execute(uri: "/movies", method: .get).status == .notFound, "only /metrics on this listener")
            }
        }
    }
}
