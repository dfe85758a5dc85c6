import Logging
import Synchronization

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
        return sequentialID()
    }

    /// 32 lowercase hex digits (128 random bits), the form nginx's `$request_id` has.
    public static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return hex(generator.next()) + hex(generator.next())
    }

    /// A request's id in the same form: 64 random bits drawn once per process, then a counter
    /// through a bijective mix (SplitMix64's) keyed per process, so ids are unique but do not tell
    /// how many requests came between two. No system call for randomness on every request (two
    /// `getrandom` calls and string building were 1.2 % of a cached page's CPU).
    static func sequentialID() -> String {
        var x = counter.wrappingAdd(1, ordering: .relaxed).newValue &+ keys.add
        x = (x ^ (x >> 30)) &* 0xbf58_476d_1ce4_e5b9
        x = (x ^ (x >> 27)) &* 0x94d0_49bb_1331_11eb
        return keys.prefix + hex((x ^ (x >> 31)) ^ keys.mask)
    }

    private static let keys: (prefix: String, add: UInt64, mask: UInt64) = {
        var generator = SystemRandomNumberGenerator()
        return (hex(generator.next()), generator.next(), generator.next())
    }()
    private static let counter = Atomic<UInt64>(0)

    private static func hex(_ value: UInt64) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: 16) { buffer in
            for index in 0..<16 { buffer[index] = digits[Int((value >> UInt64(60 - 4 * index)) & 0xF)] }
            return 16
        }
    }

    /// Adds `request_id` to every line logged while a request is answered.
    public static let metadataProvider = Logger.MetadataProvider {
        guard let id = RequestTrace.id else { return [:] }
        return ["request_id": .string(id)]
    }
}
