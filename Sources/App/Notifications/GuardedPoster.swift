import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether an address may be reached from the server: public ones only, unless the administrator
/// allows private ones (`NOTIFY_ALLOW_PRIVATE=1`). Loopback, private (RFC 1918, ULA), link-local,
/// carrier-grade NAT, multicast, documentation and reserved ranges are not public.
enum AddressCheck {
    /// For a host written as an address: whether it is public; nil for a name.
    static func literalVerdict(_ host: String) -> Bool? {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if let v4 = ipv4(bare) { return isPublic(v4: v4) }
        if let v6 = ipv6(bare) { return isPublic(v6: v6) }
        return nil
    }

    static func ipv4(_ text: String) -> [UInt8]? {
        var address = in_addr()
        guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: address) { Array($0) }
    }

    static func ipv6(_ text: String) -> [UInt8]? {
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: address) { Array($0) }
    }

    static func isPublic(v4 b: [UInt8]) -> Bool {
        guard b.count == 4 else { return false }
        switch (b[0], b[1]) {
        case (0, _), (10, _), (127, _): return false
        case (100, 64...127): return false  // carrier-grade NAT
        case (169, 254): return false  // link-local (cloud metadata)
        case (172, 16...31): return false
        case (192, 168): return false
        case (192, 0) where b[2] == 0 || b[2] == 2: return false  // IETF protocol assignments, TEST-NET-1
        case (198, 18...19): return false  // benchmarking
        case (198, 51) where b[2] == 100: return false
        case (203, 0) where b[2] == 113: return false
        case (224...255, _): return false  // multicast, reserved, broadcast
        default: return true
        }
    }

    static func isPublic(v6 b: [UInt8]) -> Bool {
        guard b.count == 16 else { return false }
        if b[0..<15].allSatisfy({ $0 == 0 }) { return false }  // :: and ::1
        if b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xFF && b[11] == 0xFF { return isPublic(v4: Array(b[12..<16])) }  // ::ffff:v4
        if b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xFF && b[3] == 0x9B { return isPublic(v4: Array(b[12..<16])) }  // NAT64
        if b[0] & 0xFE == 0xFC { return false }  // unique local
        if b[0] == 0xFE && b[1] & 0xC0 == 0x80 { return false }  // link-local
        if b[0] == 0xFF { return false }  // multicast
        if b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0D && b[3] == 0xB8 { return false }  // documentation
        return true
    }

    /// The addresses `host` resolves to (getaddrinfo, on a thread of the pool: it blocks).
    static func resolve(_ host: String) async -> [String] {
        await withCheckedContinuation { continuation in
            NIOThreadPool.singleton.submit { _ in
                var hints = addrinfo()
                hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
                var result: UnsafeMutablePointer<addrinfo>?
                guard getaddrinfo(host, nil, &hints, &result) == 0, let first = result else {
                    continuation.resume(returning: [])
                    return
                }
                defer { freeaddrinfo(first) }
                var addresses: [String] = []
                var node: UnsafeMutablePointer<addrinfo>? = first
                while let current = node {
                    var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
                    if current.pointee.ai_family == AF_INET {
                        current.pointee.ai_addr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin in
                            var address = sin.pointee.sin_addr
                            _ = inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
                        }
                    } else if current.pointee.ai_family == AF_INET6 {
                        current.pointee.ai_addr.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sin6 in
                            var address = sin6.pointee.sin6_addr
                            _ = inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count))
                        }
                    }
                    let text = String(cString: buffer)
                    if !text.isEmpty, !addresses.contains(text) { addresses.append(text) }
                    node = current.pointee.ai_next
                }
                continuation.resume(returning: addresses)
            }
        }
    }
}

/// What a target answered.
public struct DeliveryAnswer: Sendable, Equatable {
    public var status: Int
    /// The start of its body, for the settings page (never logged).
    public var excerpt: String

    public var ok: Bool { (200..<300).contains(status) }
    public var words: String {
        let reason = HTTPResponseStatus(statusCode: status).reasonPhrase
        return "\(status) \(reason)" + (ok || excerpt.isEmpty ? "" : ": " + excerpt)
    }
}

/// Why a delivery could not be made (no answer at all).
public struct DeliveryFailure: Error, Sendable, Equatable {
    public var message: String
}

