import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

@testable import App

@Suite("Operations: health, readiness, request ids and the longest wait on an upstream")
struct OperationsTests {
    @Test("/health and /healthz answer ok; /ready answers ready, then 503 from the moment shutdown begins while pages are still served")
    func readiness() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                for path in ["/health", "/healthz"] {
                    let health = try await client.get(path)
                    #expect(health.status == .ok && health.text == "ok")
                    #expect(health.headers[.cacheControl] == "no-store")
                }
                let ready = try await client.get("/ready")
                #expect(ready.status == .ok && ready.text == "ready", "\(ready.text)")
                app.services.readiness.beginDraining()
                let draining = try await client.get("/ready")
                #expect(draining.status == .serviceUnavailable)
                #expect(draining.text == "not ready: shutting down")
                #expect(try await client.get("/health").status == .ok, "alive while draining")
                #expect(try await client.get("/movies?year=2026").status == .ok, "requests are still answered while the balancer drains")
            }
        }
    }

    @Test("/ready says 503 with the reason when the database does not answer")
    func notReadyWithoutDatabase() async throws {
        let router = Router(context: AppRequestContext.self)
        HealthController(readiness: Readiness { "the database did not answer within 2 s" }).register(on: router)
        try await Application(router: router).test(.router) { client in
            let response = try await client.execute(uri: "/ready", method: .get)
            #expect(response.status == .serviceUnavailable)
            #expect(String(buffer: response.body) == "not ready: the database did not answer within 2 s")
            #expect(try await client.execute(uri: "/health", method: .get).status == .ok)
        }
    }

    @Test("the real probe: ready while the database answers")
    func databaseProbe() async throws {
        try await TestDatabase.with { database in
            // The suite's load can hold one round trip for seconds; the production bound is 2 s.
            #expect(await Readiness(database: database, server: "test", timeout: .seconds(60)).check() == nil)
        }
    }

    @Test("every answer carries an X-Request-Id: a proxy's well-formed one is kept, anything else replaced by a new one")
    func requestIDs() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let fresh = try #require(try await client.get("/health").headers[.requestID])
                #expect(fresh.count == 32 && fresh.allSatisfy(\.isHexDigit))
                let other = try #require(try await client.get("/health").headers[.requestID])
                #expect(other != fresh, "each request has its own")
                let kept = try await client.execute(uri: "/movies?year=2026", method: .get, headers: [.requestID: "nginx-3f2a.9:b_c"])
                #expect(kept.headers[.requestID] == "nginx-3f2a.9:b_c")
                for forged in ["a b", "x\u{7F}y", String(repeating: "a", count: 65), "id\"injected"] {
                    let response = try await client.execute(uri: "/health", method: .get, headers: [.requestID: forged])
                    let answered = try #require(response.headers[.requestID])
                    #expect(answered != forged && answered.count == 32)
                }
            }
        }
    }

    @Test("a line logged while a request is answered carries its request_id")
    func requestIDInLogs() async throws {
        let lines = LogLines()
        var logger = Logger(label: "test") { _ in CapturingHandler(lines: lines) }
        logger.handler.metadataProvider = RequestTrace.metadataProvider
        let failing = FakeUpstream { _ throws(UpstreamError) in throw .badStatus(500) }
        try await TestApp.with(upstream: failing, logger: logger) { app in
            try await app.test { client in
                let response = try await client.execute(uri: "/movies?year=2024", method: .get, headers: [.requestID: "trace-me-1"])
                #expect(response.status == .ok)
            }
        }
        let traced = lines.all.filter { $0["request_id"] == "trace-me-1" }
        #expect(!traced.isEmpty, "the failed upstream call was logged with the request's id")
    }

    @Test("an upstream call made for a request sends its id on as X-Request-Id")
    func requestIDUpstream() async throws {
        let router = Router()
        router.get("/echo") { request, _ in request.headers[.requestID] ?? "none" }
        try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { client in
            let http = AsyncHTTPUpstream()
            let url = URL(string: "http://127.0.0.1:\(client.port!)/echo")!
            let traced = try await RequestTrace.$id.withValue("req-42") { try await http.get(url, headers: []) }
            #expect(String(decoding: traced.body, as: UTF8.self) == "req-42")
            let untraced = try await http.get(url, headers: [])
            #expect(String(decoding: untraced.body, as: UTF8.self) == "none")
            await http.shutdown()
        }
    }

    @Test(
        "an upstream slower than the bound holds no page for it (the bundled data, marked offline); its answer then serves the next person",
        arguments: [
            ("/movies?year=2024", "Offline — iTunes can’t be reached", "itunes.test"),
            ("/shows", "Offline — TVMaze can’t be reached", "tvmaze.test"),
        ])
    func slowUpstream(path: String, notice: String, host: String) async throws {
        let upstream = FakeUpstream.itunesFixtures()
        // Far past the 300 ms bound: only the bound can have answered the first request.
        upstream.setDelay(milliseconds: 2500)
        try await TestApp.with(upstream: upstream, configure: { $0.operations.upstreamWaitMilliseconds = 300 }) { app in
            try await app.test { client in
                let first = try await client.get(path)
                #expect(first.status == .ok)
                #expect(first.text.contains(notice), "the bundled data, marked offline")
                // The call went on; once it has answered, the next person gets its answer.
                var later = try await client.get(path)
                let deadline = ContinuousClock.now + .seconds(20)
                while later.text.contains("Offline —"), ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(200))
                    later = try await client.get(path)
                }
                #expect(!later.text.contains("Offline —"))
                #expect(app.upstream.requested(host: host).count == 1, "the first call's answer, stored: no second call")
            }
        }
    }
}

/// Each logged line's metadata.
final class LogLines: Sendable {
    private let lines = Mutex<[Logger.Metadata]>([])
    var all: [Logger.Metadata] { lines.withLock { $0 } }
    func append(_ line: Logger.Metadata) { lines.withLock { $0.append(line) } }
}

/// Keeps each line's metadata (the logger's, the provider's and the line's own).
struct CapturingHandler: LogHandler {
    let lines: LogLines
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var all = metadata
        all.merge(metadataProvider?.get() ?? [:]) { _, new in new }
        all.merge(event.metadata ?? [:]) { _, new in new }
        lines.append(all)
    }
}
