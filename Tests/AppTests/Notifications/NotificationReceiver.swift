import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization

@testable import App

/// A notification target on 127.0.0.1: it keeps every request and answers with the status a test
/// sets (`/hook`), or sends a 307 on (`/moved` → `/hook`).
final class NotificationReceiver: Sendable {
    struct Received: Sendable {
        var path: String
        var headers: HTTPFields
        var body: Data
    }

    private let received = Mutex<[Received]>([])
    private let status = Mutex<HTTPResponse.Status>(.ok)

    var requests: [Received] { received.withLock { $0 } }
    func answer(_ status: HTTPResponse.Status) { self.status.withLock { $0 = status } }

    /// Runs `body` with the receiver listening; it is given the receiver's base address.
    static func with<T: Sendable>(_ body: @Sendable (NotificationReceiver, String) async throws -> T) async throws -> T {
        let receiver = NotificationReceiver()
        let router = Router()
        router.post("/hook") { request, _ -> Response in
            let bytes = try await request.body.collect(upTo: 1 << 20)
            receiver.received.withLock {
                $0.append(Received(path: request.uri.path, headers: request.headers, body: Data(buffer: bytes)))
            }
            return Response(status: receiver.status.withLock { $0 }, body: ResponseBody(byteBuffer: ByteBuffer(string: "{\"ok\":true}")))
        }
        router.post("/moved") { _, _ -> Response in
            Response(status: .temporaryRedirect, headers: [.location: "/hook"])
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        return try await app.test(.live) { client in try await body(receiver, "http://127.0.0.1:\(client.port!)") }
    }
}
