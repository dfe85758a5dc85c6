import Foundation
import Logging
import Synchronization
import Testing

@testable import App

/// Keys and tokens never reach a log line.
@Suite("Secrets in logs")
struct LogRedactionTests {
    /// Keeps every line logged through it.
    final class Capture: Sendable {
        let lines = Mutex<[String]>([])
        var text: String { lines.withLock { $0.joined(separator: "\n") } }
    }

    struct CaptureHandler: LogHandler {
        let capture: Capture
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let meta = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            capture.lines.withLock { $0.append("\(event.message) \(meta)") }
        }
    }

    @Test("keys, tokens and passwords in URLs and headers are replaced by REDACTED")
    func redact() {
        let line = Redaction.redact(
            "GET https://www.omdbapi.com/?t=Up&apikey=abc123secret&y=2009 Bearer ps_AbCdEfGhIjKlMnOpQrStUvWxYz012345 password=hunter2hunter2")
        #expect(!line.contains("abc123secret") && !line.contains("ps_AbCdEf") && !line.contains("hunter2"))
        #expect(line.contains("t=Up&apikey=REDACTED&y=2009"))
        #expect(Redaction.redact("search failed for Up (2009)") == "search failed for Up (2009)")
        let feed = Redaction.redact("request failed path=/calendar/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde.ics")
        #expect(feed == "request failed path=/calendar/REDACTED.ics")
        let integration = Redaction.redact("POST /integrations/plex/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde answered 202")
        #expect(integration == "POST /integrations/plex/REDACTED answered 202")
        let hooks = Redaction.redact("sent to https://discord.com/api/webhooks/123456/SeCrEt-ToKeN.abc with whsec_AbCdEfGhIjKlMnOpQrStUv")
        #expect(hooks == "sent to https://discord.com/api/webhooks/123456/REDACTED with whsec_REDACTED")
    }

    @Test("the services log through the redaction whatever handler they are given: an OMDb URL keeps its host, loses its key")
    func omdbKeyNotLogged() async throws {
        let capture = Capture()
        try await TestApp.with(configure: { $0.omdbAPIKey = "sekret-omdb-key-42" }) { app in
            var logger = Logger(label: "capture") { _ in CaptureHandler(capture: capture) }
            logger.logLevel = .trace
            let services = try AppServices(
                config: app.services.config, database: app.services.database, http: app.upstream, clock: app.clock, logger: logger, sleep: { _ in })
            services.logger.warning("upstream failed", metadata: ["url": "https://omdb.test/?apikey=sekret-omdb-key-42&t=Up"])
            await services.offers.tracker.close()
        }
        #expect(capture.text.contains("https://omdb.test/?apikey=REDACTED&t=Up"), "\(capture.text)")
        #expect(!capture.text.contains("sekret-omdb-key-42"))
    }

    @Test("metadata set on a logger is on each of its lines, redacted, a line's own value winning, and can be taken back")
    func loggerMetadata() {
        let capture = Capture()
        var logger = Logger(label: "capture") { _ in RedactingLogHandler(CaptureHandler(capture: capture)) }
        logger.logLevel = .trace
        logger[metadataKey: "request"] = "r-1"
        logger[metadataKey: "upstream"] = "https://omdb.test/?apikey=sekret-42"
        logger.info("first", metadata: ["request": "r-2"])
        logger[metadataKey: "upstream"] = nil
        logger.info("second")
        #expect(capture.lines.withLock { $0 } == ["first request=r-2 upstream=https://omdb.test/?apikey=REDACTED", "second request=r-1"])
        #expect(logger[metadataKey: "request"] == "r-1" && logger[metadataKey: "upstream"] == nil)
    }
}
