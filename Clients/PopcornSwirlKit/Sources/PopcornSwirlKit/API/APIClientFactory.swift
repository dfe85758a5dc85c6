import Foundation
import OpenAPIRuntime
import PopcornSwirlAPI

#if canImport(OpenAPIURLSession)
    import OpenAPIURLSession
#else
    import AsyncHTTPClient
    import OpenAPIAsyncHTTPClient
#endif

/// Builds the generated PopcornSwirl API client with the app's middlewares.
public enum APIClientFactory {
    /// A client for the server at `serverURL` (e.g. `https://popcornswirl.example`; the
    /// operations' paths start with `/api/v1`).
    ///
    /// The middlewares, outermost first:
    /// 1. ``IdempotencyMiddleware`` stamps each write once with its `Idempotency-Key` (and
    ///    `Change-Made-At`), so every retry of the call carries the same key;
    /// 2. ``RetryMiddleware`` repeats the rest of the chain for each attempt;
    /// 3. ``AuthMiddleware`` asks `token` on each attempt, so a renewed token is used.
    ///
    /// - Parameters:
    ///   - serverURL: The server's base URL.
    ///   - token: The personal API token, or nil when signed out.
    ///   - transport: The transport to use; nil for the platform's own (URLSession on Apple's
    ///     systems, AsyncHTTPClient elsewhere). Tests inject a fake.
    ///   - retry: When and how often to retry.
    public static func makeClient(
        serverURL: URL,
        token: @escaping @Sendable () async -> String?,
        transport: (any ClientTransport)? = nil,
        retry: RetryPolicy = .default
    ) -> PopcornSwirlAPI.Client {
        Client(
            serverURL: serverURL,
            transport: transport ?? defaultTransport(),
            middlewares: [
                IdempotencyMiddleware(),
                RetryMiddleware(policy: retry),
                AuthMiddleware(token: token),
            ]
        )
    }

    /// The platform's default transport. `timeout` bounds a call on Linux (a screen then shows
    /// its kept copy); URLSession keeps its own.
    public static func defaultTransport(timeout: Duration = .seconds(30)) -> any ClientTransport {
        #if canImport(OpenAPIURLSession)
            URLSessionTransport()
        #else
            AsyncHTTPClientTransport(
                configuration: .init(client: failFastClient, timeout: .milliseconds(Int64(timeout.components.seconds * 1000))))
        #endif
    }

    #if !canImport(OpenAPIURLSession)
        /// AsyncHTTPClient as an app wants it: a server that refuses the connection (down, or
        /// offline) fails the call at once, where the default client tried to connect again and
        /// again until the request's deadline (60 s a call, measured); ``RetryMiddleware`` and
        /// the sync decide when to try again. Shared, never shut down, like `HTTPClient.shared`.
        static let failFastClient: HTTPClient = {
            var configuration = HTTPClient.Configuration()
            configuration.connectionPool.retryConnectionEstablishment = false
            // The call's own deadline (`defaultTransport(timeout:)`) bounds the answer.
            configuration.timeout = .init(connect: .seconds(5))
            return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        }()
    #endif
}
