import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// `UpstreamHTTP` over AsyncHTTPClient: 2 s to connect, 8 s for the whole exchange (body included), no redirects.
public final class AsyncHTTPUpstream: UpstreamHTTP {
    static let maxBodyBytes = 16 * 1024 * 1024
    let client: HTTPClient
    let totalTimeout: TimeAmount
    let userAgent: String

    public init(connectTimeout: TimeAmount = .seconds(2), totalTimeout: TimeAmount = .seconds(8)) {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: connectTimeout, read: totalTimeout),
            decompression: .enabled(limit: .ratio(20))
        )
        configuration.httpVersion = .automatic
        self.client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.totalTimeout = totalTimeout
        self.userAgent = "PopcornSwirl/1.0 (self-hosted movie and TV watchlist; AsyncHTTPClient)"
    }

    public func shutdown() async {
        try? await client.shutdown()
    }

    /// A HEAD request to the host's root: answers whether anything is listening, costs no API call.
    public func isReachable(_ url: URL) async -> Bool {
        guard let scheme = url.scheme, let host = url.host else { return false }
        let root = "\(scheme)://\(host)\(url.port.map { ":\($0)" } ?? "")/"
        var request = HTTPClientRequest(url: root)
        request.method = .HEAD
        request.headers.add(name: "User-Agent", value: userAgent)
        do {
            _ = try await client.execute(request, timeout: .seconds(3))
            return true
        } catch {
            return false
        }
    }

    public func get(_ url: URL, headers: [(String, String)]) async throws(UpstreamError) -> UpstreamResponse {
        try await get(url, headers: headers, maxBytes: Self.maxBodyBytes)
    }

    public func get(_ url: URL, headers: [(String, String)], maxBytes: Int) async throws(UpstreamError) -> UpstreamResponse {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "User-Agent", value: userAgent)
        request.headers.add(name: "Accept", value: "application/json, text/javascript, image/*;q=0.9, */*;q=0.5")
        for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
        // The request this call is made for, so both sides' logs can be matched up.
        if let id = RequestTrace.id { request.headers.replaceOrAdd(name: RequestTrace.header, value: id) }
        do {
            return try await Self.within(totalTimeout) { [client, totalTimeout, request] in
                let response = try await client.execute(request, timeout: totalTimeout)
                let body = try await response.body.collect(upTo: min(maxBytes, Self.maxBodyBytes))
                return UpstreamResponse(
                    status: Int(response.status.code),
                    contentType: response.headers.first(name: "Content-Type"),
                    body: Data(buffer: body),
                    location: response.headers.first(name: "Location")
                )
            }
        } catch is ExchangeTimedOut {
            throw .unreachable("timed out: \(url.host ?? "") did not finish its answer within \(totalTimeout.nanoseconds / 1_000_000_000) s")
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw .unreachable("timed out: \(url.host ?? "")")
        } catch let error as NIOTooManyBytesError {
            throw .malformed("body too large: \(error)")
        } catch {
            throw .unreachable("\(url.host ?? ""): \(error)")
        }
    }

    struct ExchangeTimedOut: Error {}

    /// `exchange`'s answer if the whole of it (headers and body) comes within `limit`; else the
    /// exchange is cancelled (AsyncHTTPClient then closes its connection) and `ExchangeTimedOut` is
    /// thrown. AsyncHTTPClient's own timeouts cover the connection and the head, or the time between
    /// two reads: a host sending its body a byte a second would never trip them.
    static func within<T: Sendable>(_ limit: TimeAmount, _ exchange: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await exchange() }
            group.addTask {
                try await Task.sleep(for: .nanoseconds(limit.nanoseconds))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let answer = first else { throw ExchangeTimedOut() }
            return answer
        }
    }
}
