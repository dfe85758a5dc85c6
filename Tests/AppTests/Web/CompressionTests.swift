import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import App

@Suite("Compression: gzip for text answers when the client accepts it")
struct CompressionTests {
    /// A gzip body unpacked by zlib's inflate (which checks the trailer's CRC-32 and length).
    static func gunzip(_ body: ByteBuffer) throws -> String {
        var body = body
        return String(buffer: try body.decompress(with: .gzip()))
    }

    func gunzip(_ body: ByteBuffer) throws -> String { try Self.gunzip(body) }

    @Test("a page, the JSON API, CSS and JavaScript come gzipped to a client that accepts it, the same bytes once unpacked")
    func compressed() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                for path in ["/movies?year=2026", "/api/v1/movies?year=2026", "/static/app.css", "/static/app.js"] {
                    let plain = try await client.execute(uri: path, method: .get, headers: [.accept: "*/*"])
                    #expect(plain.headers[.contentEncoding] == nil, "\(path): nothing asked, nothing compressed")
                    #expect(plain.headers[values: .vary].contains { $0.contains("Accept-Encoding") }, "\(path)")
                    let packed = try await client.execute(uri: path, method: .get, headers: [.accept: "*/*", .acceptEncoding: "gzip, deflate, br"])
                    #expect(packed.status == .ok)
                    #expect(packed.headers[.contentEncoding] == "gzip", "\(path)")
                    #expect(packed.headers[values: .vary].contains { $0.contains("Accept-Encoding") })
                    #expect(
                        packed.body.readableBytes * 2 < plain.body.readableBytes,
                        "\(path): \(packed.body.readableBytes) of \(plain.body.readableBytes)")
                    let unpacked = try gunzip(packed.body)
                    if path.hasPrefix("/static") {
                        #expect(unpacked == String(buffer: plain.body), "\(path)")
                    } else {
                        // Pages and JSON differ only in per-request tokens; their shape is the same.
                        #expect(unpacked.count > plain.body.readableBytes * 9 / 10)
                    }
                }
            }
        }
    }

    @Test("the 200-film Movies page: what goes over the wire")
    func moviesBytes() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let plain = try await client.get("/movies?year=2026")
                let returning = try await client.execute(
                    uri: "/movies?year=2026", method: .get, headers: [.acceptEncoding: "gzip", .cookie: TestApp.csrfCookie])
                #expect(returning.headers[.contentEncoding] == "gzip")
                #expect(returning.body.readableBytes < plain.body.readableBytes / 4)
                let first = try await client.execute(uri: "/movies?year=2026", method: .get, headers: [.acceptEncoding: "gzip"])
                #expect(first.headers[.contentEncoding] == "gzip")
                #expect(first.body.readableBytes < plain.body.readableBytes / 4)
            }
        }
    }

    @Test(
        "nothing is compressed when gzip is refused, the answer is small, not text, partial or a HEAD",
        arguments: [
            ("/movies?year=2026", "identity", HTTPRequest.Method.get),
            ("/movies?year=2026", "gzip;q=0, br", .get),
            ("/movies?year=2026", "*;q=0", .get),
            ("/movies?year=2026", "gzip", .head),
            ("/health", "gzip", .get),
            ("/static/icon-192.png", "gzip", .get),
        ])
    func notCompressed(path: String, acceptEncoding: String, method: HTTPRequest.Method) async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let response = try await client.execute(uri: path, method: method, headers: [.acceptEncoding: acceptEncoding])
                #expect(response.headers[.contentEncoding] == nil)
            }
        }
    }

    @Test("Accept-Encoding is read as RFC 9110 says")
    func acceptEncoding() {
        #expect(CompressionMiddleware.acceptsGzip("gzip"))
        #expect(CompressionMiddleware.acceptsGzip("deflate, GZIP;q=0.5"))
        #expect(CompressionMiddleware.acceptsGzip("*"))
        #expect(CompressionMiddleware.acceptsGzip("br, *;q=0.1"))
        #expect(!CompressionMiddleware.acceptsGzip(nil))
        #expect(!CompressionMiddleware.acceptsGzip("br, deflate"))
        #expect(!CompressionMiddleware.acceptsGzip("gzip;q=0"))
        #expect(!CompressionMiddleware.acceptsGzip("gzip; q=0.0"))
        #expect(!CompressionMiddleware.acceptsGzip("*;q=0, br"))
        #expect(CompressionMiddleware.acceptsGzip("gzip;q=0.001"))
    }

    @Test("Vary names Accept-Encoding once, however an earlier Vary wrote it")
    func varyOnce() {
        func vary(_ existing: [String]) -> [String] {
            var headers = HTTPFields(existing.map { HTTPField(name: .vary, value: $0) })
            CompressionMiddleware.addVary(&headers)
            return headers[values: .vary]
        }
        #expect(vary([]) == ["Accept-Encoding"])
        #expect(vary(["Accept-Encoding"]) == ["Accept-Encoding"])
        #expect(vary(["Cookie, accept-encoding"]) == ["Cookie, accept-encoding"])
        #expect(vary(["Cookie", "Origin,  ACCEPT-ENCODING"]) == ["Cookie", "Origin,  ACCEPT-ENCODING"])
        #expect(vary(["Cookie"]) == ["Cookie", "Accept-Encoding"])
        #expect(vary(["Accept-Encodings"]) == ["Accept-Encodings", "Accept-Encoding"])
    }

    @Test("an answer written in pieces, one that hardly compresses, comes whole and unpacks to the same bytes")
    func incompressibleInPieces() async throws {
        var generator = SystemRandomNumberGenerator()
        let pieces = (0..<7).map { _ in ByteBuffer(bytes: (0..<50_000).map { _ in UInt8.random(in: 0...255, using: &generator) }) }
        let router = Router(context: AppRequestContext.self)
        router.add(middleware: CompressionMiddleware())
        router.get("/pieces") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain"],
                body: ResponseBody(contentLength: 350_000) { writer in
                    for piece in pieces { try await writer.write(piece) }
                    try await writer.finish(nil)
                })
        }
        try await Application(router: router).test(.router) { client in
            let answer = try await client.execute(uri: "/pieces", method: .get, headers: [.acceptEncoding: "gzip"])
            #expect(answer.headers[.contentEncoding] == "gzip")
            var packed = answer.body
            #expect(try packed.decompress(with: .gzip()) == ByteBuffer(bytes: pieces.flatMap { $0.readableBytesView }))
        }
    }
}
