import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The `Idempotency-Key` for the writes made inside `IdempotencyKey.$current.withValue(_:)`.
///
/// The offline outbox keeps one key per queued change and sends it on every try, across app
/// launches, so the server does the change once:
///
/// ```swift
/// try await IdempotencyKey.$current.withValue(change.key) {
///     try await client.putLibraryMovie(path: .init(id: change.movieID), body: .json(change.body))
/// }
/// ```
///
/// Unset, ``IdempotencyMiddleware`` makes a new UUID for each call.
public enum IdempotencyKey {
    @TaskLocal public static var current: String?
}

/// When the change being sent was made, sent as `Change-Made-At` on the writes made inside
/// `ChangeMadeAt.$current.withValue(_:)` (the outbox sets it to when the user made the change
/// offline). Unset, no header is sent.
public enum ChangeMadeAt {
    @TaskLocal public static var current: Date?

    /// ISO 8601 in UTC with milliseconds, e.g. `2026-11-25T08:30:00.000Z`.
    public static func headerValue(for date: Date) -> String {
        date.formatted(style)
    }

    private static let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
}

extension HTTPField.Name {
    static let idempotencyKey = Self("Idempotency-Key")!
    static let changeMadeAt = Self("Change-Made-At")!
}

/// Gives every write (POST, PUT, PATCH, DELETE) an `Idempotency-Key`, so that it may be retried
/// safely: a key the request already has is kept, else ``IdempotencyKey/current`` is used, else a
/// new UUID. Also adds `Change-Made-At` from ``ChangeMadeAt/current`` when that is set.
///
/// Place it outside ``RetryMiddleware``: it stamps the call once, and every retry of the call
/// then carries the same key.
public struct IdempotencyMiddleware: ClientMiddleware {
    static let writeMethods: Set<HTTPRequest.Method> = [.post, .put, .patch, .delete]

    public init() {}

    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard Self.writeMethods.contains(request.method) else {
            return try await next(request, body, baseURL)
        }
        var request = request
        if request.headerFields[.idempotencyKey] == nil {
            let key = IdempotencyKey.current.flatMap { $0.isEmpty ? nil : $0 }
            request.headerFields[.idempotencyKey] = key ?? UUID().uuidString
        }
        if request.headerFields[.changeMadeAt] == nil, let madeAt = ChangeMadeAt.current {
            request.headerFields[.changeMadeAt] = ChangeMadeAt.headerValue(for: madeAt)
        }
        return try await next(request, body, baseURL)
    }
}
