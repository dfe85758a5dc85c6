import CompressNIO
import HTTPTypes
import Hummingbird
import NIOCore

/// gzip for text answers (pages, JSON, CSS, JavaScript, SVG, CSV) of 1 KiB or more when the
/// client accepts it: the 200-film Movies page travels as about a twentieth of its size. zlib's
/// fastest level, as nginx's `gzip_comp_level 1` default: most of the gain for a fraction of the
/// CPU. Every compressible answer says `Vary: Accept-Encoding`, compressed or not, so a cache
/// never hands one client's encoding to another. A body streamed without a known length (an
/// export), a partial answer (`Range`) or anything already encoded is left as it is.
struct CompressionMiddleware: RouterMiddleware {
    static let minimumBytes = 1024
    /// Larger bodies (none of the pages; a big export) are sent as they are rather than held whole.
    static let maximumBytes = 8 * 1024 * 1024
    static let compressibleTypes: Set<Substring> = [
        "text/html", "text/css", "text/javascript", "application/javascript", "application/json", "application/problem+json",
        "application/manifest+json", "image/svg+xml", "text/plain", "text/csv", "application/xml",
    ]
    static let algorithm = CompressionAlgorithm.gzip(configuration: .init(compressionLevel: .fastestCompression))

    func handle(
        _ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        // A page made of cached parts compresses itself (`PageParts.response`): GETs only, whose
        // answers no middleware keeps (`IdempotencyMiddleware` keeps writes' answers uncompressed).
        let accepted = Self.acceptsGzip(request.headers[.acceptEncoding])
        var response = try await RequestScope.$acceptsGzip.withValue(request.method == .get && accepted) { try await next(request, context) }
        guard let type = response.headers[.contentType], Self.compressibleTypes.contains(Self.mediaType(type)),
            response.headers[.contentEncoding] == nil, response.status != .partialContent, response.status != .notModified,
            response.status != .noContent
        else { return response }
        Self.addVary(&response.headers)
        guard request.method != .head, accepted, let length = response.body.contentLength,
            (Self.minimumBytes...Self.maximumBytes).contains(length)
        else { return response }
        let sink = Sink(capacity: length)
        try await response.body.write(Collected(sink: sink))
        var plain = sink.buffer
        let compressed = try plain.compress(with: Self.algorithm)
        response.body = ResponseBody(byteBuffer: compressed)
        response.headers[.contentEncoding] = "gzip"
        response.headers[.contentLength] = nil
        // A strong validator names these exact bytes: the compressed ones are others.
        if let etag = response.headers[.eTag], etag.hasSuffix("\""), !etag.hasPrefix("W/") {
            response.headers[.eTag] = String(etag.dropLast()) + "-gzip\""
        }
        return response
    }

    /// `text/html; charset=utf-8` → `text/html`.
    static func mediaType(_ contentType: String) -> Substring {
        contentType.prefix { $0 != ";" }.trimmingPrefix(" ").prefix { $0 != " " }
    }

    /// Whether `Accept-Encoding` allows gzip: listed (or `*`) without `q=0`.
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        var star: Bool?
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first else { continue }
            let refused = parts.dropFirst().contains { $0.replacingOccurrences(of: " ", with: "").hasPrefix("q=0") && Double($0.dropFirst(2)) == 0 }
            if coding == "gzip" || coding == "x-gzip" { return !refused }
            if coding == "*" { star = !refused }
        }
        return star ?? false
    }

    static func addVary(_ headers: inout HTTPFields) {
        let vary = headers[values: .vary]
        guard
            !vary.contains(where: { $0.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "accept-encoding" } })
        else { return }
        headers.append(HTTPField(name: .vary, value: "Accept-Encoding"))
    }

    /// Every buffer written, in one (the body is written once, by one task).
    final class Sink {
        var buffer: ByteBuffer
        init(capacity: Int) { buffer = ByteBufferAllocator().buffer(capacity: capacity) }
    }

    struct Collected: ResponseBodyWriter {
        let sink: Sink

        mutating func write(_ part: ByteBuffer) async throws {
            var part = part
            sink.buffer.writeBuffer(&part)
        }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
