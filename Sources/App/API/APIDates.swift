import Foundation
import OpenAPIRuntime

/// The API's times, written as the runtime's default (`ISO8601DateTranscoder.iso8601`) writes them,
/// `2026-11-27T16:23:17Z`, but through FoundationEssentials' ISO 8601 style instead of ICU's
/// formatter behind a lock: that was 11 % of `GET /api/v1/library`'s CPU (`scripts/bench --perf`),
/// two times per title. Reading also takes a fraction of a second. `APIDatesTests` holds the text equal.
struct APIDates: DateTranscoder {
    private static let style = Date.ISO8601FormatStyle()

    func encode(_ date: Date) throws -> String {
        // As the default: to the nearest millisecond (ICU's unit), then the fraction dropped.
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        return Date(timeIntervalSince1970: (milliseconds / 1000).rounded(.down)).formatted(Self.style)
    }

    /// The default's reading, and the same with a fraction of a second (`…T08:30:00.250Z`), which
    /// clients send too (the default refused it with 400).
    func decode(_ text: String) throws -> Date {
        do { return try ISO8601DateTranscoder.iso8601.decode(text) } catch {
            return try ISO8601DateTranscoder.iso8601WithFractionalSeconds.decode(text)
        }
    }
}
