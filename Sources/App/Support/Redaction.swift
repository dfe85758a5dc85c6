import Foundation
import Logging

/// Secrets never reach a log line: query parameters that carry keys or tokens (OMDb's `apikey`
/// among them), bearer tokens, and PopcornSwirl's own `ps_…` API tokens are replaced by `REDACTED`
/// in every message and metadata value (see `RedactingLogHandler`).
enum Redaction {
    static let marker = "REDACTED"
    private static let secretParameter = try! NSRegularExpression(
        pattern: #"(?i)\b(apikey|api_key|key|token|access_token|password|secret)=[^&\s"'<>]+"#)
    private static let bearer = try! NSRegularExpression(pattern: #"(?i)\bBearer\s+[A-Za-z0-9._~+/=-]+"#)
    private static let apiToken = try! NSRegularExpression(pattern: #"\bps_[A-Za-z0-9_-]{20,}"#)

    static func redact(_ text: String) -> String {
        // Most lines carry nothing to hide: skip the regular expressions for them.
        guard text.contains("=") || text.contains("Bearer") || text.contains("ps_") else { return text }
        var result = text
        for (expression, template) in [(secretParameter, "$1=\(marker)"), (bearer, "Bearer \(marker)"), (apiToken, "ps_\(marker)")] {
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
public struct RedactingLogHandler: LogHandler {
    var base: any LogHandler

    public init(_ base: any LogHandler) { self.base = base }

    public var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    public var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    public func log(event: LogEvent) {
        var event = event
        event.message = "\(Redaction.redact(event.message.description))"
        event.metadata = event.metadata?.mapValues(Redaction.redact)
        base.log(event: event)
    }
}
