import Foundation
import HTTPTypes
import OpenAPIRuntime

/// How ``RetryMiddleware`` retries a call.
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first one included (1 = no retry).
    public var maxAttempts: Int
    /// The backoff before the first retry; it doubles for each retry after that.
    public var baseDelay: Duration
    /// The longest wait between two attempts, for the backoff and for `Retry-After` alike.
    public var maxDelay: Duration
    /// A request body that can be read only once is buffered up to this many bytes so that it
    /// can be sent again.
    public var maxBufferedBodyBytes: Int
    /// Waits between attempts; tests inject one that records instead of sleeping.
    public var sleep: @Sendable (Duration) async throws -> Void

    public init(
        maxAttempts: Int = 4,
        baseDelay: Duration = .milliseconds(500),
        maxDelay: Duration = .seconds(30),
        maxBufferedBodyBytes: Int = 2 * 1024 * 1024,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxBufferedBodyBytes = maxBufferedBodyBytes
        self.sleep = sleep
    }

    /// 4 attempts, 0.5 s doubling backoff, at most 30 s between attempts.
    public static var `default`: RetryPolicy { RetryPolicy() }

    /// A single attempt.
    public static var none: RetryPolicy { RetryPolicy(maxAttempts: 1) }

    /// The wait after the failed attempt number `attempt` (1-based): `baseDelay · 2^(attempt-1)`,
    /// capped at `maxDelay`, with "equal jitter": half of it fixed, the other half scaled by
    /// `jitter` (0...1, random unless given).
    public func backoff(afterAttempt attempt: Int, jitter: Double = .random(in: 0...1)) -> Duration {
        let exponent = min(max(attempt - 1, 0), 30)
        let full = min(baseDelay.seconds * Double(1 << exponent), maxDelay.seconds)
        return .seconds(full / 2 + full / 2 * min(max(jitter, 0), 1))
    }
}

/// Retries a call answered 429 (Too Many Requests) or 503 (Service Unavailable), or whose
/// transport failed, up to ``RetryPolicy/maxAttempts`` attempts in all.
///
/// Every request may be retried, writes included, because ``IdempotencyMiddleware`` (placed
/// outside this one) gives each write an `Idempotency-Key` that the server uses to do it once.
/// The wait is the answer's `Retry-After` (seconds or an HTTP-date) when it has one, else an
/// exponential backoff with jitter; both are capped at ``RetryPolicy/maxDelay``. After the last
/// attempt its answer is returned (or its error rethrown). Cancellation is never retried.
public struct RetryMiddleware: ClientMiddleware {
    /// The statuses worth another attempt.
    static let retryableStatuses: Set<Int> = [429, 503]

    public let policy: RetryPolicy

    public init(policy: RetryPolicy = .default) {
        self.policy = policy
    }

    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (body, replayable) = try await Self.replayable(body, upTo: policy.maxBufferedBodyBytes)
        let maxAttempts = replayable ? max(policy.maxAttempts, 1) : 1
        var attempt = 1
        while true {
            let delay: Duration
            do {
                let (response, responseBody) = try await next(request, body, baseURL)
                guard attempt < maxAttempts, Self.retryableStatuses.contains(response.status.code) else {
                    return (response, responseBody)
                }
                let retryAfter = response.headerFields[.retryAfter].flatMap { Self.retryAfter($0, now: Date()) }
                delay = retryAfter.map { min($0, policy.maxDelay) } ?? policy.backoff(afterAttempt: attempt)
                await Self.discard(responseBody)
            } catch {
                guard attempt < maxAttempts, !Self.isCancellation(error) else { throw error }
                delay = policy.backoff(afterAttempt: attempt)
            }
            try await policy.sleep(delay)
            attempt += 1
        }
    }

    /// A body that can be sent again, and whether it can: one that can be iterated several times
    /// is kept as it is, one that can be iterated once is read into memory (up to `limit` bytes).
    /// A one-time body known to be longer than `limit` is sent once, without retries; one of
    /// unknown length found longer than `limit` fails the call.
    static func replayable(_ body: HTTPBody?, upTo limit: Int) async throws -> (HTTPBody?, Bool) {
        guard let body, body.iterationBehavior == .single else { return (body, true) }
        if case .known(let length) = body.length, length > Int64(limit) { return (body, false) }
        let bytes = try await HTTPBody.ByteChunk(collecting: body, upTo: limit)
        return (HTTPBody(bytes), true)
    }

    /// Reads and drops (a bounded part of) an answer that is not returned, so that the
    /// connection can be reused.
    static func discard(_ body: HTTPBody?) async {
        guard let body else { return }
        _ = try? await HTTPBody.ByteChunk(collecting: body, upTo: 64 * 1024)
    }

    static func isCancellation(_ error: any Error) -> Bool {
        if Task.isCancelled || error is CancellationError { return true }
        if let error = error as? ClientError { return error.underlyingError is CancellationError }
        return false
    }

    /// The wait a `Retry-After` value asks for: delta-seconds (`120`) or an HTTP-date
    /// (`Wed, 25 Nov 2026 08:30:00 GMT`, or the obsolete RFC 850 and asctime forms), from `now`.
    /// A date in the past means no wait; a value that is neither gives nil.
    public static func retryAfter(_ value: String, now: Date) -> Duration? {
        let value = value.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        if !value.isEmpty, value.allSatisfy(\.isASCIIDigit) {
            return .seconds(min(Double(value) ?? .infinity, 1e9))
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: value) {
                return .seconds(max(date.timeIntervalSince(now), 0))
            }
        }
        return nil
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
