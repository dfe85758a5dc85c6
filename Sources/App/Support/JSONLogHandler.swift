import Foundation
import Logging

/// One JSON object a line on standard error (`LOG_FORMAT=json`), for a log collector:
/// `{"time":"…","level":"info","label":"popcornswirl","message":"…","request_id":"…",…}`, with the
/// logger's, the metadata provider's and the line's own metadata as top-level keys (the line's win).
/// swift-log ships only a text handler, and none of the packages this project can use has a JSON one.
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    let label: String
    let write: @Sendable (String) -> Void

    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil, write: @escaping @Sendable (String) -> Void = Self.standardError) {
        self.label = label
        self.metadataProvider = metadataProvider
        self.write = write
    }

    public static let standardError: @Sendable (String) -> Void = { line in FileHandle.standardError.write(Data(line.utf8)) }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { _, new in new } }
        if let own = event.metadata { fields.merge(own) { _, new in new } }
        var object: [String: Any] = fields.mapValues(Self.plain)
        object["time"] = Date().formatted(Self.time)
        object["level"] = event.level.rawValue
        object["label"] = label
        object["message"] = event.message.description
        if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) {
            write(String(decoding: data, as: UTF8.self) + "\n")
        }
    }

    static let time = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// A metadata value as JSON: strings, arrays and objects.
    static func plain(_ value: Logger.MetadataValue) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let value): value.description
        case .array(let values): values.map(plain)
        case .dictionary(let values): values.mapValues(plain)
        }
    }
}
