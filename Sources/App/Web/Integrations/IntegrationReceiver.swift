import Foundation
import HTTPTypes
import Hummingbird
import Logging
import MultipartKit
import NIOCore

/// `POST /integrations/{kind}/{token}`: a media server's webhook. Registered before the visitor's
/// session is looked up (a server has no cookie). The event is stored, answered 202 with its
/// receipt, and matched right after (`IntegrationWorker.process`; every server's worker sweeps
/// what is left). A wrong or revoked token, or one of another kind, is 404; a body that is no
/// event is 422 saying what was wrong; the same event again is the same receipt.
///
/// Bodies: Jellyfin's JSON (sent as `text/plain` by default, so any type is read as JSON), Emby's
/// JSON or its form field `data`, Plex's `multipart/form-data` whose `payload` part is the JSON.
/// A multipart body is cut into parts as it streams in (multipart-kit's parser, fed chunk by
/// chunk): the thumbnail Plex attaches is read past, never kept; the JSON part may weigh 256 KiB.
struct IntegrationReceiver {
    let integrations: Integrations
    let worker: IntegrationWorker
    let logger: Logger

    /// The most a webhook's whole body may weigh: a thumbnail and a payload.
    static var maxBodyBytes: Int { BodyLimitMiddleware.integrationMaxBytes }

    func register(on router: some RouterMethods<AppRequestContext>) {
        router.on(Route.integrationEvent) { request, context in try await receive(request, context) }
    }

    struct Receipt: Encodable {
        var receipt: String
        /// The same event came before (a retry): nothing new was stored.
        var duplicate: Bool
    }

    func receive(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let kind = context.parameters.get("kind").flatMap(IntegrationKind.init(rawValue:)), let token = context.parameters.get("id"),
            let integration = try await integrations.integration(token: token, kind: kind)
        else {
            return try JSONAnswer.error(
                .notFound, "No such integration URL: it was revoked, or it is another server’s. Copy it again from your Integrations page.")
        }
        let event: MediaEvent
        let body: Data
        do {
            body = try await Self.eventBody(request, kind: kind)
            event = try MediaEventFormats.event(kind: kind, MediaEventFormats.json(body))
        } catch let error as MediaEventError {
            return try JSONAnswer.error(.unprocessableContent, error.message)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            return try JSONAnswer.error(.contentTooLarge, "The body is larger than \(Self.maxBodyBytes >> 20) MiB, so nothing was read or saved.")
        }
        let (receipt, isNew) = try await integrations.receive(event, body: body, for: integration)
        if isNew {
            let (worker, logger) = (worker, logger)
            Task {
                do { try await worker.process(receipt) } catch {
                    logger.warning("integrations: an event is left for the worker", metadata: ["error": "\(error)"])
                }
            }
        }
        return try JSONAnswer.ok(Receipt(receipt: receipt.uuidString.lowercased(), duplicate: !isNew), status: .accepted)
    }

    /// The event's JSON: the whole body, or the `payload` (Plex) or `data` (Emby) field of a form.
    static func eventBody(_ request: Request, kind: IntegrationKind) async throws -> Data {
        let contentType = request.headers[.contentType] ?? ""
        if let boundary = MultipartForm.boundary(contentType) {
            return try await multipartField(request.body, boundary: boundary, names: ["payload", "data"])
        }
        var collected = ByteBuffer()
        for try await chunk in request.body {
            guard collected.readableBytes + chunk.readableBytes <= MediaEventFormats.maxJSONBytes else {
                throw MediaEventError(message: "The event is larger than 256 KiB.")
            }
            var chunk = chunk
            collected.writeBuffer(&chunk)
        }
        if contentType.lowercased().hasPrefix("application/x-www-form-urlencoded") {
            let form = MultipartForm.urlEncoded(String(buffer: collected))
            guard let field = ["payload", "data"].lazy.compactMap({ form.fields[$0]?.first }).first else {
                throw MediaEventError(message: "The form has no “payload” or “data” field holding the event.")
            }
            return Data(field.utf8)
        }
        return Data(collected.readableBytesView)
    }

    /// The first part named one of `names`, read as the body streams in; every other part's bytes
    /// are dropped as they come.
    static func multipartField(_ body: some AsyncSequence<ByteBuffer, any Error>, boundary: String, names: Set<String>) async throws -> Data {
        let state = PartState()
        let parser = MultipartParser(boundary: boundary)
        parser.onHeader = { name, value in state.headers.append((name, value)) }
        parser.onBody = { bytes in
            if state.keeping == nil {
                let disposition = state.headers.first { $0.0.lowercased() == "content-disposition" }?.1 ?? ""
                state.keeping = state.found == nil && names.contains(MultipartForm.parameter("name", in: Substring(disposition)) ?? "")
            }
            guard state.keeping == true else { return }
            if state.kept.readableBytes + bytes.readableBytes > MediaEventFormats.maxJSONBytes {
                state.tooLarge = true
                state.keeping = false
                return
            }
            state.kept.writeBuffer(&bytes)
        }
        parser.onPartComplete = {
            if state.keeping == true { state.found = Data(state.kept.readableBytesView) }
            state.headers = []
            state.keeping = nil
            state.kept.clear()
        }
        do {
            for try await chunk in body { try parser.execute(chunk) }
        } catch let error as HTTPError {
            throw error
        } catch {
            throw MediaEventError(message: "The multipart body could not be read.")
        }
        if state.tooLarge { throw MediaEventError(message: "The event is larger than 256 KiB.") }
        guard let found = state.found else { throw MediaEventError(message: "The form has no “payload” part holding the event.") }
        return found
    }

    /// The multipart parser's callbacks' state: the part being read, and the one kept.
    private final class PartState {
        var headers: [(String, String)] = []
        var keeping: Bool?
        var kept = ByteBuffer()
        var found: Data?
        var tooLarge = false
    }
}
