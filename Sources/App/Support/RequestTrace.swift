import Logging

/// The id of the request being answered, carried by a task-local: every log line written while it
/// is answered gets `request_id` (through the logging system's metadata provider), and every
/// upstream call made for it sends the id on as `X-Request-Id`. The id is the one a proxy in front
/// set (nginx's `$request_id`) when it is well formed, a new one otherwise.
public enum RequestTrace {
    @TaskLocal public static var id: String?
    public static let header = "X-Request-Id"

    /// The id to use for a request whose `X-Request-Id` was `raw`: kept when it is 1 to 64
    /// letters, digits, `-`, `_`, `.` or `:` (nothing that could forge a log line), new otherwise.
    public static func id(from raw: String?) -> String {
        if let raw, (1...64).contains(raw.utf8.count),
            raw.utf8.allSatisfy({ byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2D || byte == 0x5F || byte == 0x2E || byte == 0x3A
            })
        {
            return raw
        }
        return newID()
    }

    /// 32 lowercase hex digits (128 random bits), the form nginx's `$request_id` has.
    public static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Adds `request_id` to every line logged while a request is answered.
    public static let metadataProvider = Logger.MetadataProvider {
        guard let id = RequestTrace.id else { return [:] }
        return ["request_id": .string(id)]
    }
}
