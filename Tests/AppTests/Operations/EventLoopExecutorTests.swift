import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOPosix
import Testing

@testable import App

/// The server answers each connection's requests on that connection's event loop: no thread
/// switch between reading a request, answering it and writing the answer.
@Suite("Server: a connection's requests answered on its own event loop")
struct EventLoopExecutorTests {
    struct Context: RequestContext {
        var coreContext: CoreRequestContextStorage
        let loop: any EventLoop
        init(source: Source) {
            coreContext = .init(source: source)
            loop = source.channel.eventLoop
        }
    }

    @Test("a handler and the tasks it starts run on the connection's loop, over a real socket")
    func handlerOnItsLoop() async throws {
        let router = Router(context: Context.self)
        router.get("/where") { _, context -> String in
            async let child = MultiThreadedEventLoopGroup.currentEventLoop === context.loop
            let here = MultiThreadedEventLoopGroup.currentEventLoop === context.loop
            return "\(here) \(await child)"
        }
        let app = Application(router: router, server: loopBoundHTTP1)
        try await app.test(.live) { client in
            for _ in 0..<4 {
                let answer = try await client.execute(uri: "/where", method: .get)
                #expect(String(buffer: answer.body) == "true true")
            }
        }
    }
}
