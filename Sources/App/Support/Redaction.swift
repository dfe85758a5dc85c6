import Foundation
import Logging

/// Secrets never reach a log line: query parameters that carry keys or tokens (OMDb's `apikey`
/// among them), bearer tokens, PopcornSwirl's own `ps_…` API tokens, calendar feed and media-server
/// integration tokens in paths, webhook secrets and Discord webhook addresses are replaced by `REDACTED`
/// in every message and metadata value (see `RedactingLogHandler`).
enum Redaction {
    static let marker = "REDACTED"
    private static let secretParameter = try! NSRegularExpression(
        pattern: #"(?i)\b(apikey|api_key|key|token|access_token|password|secret|csrf)=[^&\s"'<>]+"#)
    private static let bearer = try! NSRegularExpression(pattern: #"(?i)\bBearer\s+[A-Za-z0-9._~+/=-]+"#)
    private static let apiToken = try! NSRegularExpression(pattern: #"\bps_[A-Za-z0-9_-]{20,}"#)
    /// A calendar feed's address is its secret (`/calendar/<token>.ics`), as are a webhook's signing
    /// secret and a Discord webhook's address.
    private static let feedPath = try! NSRegularExpression(pattern: #"/calendar/[A-Za-z0-9_-]{20,}"#)
    /// A media server's integration URL (`/integrations/<kind>/<token>`) is its secret too.
    private static let integrationPath = try! NSRegularExpression(pattern: #"/integrations/([a-z]+)/[A-Za-z0-9_-]{20,}"#)
    private static let webhookSecret = try! NSRegularExpression(pattern: #"\bwhsec_[A-Za-z0-9_-]{20,}"#)
    private static let discordHook = try! NSRegularExpression(pattern: #"/api/webhooks/([0-9]+)/[A-Za-z0-9_.-]+"#)

    static func redact(_ text: String) -> String {
        // Most lines carry nothing to hide: skip the regular expressions for them.
        guard
            text.contains("=") || text.contains("Bearer") || text.contains("ps_") || text.contains("/calendar/") || text.contains("whsec_")
                || text.contains("/webhooks/") || text.contains("/integrations/")
        else { return text }
        var result = text
        for (expression, template) in [
            (secretParameter, "$1=\(marker)"), (bearer, "Bearer \(marker)"), (apiToken, "ps_\(marker)"), (feedPath, "/calendar/\(marker)"),
            (integrationPath, "/integrations/$1/\(marker)"), (webhookSecret, "whsec_\(marker)"), (discordHook, "/api/webhooks/$1/\(marker)"),
        ] {
            result = expression.stringByReplacingMatches(
                in: result, range: NSRange(result.startIndex..., in: result), withTemplate: template)
        }
        return result
    }

    static func redact(_ value: Logger.MetadataValue) -> Logger.MetadataValue {
        switch value {
        case .string(let text): .string(redact(text))
        case .stringConvertible(let value): .string(redact(value.description))
        case .array(let values): .array(values.map(redact))
        case .dictionary(let values): .dictionary(values.mapValues(redact))
        }
    }
}

/// Wraps the process's log handler so that every line goes through `Redaction`.
///
/// Metadata set on a logger (Hummingbird sets the request id on every request's) is kept here and
/// added to each line, not handed to the base handler: swift-log's `StreamLogHandler` formats all
/// of its metadata again on every change, 2 % of a cached page's CPU (perf, sorted My Lists).
public struct RedactingLogHandler: LogHandler {
    var base: any LogHandler
    /// What was set through this handler; a line's own metadata wins over it.
    private var own: Logger.Metadata = [:]

    public init(_ base: any LogHandler) { self.base = base }

    public var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    public var metadata: Logger.Metadata {
        get { base.metadata.merging(own) { $1 } }
        set {
            own = newValue
            base.metadata = [:]
        }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { own[key] ?? base[metadataKey: key] }
        set {
            own[key] = newValue
            if newValue == nil, base[metadataKey: key] != nil { base[metadataKey: key] = nil }
        }
    }

    public func log(event: LogEvent) {
        var event = event
        event.message = "\(Redaction.redact(event.message.description))"
        let metadata = own.isEmpty ? event.metadata : own.merging(event.metadata ?? [:]) { $1 }
        event.metadata = metadata?.mapValues(Redaction.redact)
        base.log(event: event)
    }
}
