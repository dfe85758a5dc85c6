import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// `GET /api/v1/library`'s answers kept as the bytes they were sent as, per person and query, while
/// that person's `LibraryVersions` counter is unchanged (and for `maxAge` at most, the bound on a
/// write made on another server reaching this one). The answer depends on nothing else: the rows
/// are the person's, and the JSON is made of them alone.
///
/// Profiled under load (`scripts/bench --only api-library --perf`), each read spent 26 % of its CPU
/// in the generated JSON encoding, 21 % in SQLite's query, 8 % reading its rows and 10 % more making
/// entries and links, again for every read of an unchanged library. A kept answer also keeps its
/// gzip bytes, made once.
///
/// Runs after `APISessionMiddleware`: the caller is known and allowed before anything kept is read,
/// and a caller without lists is answered as before (401).
struct KeptLibraryAnswersMiddleware: RouterMiddleware {
    let kept: KeptLibraryAnswers
    let versions: LibraryVersions

    func handle(
        _ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        guard request.method == .get, request.uri.path == APIRoute.library, let profile = APIScope.session?.existing else {
            return try await next(request, context)
        }
        // Read before answering: a write landing meanwhile moves the counter past the answer kept.
        let (owner, version) = versions.owner(profile)
        // The query as sent and the `Accept` the answer was negotiated for.
        let key = owner + " " + (request.uri.query ?? "") + " " + (request.headers[.accept] ?? "")
        if let answer = kept.get(key, version: version) { return answer.response(gzip: RequestScope.acceptsGzip) }
        let response = try await next(request, context)
        guard response.status == .ok, response.headers[.contentEncoding] == nil, let length = response.body.contentLength,
            length <= KeptLibraryAnswers.maxAnswerBytes
        else { return response }
        let collected = Collected(capacity: length)
        try await response.body.write(collected)
        let answer = KeptLibraryAnswers.Answer(headers: response.headers, body: collected.buffer)
        kept.put(key, version: version, answer: answer)
        return answer.response(gzip: RequestScope.acceptsGzip)
    }

    /// A response body's bytes, gathered as they are written.
    private final class Collected: ResponseBodyWriter {
        var buffer: ByteBuffer

        init(capacity: Int) { buffer = ByteBufferAllocator().buffer(capacity: capacity) }

        func write(_ part: ByteBuffer) async throws {
            var part = part
            buffer.writeBuffer(&part)
        }

        func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}

/// The kept answers (see `KeptLibraryAnswersMiddleware`), bounded by their bytes: past `maxBytes`
/// the table starts over.
final class KeptLibraryAnswers: Sendable {
    /// A page of the library is 60 entries, about 25 KiB of JSON; nothing larger is kept.
    static let maxAnswerBytes = 256 * 1024

    struct Answer: Sendable {
        let headers: HTTPFields
        let body: ByteBuffer
        /// The body as one gzip stream, when it is worth compressing (`CompressionMiddleware`).
        let gzip: ByteBuffer?

        init(headers: HTTPFields, body: ByteBuffer) {
            self.headers = headers
            self.body = body
            self.gzip =
                body.readableBytes >= CompressionMiddleware.minimumBytes
                ? try? { () throws -> ByteBuffer in
                    let writer = try GzipWriter(expectedBytes: body.readableBytes)
                    try writer.write(body)
                    return try writer.finish()
                }() : nil
        }

        var bytes: Int { body.readableBytes + (gzip?.readableBytes ?? 0) }

        func response(gzip accepted: Bool) -> Response {
            var headers = headers
            guard accepted, let gzip else { return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body)) }
            headers[.contentLength] = nil
            CompressionMiddleware.markCompressed(&headers)
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: gzip))
        }
    }

    private struct Entry {
        let version: UInt64
        var storedAt: Date
        let answer: Answer
    }

    let maxAge: TimeInterval
    let clock: any AppClock
    private let table: Mutex<ByteBoundedTable<Entry>>

    init(maxBytes: Int = 4 * 1024 * 1024, maxAge: TimeInterval = 2, clock: any AppClock) {
        self.maxAge = maxAge
        self.clock = clock
        table = Mutex(ByteBoundedTable(maxBytes: maxBytes))
    }

    /// The answer kept under `key` at `version`. Past `maxAge` the first caller gets nil and makes
    /// the answer again, while the others are handed the kept one meanwhile (its time is moved on
    /// for them): 64 readers of one library at once would otherwise all query and encode it again
    /// at the same moment, every `maxAge`.
    func get(_ key: String, version: UInt64) -> Answer? {
        let now = clock.now()
        return table.withLock { table in
            guard var entry = table[key], entry.version == version else { return nil }
            guard now.timeIntervalSince(entry.storedAt) >= maxAge else { return entry.answer }
            entry.storedAt = now
            table.put(key, entry, bytes: entry.answer.bytes)
            return nil
        }
    }

    func put(_ key: String, version: UInt64, answer: Answer) {
        let entry = Entry(version: version, storedAt: clock.now(), answer: answer)
        table.withLock { $0.put(key, entry, bytes: answer.bytes) }
    }
}