/// Posts a notice. The live one checks every address; tests may use it against 127.0.0.1 with
/// private addresses allowed.
public protocol NotificationPosting: Sendable {
    func post(_ url: URL, headers: [(String, String)], body: Data) async throws(DeliveryFailure) -> DeliveryAnswer
}

/// Posts to a person's address only after checking where it resolves: each of the host's
/// addresses must be public (unless allowed), and the connection goes to the address checked
/// (`dnsOverride`: a second lookup cannot point it elsewhere), TLS still verified for the host
/// name. Redirects are followed (307 and 308 only: a notice is a POST) up to three, each checked
/// the same way. Bounded: 5 s to connect, 10 s in all, 16 KiB of answer read.
struct GuardedPoster: NotificationPosting {
    let allowPrivate: Bool
    static let maxRedirects = 3
    static let maxAnswerBytes = 16 * 1024

    func post(_ url: URL, headers: [(String, String)], body: Data) async throws(DeliveryFailure) -> DeliveryAnswer {
        var current = url
        for _ in 0...Self.maxRedirects {
            let (answer, location) = try await once(current, headers: headers, body: body)
            guard let location else { return answer }
            guard let next = URL(string: location, relativeTo: current)?.absoluteURL else {
                throw DeliveryFailure(message: "redirected to an address that is not one (\(location.prefix(80)))")
            }
            current = next
        }
        throw DeliveryFailure(message: "redirected more than \(Self.maxRedirects) times")
    }

    /// One exchange: its answer, and where a 307/308 sends it next.
    private func once(_ url: URL, headers: [(String, String)], body: Data) async throws(DeliveryFailure) -> (DeliveryAnswer, String?) {
        guard let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            throw DeliveryFailure(message: "not an address")
        }
        guard scheme == "https" || (scheme == "http" && allowPrivate) else {
            throw DeliveryFailure(message: "\(scheme):// is not allowed (https only)")
        }
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        var connectTo: String?
        if let literal = AddressCheck.literalVerdict(bare) {
            guard literal || allowPrivate else { throw DeliveryFailure(message: "\(host) is a private or local address (refused)") }
        } else {
            let addresses = await AddressCheck.resolve(bare)
            guard let first = addresses.first else { throw DeliveryFailure(message: "\(host) does not resolve") }
            if !allowPrivate, let refused = addresses.first(where: { AddressCheck.literalVerdict($0) == false }) {
                throw DeliveryFailure(message: "\(host) resolves to \(refused), a private or local address (refused)")
            }
            connectTo = first
        }
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5), read: .seconds(10)))
        if let connectTo { configuration.dnsOverride = [bare: connectTo] }
        let client = HTTPClient(eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup.singleton), configuration: configuration)
        do {
            var request = HTTPClientRequest(url: url.absoluteString)
            request.method = .POST
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            request.body = .bytes(ByteBuffer(bytes: body))
            let response = try await client.execute(request, timeout: .seconds(10))
            var bytes = ByteBuffer()
            for try await var part in response.body {
                let room = Self.maxAnswerBytes - bytes.readableBytes
                if room <= 0 { break }
                var slice = part.readSlice(length: min(room, part.readableBytes)) ?? ByteBuffer()
                bytes.writeBuffer(&slice)
            }
            try? await client.shutdown()
            let status = Int(response.status.code)
            let excerpt = String(String(buffer: bytes).prefix(200)).replacingOccurrences(of: "\n", with: " ")
            let location = [307, 308].contains(status) ? response.headers.first(name: "location") : nil
            if (300..<400).contains(status), location == nil {
                throw DeliveryFailure(message: "answered \(status) (a redirect a POST cannot follow)")
            }
            return (DeliveryAnswer(status: status, excerpt: excerpt), location)
        } catch let failure as DeliveryFailure {
            try? await client.shutdown()
            throw failure
        } catch {
            try? await client.shutdown()
            throw DeliveryFailure(message: Self.words(error, host: host))
        }
    }

    static func words(_ error: any Error, host: String) -> String {
        let text = "\(error)"
        if text.contains("deadlineExceeded") || text.contains("readTimeout") || text.contains("connectTimeout") {
            return "\(host) did not answer in time"
        }
        if text.contains("connectionRefused") || text.contains("Connection refused") { return "\(host) refused the connection" }
        if text.lowercased().contains("certificate") || text.contains("handshake") {
            return "\(host)’s secure connection failed (\(text.prefix(80)))"
        }
        return "could not reach \(host) (\(text.prefix(120)))"
    }
}
