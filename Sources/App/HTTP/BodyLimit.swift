import Hummingbird
import NIOCore
import Synchronization

/// Every request body, API included, is refused past `maxBytes` while it streams in: a declared
/// `Content-Length` over the limit fails the first read before a byte is taken, and a chunked body
/// fails as soon as the bytes received pass it. Whoever reads the body answers the 413 in their own
/// form (a page, or problem+json on the API); nothing over the limit is ever held in memory.
struct BodyLimitMiddleware: RouterMiddleware {
    /// The limit: page forms, the console's image uploads (48 KB) and API JSON all fit.
    static var maxBytes: Int { 64 * 1024 }
    /// An import's upload (an export ZIP or CSV), the one exception; how many are read at once, and
    /// how fast, is the import's upload slots' to say.
    static var importMaxBytes: Int { 32 << 20 }
    /// A media server's webhook: a thumbnail (read past, never kept) and its JSON.
    static var integrationMaxBytes: Int { 8 << 20 }

    /// The limit for this request: the import upload's, or everyone else's.
    static func limit(_ request: Request) -> Int {
        guard request.method == .post else { return maxBytes }
        let path = Substring(request.uri.path)
        if Route.startImport.matches(path) { return importMaxBytes }
        if Route.integrationEvent.matches(path) { return integrationMaxBytes }
        return maxBytes
    }

    func handle(
        _ request: Request, context: AppRequestContext,
        next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        let declared = request.headers[.contentLength].flatMap { Int($0) }
        // No body announced (most GETs): nothing to wrap.
        guard declared != 0, declared != nil || request.headers[.transferEncoding] != nil else { return try await next(request, context) }
        var request = request
        var context = context
        context.maxUploadSize = Self.limit(request)
        request.body = RequestBody(asyncSequence: LimitedBody(base: request.body, limit: context.maxUploadSize, declared: declared))
        var response = try await next(request, context)
        if response.status == .contentTooLarge { response.headers[.connection] = "close" }
        return response
    }

    static var tooLarge: HTTPError { tooLarge(maxBytes) }

    static func tooLarge(_ limit: Int) -> HTTPError {
        HTTPError(.contentTooLarge, message: "The request body is larger than \(limit / 1024) KB, so nothing was read or saved.")
    }
}

/// The body's bytes, failing with a 413 past `limit` (see `BodyLimitMiddleware`).
struct LimitedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let base: RequestBody
    let limit: Int
    let declared: Int?

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: RequestBody.AsyncIterator
        let limit: Int
        let declared: Int?
        var received = 0

        mutating func next() async throws -> ByteBuffer? {
            if let declared, declared > limit { throw BodyLimitMiddleware.tooLarge(limit) }
            guard let buffer = try await base.next() else { return nil }
            received += buffer.readableBytes
            if received > limit { throw BodyLimitMiddleware.tooLarge(limit) }
            return buffer
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), limit: limit, declared: declared)
    }
}
