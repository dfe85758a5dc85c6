import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import SQLKit

/// A write (POST, PUT, PATCH, DELETE) sent with an `Idempotency-Key` header is done once per key
/// and caller: the same key sent again gets the first answer (marked `Idempotent-Replayed: true`)
/// without the write being done again; while the first is still being answered, 409; with another
/// request, 422. Answers of 500 and above, 408 and 429, and failures, are not kept, so the key can
/// be retried.
/// A write without the header, or from a caller with no token, session or signed visitor id, is done as before.
struct IdempotencyMiddleware: RouterMiddleware {
    static let header = HTTPField.Name("Idempotency-Key")!
    static let replayed = HTTPField.Name("Idempotent-Replayed")!
    let store: IdempotencyStore

    /// 1 to 255 visible ASCII characters (a UUID is the usual one).
    static func isWellFormed(_ key: String) -> Bool {
        (1...255).contains(key.utf8.count) && key.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    func handle(
        _ request: Request, context: AppRequestContext,
        next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        guard [.post, .put, .patch, .delete].contains(request.method), let key = request.headers.value(Self.header) else {
            return try await next(request, context)
        }
        guard Self.isWellFormed(key) else {
            throw HTTPError(.badRequest, message: "An Idempotency-Key is 1 to 255 visible ASCII characters, such as a UUID.")
        }
        guard let scope = Self.scope(request, context) else { return try await next(request, context) }
        var request = request
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        let fingerprint = Self.fingerprint(request.method, request.uri.path, request.uri.query, body)
        switch try await store.claim(scope: scope, key: key, fingerprint: fingerprint) {
        case .answered(let answer):
            var headers = HTTPFields()
            headers[.contentType] = answer.contentType
            headers[.location] = answer.location
            headers[Self.replayed] = "true"
            return Response(
                status: .init(code: answer.status), headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
        case .inProgress:
            throw HTTPError(.conflict, message: "A request with this Idempotency-Key is still being answered. Try again in a moment.")
        case .mismatch:
            throw HTTPError(
                .unprocessableContent, message: "This Idempotency-Key was already used for another request. Send a new key with each change.")
        case .claimed(let id):
            let response: Response
            do {
                response = try await next(request, context)
            } catch {
                try? await store.release(id)
                throw error
            }
            return try await remember(response, id)
        }
    }

    /// An answer worth repeating: not a failure (5xx) and not "not now" (408, 429), which the same
    /// request sent again later should get past.
    static func isFinal(_ status: HTTPResponse.Status) -> Bool {
        status.code < 500 && status != .requestTimeout && status != .tooManyRequests
    }

    /// What a key was first sent with: SHA-256 of the method, path, query and body.
    static func fingerprint(_ method: HTTPRequest.Method, _ path: String, _ query: String?, _ body: ByteBuffer) -> String {
        var hash = SHA256()
        hash.update(data: Data("\(method.rawValue) \(path)?\(query ?? "")\n".utf8))
        hash.update(data: Data(body.readableBytesView))
        return Hex.string(hash.finalize())
    }

    /// Whose keys: an API token's (hashed), else the session's profile, else the browser's signed
    /// visitor id. Nil for a caller with none of them: a key cannot be tied to anyone, so it is not
    /// kept (two cookieless clients sending one key shared one scope, and the second was answered
    /// with the first's reply while nothing was done for it).
    static func scope(_ request: Request, _ context: AppRequestContext) -> String? {
        if let authorization = request.headers[.authorization] { return "token:" + SessionService.hash(authorization) }
        if let profile = context.profileID { return "profile:" + profile.uuidString.lowercased() }
        return context.hasVisitorCookie && !context.visitor.isEmpty ? "visitor:" + context.visitor : nil
    }

    /// Keeps the answer (its body read into memory: a write's answer is small) and returns it.
    private func remember(_ response: Response, _ id: UUID) async throws -> Response {
        var response = response
        let collected = Collected()
        try await response.body.write(CollectingWriter(collected: collected))
        let bytes = collected.buffer
        response.body = ResponseBody(byteBuffer: bytes)
        if Self.isFinal(response.status), bytes.readableBytes <= IdempotencyStore.maxBody {
            let answer = IdempotencyStore.Answer(
                status: response.status.code, contentType: response.headers[.contentType], location: response.headers[.location],
                body: Data(bytes.readableBytesView))
            // The write is done whatever happens here: a key that could not be kept is freed.
            do { try await store.keep(id, answer) } catch { try? await store.release(id) }
        } else {
            try? await store.release(id)
        }
        return response
    }
}

private final class Collected: @unchecked Sendable {
    var buffer = ByteBuffer()
}

private struct CollectingWriter: ResponseBodyWriter {
    let collected: Collected

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        collected.buffer.writeBuffer(&buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
