import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import App

/// The real HTTP client against a real socket on 127.0.0.1.
@Suite("AsyncHTTPClient upstream against a local server")
struct AsyncHTTPUpstreamTests {
    func withServer(_ body: @Sendable @escaping (Int) async throws -> Void) async throws {
        let router = Router()
        router.get("/ok") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/javascript; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: "{\"resultCount\":0,\"results\":[]}")))
        }
        router.get("/forbidden") { _, _ in Response(status: .forbidden) }
        router.get("/slow") { _, _ -> String in
            try await Task.sleep(for: .seconds(2))
            return "late"
        }
        // Headers at once, then the body a byte every 100 ms: 4 s in all, never idle for long.
        router.get("/trickle") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "image/jpeg", .contentLength: "40"],
                body: ResponseBody { writer in
                    for _ in 0..<40 {
                        try await writer.write(ByteBuffer(string: "x"))
                        try await Task.sleep(for: .milliseconds(100))
                    }
                    try await writer.finish(nil)
                })
        }
        router.get("/redirect") { _, _ in Response.redirect(to: "http://127.0.0.1:1/elsewhere") }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in try await body(client.port!) }
    }

    @Test("returns status, content type and body; a 403 with an empty body is just a status")
    func basics() async throws {
        try await withServer { port in
            let http = AsyncHTTPUpstream()
            let ok = try await http.get(URL(string: "http://127.0.0.1:\(port)/ok")!, headers: [])
            #expect(ok.status == 200)
            #expect(ok.contentType?.hasPrefix("text/javascript") == true)
            #expect(try ITunesDecoder.movies(from: ok.body).isEmpty)
            let forbidden = try await http.get(URL(string: "http://127.0.0.1:\(port)/forbidden")!, headers: [])
            #expect(forbidden.status == 403 && forbidden.body.isEmpty)
            let redirect = try await http.get(URL(string: "http://127.0.0.1:\(port)/redirect")!, headers: [])
            #expect(redirect.status == 303, "redirects are not followed")
            #expect(redirect.location == "http://127.0.0.1:1/elsewhere", "where it pointed is told")
            await http.shutdown()
        }
    }

    @Test("a slow answer becomes 'unreachable' at the total timeout")
    func timeout() async throws {
        try await withServer { port in
            let http = AsyncHTTPUpstream(connectTimeout: .seconds(2), totalTimeout: .milliseconds(500))
            let started = ContinuousClock.now
            await #expect(throws: UpstreamError.self) { try await http.get(URL(string: "http://127.0.0.1:\(port)/slow")!, headers: []) }
            #expect(ContinuousClock.now - started < .seconds(3))
            await http.shutdown()
        }
    }

    @Test("a host sending its body a byte at a time is cut off at the total timeout, body included")
    func tricklingBody() async throws {
        try await withServer { port in
            let http = AsyncHTTPUpstream(connectTimeout: .seconds(2), totalTimeout: .seconds(1))
            let started = ContinuousClock.now
            let url = URL(string: "http://127.0.0.1:\(port)/trickle")!
            do throws(UpstreamError) {
                let answer = try await http.get(url, headers: [])
                Issue.record("the whole 4 s body was waited for: \(answer.body.count) bytes")
            } catch {
                #expect(error.isUnreachable)
            }
            #expect(ContinuousClock.now - started < .seconds(3), "cut off near the 1 s limit, not after the 4 s body")
            await http.shutdown()
        }
    }

    @Test("a refused connection is 'unreachable'")
    func refused() async throws {
        let http = AsyncHTTPUpstream()
        do {
            _ = try await http.get(URL(string: "http://127.0.0.1:1/")!, headers: [])
            Issue.record("expected an error")
        } catch {
            #expect(error.isUnreachable)
        }
        await http.shutdown()
    }
}
