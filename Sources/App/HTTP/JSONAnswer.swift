import Foundation
import Hummingbird
import NIOCore

enum JSONAnswer {
    static func ok(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(data: try encoder.encode(value))))
    }

    /// RFC 9457 problem details, as the API uses.
    static func error(_ status: HTTPResponse.Status, _ detail: String) throws -> Response {
        struct Problem: Encodable {
            let type: String
            let title: String
            let status: Int
            let detail: String
        }
        var response = try ok(Problem(type: "about:blank", title: status.reasonPhrase, status: status.code, detail: detail), status: status)
        response.headers[.contentType] = "application/problem+json"
        return response
    }
}
