import CompressNIO
import HTTPTypes
import Hummingbird
import NIOCore

/// The one compression step: gzip for text answers (pages, JSON, CSS, JavaScript, SVG, CSV) of
/// 1 KiB or more when the client accepts it, the whole answer at once (CompressNIO). The 200-film
/// Movies page travels as about a twentieth of its size. zlib's fastest level, as nginx's
/// `gzip_comp_level 1` default: most of the gain for a fraction of the CPU. A static file is
/// compressed once and its answer kept (`Caches.staticAnswers`, by path and validator). Every compressible answer says `Vary: Accept-Encoding`, compressed or not, so a cache
/// never hands one client's encoding to another. A body streamed without a known length (an
/// export), a partial answer (`Range`) or anything already encoded is left as it is.
struct CompressionMiddleware: RouterMiddleware {
    /// The static files' answers, compressed once (`Caches.staticAnswers`); nil: every answer
    /// compressed as it goes.
    var staticAnswers: DeclaredCache<StaticAnswerKey, ByteBuffer>? = nil

    static let minimumBytes = 1024
    /// Larger bodies (none of the pages; a big export) are sent as they are rather than held whole.
    static let maximumBytes = 8 * 1024 * 1024
    static let compressibleTypes: Set<Substring> = [
        "text/html", "text/css", "text/javascript", "application/javascript", "application/json", "application/problem+json",
        "application/manifest+json", "image/svg+xml", "text/plain", "text/csv", "application/xml",
    ]

    func handle(
        _ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        let isStatic = request.uri.path.hasPrefix(Route.staticFiles) && response.status == .ok
        guard let type = response.headers.value(.contentType), Self.isCompressible(type),
            response.headers.value(.contentEncoding) == nil, response.status != .partialContent, response.status != .notModified,
            response.status != .noContent
        else { return response }
        Self.addVary(&response.headers)
        guard let length = response.body.contentLength, Self.compresses(request, bytes: length) else { return response }
        if isStatic, let etag = response.headers.value(.eTag) {
            let key = StaticAnswerKey(path: request.uri.path, etag: etag)
            if let kept = staticAnswers?.get(key) {
                response.body = ResponseBody(byteBuffer: kept)
            } else {
                let compressed = try await Self.compressed(response.body)
                staticAnswers?.put(key, compressed, bytes: compressed.readableBytes)
                response.body = ResponseBody(byteBuffer: compressed)
            }
        } else {
            response.body = ResponseBody(byteBuffer: try await Self.compressed(response.body))
        }
        response.headers[.contentLength] = nil
        Self.markCompressed(&response.headers)
        return response
    }

    /// Whether an answer of `bytes` to `request` goes out gzipped (a handler naming its validator
    /// for a 304 needs to know which bytes it stands for).
    static func compresses(_ request: Request, bytes: Int) -> Bool {
        request.method != .head && (minimumBytes...maximumBytes).contains(bytes) && acceptsGzip(request.headers.value(.acceptEncoding))
    }

    /// The body, gathered and gzipped.
    static func compressed(_ body: ResponseBody) async throws -> ByteBuffer {
        let collected = Collected()
        try await body.write(Collecting(into: collected))
        return try collected.body.compress(with: gzip)
    }

    static let gzip = CompressionAlgorithm.gzip(configuration: .init(compressionLevel: .fastestCompression))

    /// Whether an answer of this `Content-Type` is text worth compressing.
    static func isCompressible(_ contentType: String) -> Bool {
        // The pages' and the API's own types, as they are always written: no parsing.
        if contentType == "text/html; charset=utf-8" || contentType == "application/json" { return true }
        return compressibleTypes.contains(mediaType(contentType))
    }

    /// `text/html; charset=utf-8` → `text/html`.
    static func mediaType(_ contentType: String) -> Substring {
        contentType.prefix { $0 != ";" }.trimmingPrefix(" ").prefix { $0 != " " }
    }

    static let browsersAcceptEncoding: Set<String> = ["gzip", "gzip, deflate", "gzip, deflate, br", "gzip, deflate, br, zstd"]

    /// Whether `Accept-Encoding` allows gzip: listed (or `*`) without `q=0`.
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        // What browsers send, without parsing.
        if browsersAcceptEncoding.contains(header) { return true }
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

    /// Headers of a gzip body: the encoding, `Vary`, and the validator of these bytes.
    static func markCompressed(_ headers: inout HTTPFields) {
        headers[.contentEncoding] = "gzip"
        addVary(&headers)
        if let etag = headers.value(.eTag) { headers[.eTag] = gzipValidator(etag) }
    }

    /// A strong validator names exact bytes: the compressed ones are others (`"v"` → `"v-gzip"`).
    static func gzipValidator(_ etag: String) -> String {
        guard etag.hasSuffix("\""), !etag.hasPrefix("W/") else { return etag }
        return String(etag.dropLast()) + "-gzip\""
    }

    static func addVary(_ headers: inout HTTPFields) {
        for field in headers where field.name == .vary {
            // As this server writes it: no splitting (which was 3.5 % of a shared list's CPU).
            if field.value == varyValue { return }
            if field.value.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces).lowercased() == "accept-encoding" }) {
                return
            }
        }
        headers.append(varyField)
    }

    private static let varyValue = "Accept-Encoding"
    private static let varyField = HTTPField(name: .vary, value: varyValue)

    /// A body of known length, gathered into one buffer (a page is one already). Written once, by
    /// one task.
    final class Collected: @unchecked Sendable {
        var body = ByteBuffer()
    }

    struct Collecting: ResponseBodyWriter {
        let into: Collected

        mutating func write(_ part: ByteBuffer) async throws {
            if into.body.readableBytes == 0 { into.body = part } else { into.body.writeImmutableBuffer(part) }
        }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
