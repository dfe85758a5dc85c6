import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends the caller's personal API token as `Authorization: Bearer <token>`.
///
/// The token provider is asked on every attempt (it sits inside ``RetryMiddleware``), so a token
/// renewed while a call is being retried is picked up. A provider that returns nil (signed out)
/// sends the request without the header.
public struct AuthMiddleware: ClientMiddleware {
    private let token: @Sendable () async -> String?

    public init(token: @escaping @Sendable () async -> String?) {
        self.token = token
    }

    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if let token = await token(), !token.isEmpty {
            request.headerFields[.authorization] = "Bearer \(token)"
        }
        return try await next(request, body, baseURL)
    }
}
