import Foundation

/// What an upstream answered, before any interpretation.
public struct UpstreamResponse: Sendable {
    public var status: Int
    public var contentType: String?
    public var body: Data
    /// Where a redirect points (redirects are never followed: `FetchPolicy.keepsRedirects`).
    public var location: String?

    public init(status: Int, contentType: String? = nil, body: Data, location: String? = nil) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.location = location
    }
}

/// A redirect kept as an answer (`FetchPolicy.keepsRedirects`): where it pointed.
public struct RedirectAnswer: Codable, Sendable, Equatable {
    public var location: String

    static func decode(_ body: Data) -> RedirectAnswer? { try? JSONDecoder().decode(RedirectAnswer.self, from: body) }
}

/// Why an upstream call produced nothing usable. None of these is ever cached.
public enum UpstreamError: Error, Sendable, Equatable {
    /// Could not connect, the connection dropped, or no answer in time.
    case unreachable(String)
    /// 403/429: the upstream is rate-limiting us.
    case rateLimited(status: Int)
    /// Any other non-2xx status.
    case badStatus(Int)
    /// A 2xx whose body is empty or not the expected JSON.
    case malformed(String)
    /// Our own throttle refused the call to stay under the upstream's limit.
    case throttled
    /// The host failed recently; we do not wait on it again yet.
    case hostDown
    /// `POPCORN_OFFLINE=1`.
    case offlineMode
    /// The upstream answered with an error of its own (OMDb: `{"Response":"False","Error":"Invalid API key!"}`).
    case refused(String)
    /// Our daily allowance of calls to this upstream is spent (OMDb's free key: 1,000 a day).
    case quotaExhausted
    /// The client this request is for has used its fair share of the allowance (`ClientShare`):
    /// whose share (`UpstreamClient.key`) and the seconds until it may call again.
    case overShare(client: String, retryAfter: Int)

    /// A limit said no (the upstream's, our throttle's or budget's, or the client's share): the
    /// upstream works and will be asked again in a moment.
    public var isLimit: Bool {
        switch self {
        case .rateLimited, .throttled, .quotaExhausted, .overShare: true
        default: false
        }
    }

    public var isUnreachable: Bool {
        switch self {
        case .unreachable, .hostDown, .offlineMode: true
        default: false
        }
    }
}

/// The one door to the network. Tests swap it for fixtures or point it at a stub server.
public protocol UpstreamHTTP: Sendable {
    func get(_ url: URL, headers: [(String, String)]) async throws(UpstreamError) -> UpstreamResponse
    /// The same, abandoning a body past `maxBytes` as it streams in (`.malformed`).
    func get(_ url: URL, headers: [(String, String)], maxBytes: Int) async throws(UpstreamError) -> UpstreamResponse
    /// Whether the host of `url` answers at all (any HTTP status counts), without spending API calls.
    func isReachable(_ url: URL) async -> Bool
}

extension UpstreamHTTP {
    public func get(_ url: URL, headers: [(String, String)], maxBytes: Int) async throws(UpstreamError) -> UpstreamResponse {
        let response = try await get(url, headers: headers)
        guard response.body.count <= maxBytes else { throw .malformed("body too large") }
        return response
    }

    public func isReachable(_ url: URL) async -> Bool {
        do {
            _ = try await get(url, headers: [])
            return true
        } catch {
            return !error.isUnreachable
        }
    }
}

/// Thrown by a `validate` closure when the body is the upstream's own error message: the fetch then
/// fails with `UpstreamError.refused(message)` (nothing cached).
public struct UpstreamRefusal: Error, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// A daily allowance of upstream calls; `spend()` answers false when none is left.
public protocol CallBudget: Sendable {
    func spend() async -> Bool
}

/// Time, injected so freshness, throttles and breakers can be tested without sleeping.
public protocol AppClock: Sendable {
    func now() -> Date
}

extension AppClock {
    /// The current UTC year: the Movies screen's default.
    var currentYear: Int { Calendar.utc.component(.year, from: now()) }
}

public struct SystemClock: AppClock {
    public init() {}
    public func now() -> Date { Date() }
}
