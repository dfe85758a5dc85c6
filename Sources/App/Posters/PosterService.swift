import Crypto
import Foundation
import Logging

/// Posters through our own origin: fetched once from an allow-listed image host, kept on disk,
/// served with long-lived cache headers. Anything that cannot be fetched is drawn as an SVG.
public final class PosterService: Sendable {
    public struct Image: Sendable {
        public var body: Data
        public var contentType: String
        /// Real images never change at a given URL; generated ones are replaced once the real one arrives.
        public var isGenerated: Bool
    }

    public enum PosterError: Error, Equatable {
        case hostNotAllowed
    }

    static let maxImageBytes = 5 * 1024 * 1024

    let directory: URL
    let http: any UpstreamHTTP
    let imageBaseURL: String?
    let offline: Bool
    let breaker: HostBreaker
    /// At most 20 fetches a second per image host, whatever the number of distinct posters asked for.
    let throttle: HostThrottle
    let logger: Logger
    private let flight = SingleFlight<String, Data, UpstreamError>()

    public init(directory: String, http: any UpstreamHTTP, imageBaseURL: String?, offline: Bool, breaker: HostBreaker, logger: Logger) {
        self.directory = URL(fileURLWithPath: directory, isDirectory: true)
        self.http = http
        self.imageBaseURL = imageBaseURL
        self.offline = offline
        self.breaker = breaker
        self.throttle = HostThrottle(limit: 20, window: 1, clock: breaker.clock)
        self.logger = logger
    }

    /// Apple's artwork CDN and TVMaze's image host, over HTTPS: nothing else is ever fetched.
    /// The one spelling of a poster address, which is also its cache key: `https://host/path`, the
    /// host in lower case, no port, user, query or fragment (`?v=2`, `#x`, `:443` and letter-case
    /// variants are one file). Refused (nil): anything but HTTPS on an allowed host, and any path
    /// with escapes or `.`/`..` segments, so no decoding can climb out of a host's folder.
    static func canonical(_ source: String) -> String? {
        guard let parts = URLComponents(string: source), parts.scheme?.lowercased() == "https", let host = parts.host?.lowercased(),
            parts.user == nil, parts.password == nil, parts.port == nil || parts.port == 443, isAllowedHost(host)
        else { return nil }
        let path = parts.percentEncodedPath
        guard path.hasPrefix("/"), path.utf8.count <= 512,
            path.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "/._-".contains($0)) }),
            !path.split(separator: "/").contains(where: { $0 == "." || $0 == ".." })
        else { return nil }
        return "https://\(host)\(path)"
    }

    private static func isAllowedHost(_ host: String) -> Bool {
        host == "static.tvmaze.com"
            || (host.hasSuffix(".mzstatic.com")
                && host.dropLast(".mzstatic.com".count).allSatisfy {
                    $0.isLetter || $0.isNumber || $0 == "-"
                })
    }

    public func poster(source: String?, seed: Int, title: String) async throws(PosterError) -> Image {
        guard let source else { return generated(seed: seed, title: title) }
        guard let canonical = Self.canonical(source), let url = URL(string: canonical) else { throw .hostNotAllowed }
        let file = directory.appendingPathComponent(Self.fileName(for: canonical))
        if let data = try? Data(contentsOf: file) {
            return Image(body: data, contentType: Self.sniffContentType(data), isGenerated: false)
        }
        let fetchURL = rewritten(url)
        let result = await flight.run(canonical) { [self] in await self.fetch(fetchURL, into: file) }
        switch result {
        case .success(let data): return Image(body: data, contentType: Self.sniffContentType(data), isGenerated: false)
        case .failure: return generated(seed: seed, title: title)
        }
    }

    /// Fetches posters into the cache ahead of need (saved shows must have them offline). Best effort.
    public func prefetch(_ sources: [String]) async {
        for source in sources {
            _ = try? await poster(source: source, seed: 0, title: "")
        }
    }

    static func fileName(for source: String) -> String {
        TextDigest.hex(source) + ".img"
    }

    /// `IMAGE_BASE_URL/<host>/<path>` from the canonical address (its path has no escapes or dot segments).
    private func rewritten(_ url: URL) -> URL {
        guard let imageBaseURL, let host = url.host else { return url }
        return URL(string: "\(imageBaseURL)/\(host)\(url.path(percentEncoded: true))") ?? url
    }

    private func fetch(_ url: URL, into file: URL) async -> Result<Data, UpstreamError> {
        if offline { return .failure(.offlineMode) }
        let host = url.host ?? ""
        if breaker.isOpen(host) { return .failure(.hostDown) }
        guard throttle.tryAcquire(host) else { return .failure(.throttled) }
        let response: UpstreamResponse
        do {
            // Streamed with the cap: a larger answer is abandoned at 5 MiB, never held whole.
            response = try await http.get(url, headers: [("Accept", "image/*")], maxBytes: Self.maxImageBytes)
        } catch {
            if error.isUnreachable { breaker.recordUnreachable(host) }
            return .failure(error)
        }
        guard response.status == 200 else { return .failure(.badStatus(response.status)) }
        guard !response.body.isEmpty, response.body.count <= Self.maxImageBytes,
            Self.sniffContentType(response.body) != "application/octet-stream"
        else { return .failure(.malformed("not an image")) }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try response.body.write(to: file, options: .atomic)
        } catch {
            logger.warning("poster cache write failed", metadata: ["error": "\(error)"])
        }
        return .success(response.body)
    }

    /// The type comes from the bytes, not from the upstream's header: we never serve anything else as an image.
    static func sniffContentType(_ data: Data) -> String {
        let bytes = [UInt8](data.prefix(12))
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if bytes.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) { return "image/webp" }
        return "application/octet-stream"
    }

    func generated(seed: Int, title: String) -> Image {
        Image(body: Data(GeneratedPoster.svg(seed: seed, title: title).utf8), contentType: "image/svg+xml", isGenerated: true)
    }
}
