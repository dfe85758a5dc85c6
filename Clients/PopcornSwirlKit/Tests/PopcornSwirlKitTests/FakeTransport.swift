import Foundation
import HTTPTypes
import OpenAPIRuntime
import PopcornSwirlKit

/// A `ClientTransport` that records each request (with its body's bytes) and answers from a script.
actor FakeTransport: ClientTransport {
    enum Answer {
        case response(status: Int, headers: HTTPFields = [:], body: String? = nil)
        case failure(any Error)

        static func json(_ status: Int, _ body: String, headers: HTTPFields = [:]) -> Answer {
            var headers = headers
            headers[.contentType] = "application/json"
            return .response(status: status, headers: headers, body: body)
        }

        static func problem(_ status: Int, headers: HTTPFields = [:]) -> Answer {
            var headers = headers
            headers[.contentType] = "application/problem+json"
            return .response(status: status, headers: headers, body: #"{"title":"Try again","status":\#(status),"detail":"Busy."}"#)
        }
    }

    struct Sent: Sendable {
        var request: HTTPRequest
        var body: [UInt8]?
        var baseURL: URL
        var operationID: String
    }

    struct Offline: Error {}

    private var script: [Answer]
    private(set) var sent: [Sent] = []

    init(_ script: [Answer]) {
        self.script = script
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        let bytes: [UInt8]? = if let body { try await [UInt8](collecting: body, upTo: 1 << 20) } else { nil }
        sent.append(Sent(request: request, body: bytes, baseURL: baseURL, operationID: operationID))
        guard !script.isEmpty else { fatalError("FakeTransport: no answer left for \(request.method) \(request.path ?? "")") }
        switch script.removeFirst() {
        case .failure(let error):
            throw error
        case .response(let status, let headers, let body):
            return (HTTPResponse(status: .init(code: status), headerFields: headers), body.map { HTTPBody($0) })
        }
    }
}

/// Records the waits a `RetryPolicy` asks for, instead of sleeping.
actor SleepRecorder {
    private(set) var sleeps: [Duration] = []

    func record(_ duration: Duration) {
        sleeps.append(duration)
    }

    /// The default policy, but sleeping into this recorder.
    nonisolated func policy(maxAttempts: Int = 4) -> RetryPolicy {
        RetryPolicy(maxAttempts: maxAttempts, sleep: { await self.record($0) })
    }
}
