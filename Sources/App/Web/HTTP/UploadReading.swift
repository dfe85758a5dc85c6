import Hummingbird
import NIOCore
import Synchronization

/// How an import's upload (up to 32 MiB) is read: at most `perServer` at once on a server, one at a
/// time per person and `perAddress` per client address (each may hold its bytes a few times over),
/// and each within a deadline for the whole body and at a minimum average rate. Two sockets
/// trickling a byte every 20 s used to hold the server's two slots for as long as they lived (the
/// idle timeout restarts with each byte), and took them before any check of who was asking.
final class UploadSlots: Sendable {
    static let perServer = 4
    static let perAddress = 2
    /// The whole body within this, and on average at least `minimumRate` bytes a second once
    /// `grace` has passed: a 32 MiB export at 1 Mbit/s takes about 4.5 minutes.
    static let deadline: Duration = .seconds(300)
    static let grace: Duration = .seconds(15)
    static let minimumRate = 8 * 1024

    private struct Held {
        var people: Set<String> = []
        var addresses: [String: Int] = [:]
        var count = 0
    }
    private let held = Mutex(Held())

    enum Refusal: Error {
        case yoursInProgress, busy
    }

    /// A slot for `person` from `address`, released by `release`; a refusal when none is free.
    func take(person: String, address: String) throws(Refusal) {
        try held.withLock { (held: inout Held) throws(Refusal) in
            guard !held.people.contains(person) else { throw .yoursInProgress }
            guard held.count < Self.perServer, held.addresses[address, default: 0] < Self.perAddress else { throw .busy }
            held.people.insert(person)
            held.addresses[address, default: 0] += 1
            held.count += 1
        }
    }

    func release(person: String, address: String) {
        held.withLock { held in
            held.people.remove(person)
            held.addresses[address, default: 1] -= 1
            if held.addresses[address] == 0 { held.addresses[address] = nil }
            held.count -= 1
        }
    }

    struct TooSlow: Error {}

    /// Bytes of the body in so far, read by the watch.
    private final class Received: Sendable {
        let bytes = Atomic<Int>(0)
    }

    /// The body, up to the context's limit, read within the deadline and at the minimum rate;
    /// `TooSlow` otherwise (the read is cancelled where it stands).
    static func read(_ request: Request, _ context: AppRequestContext) async throws -> ByteBuffer {
        let received = Received()
        let limit = context.maxUploadSize
        return try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask {
                var buffer = ByteBuffer()
                for try await var chunk in request.body {
                    received.bytes.add(chunk.readableBytes, ordering: .relaxed)
                    buffer.writeBuffer(&chunk)
                    guard buffer.readableBytes <= limit else { throw Self.tooLarge(limit) }
                }
                return buffer
            }
            group.addTask {
                let started = ContinuousClock.now
                while true {
                    try await Task.sleep(for: .milliseconds(250))
                    let elapsed = ContinuousClock.now - started
                    if elapsed > deadline { return nil }
                    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                    if elapsed > grace, Double(received.bytes.load(ordering: .relaxed)) < seconds * Double(minimumRate) { return nil }
                }
            }
            defer { group.cancelAll() }
            do {
                guard let first = try await group.next(), let body = first else { throw TooSlow() }
                return body
            } catch let error as HTTPError where error.status == .contentTooLarge {
                // Past the limit as it streamed in, or as declared (`BodyLimitMiddleware`): said in MiB.
                throw Self.tooLarge(limit)
            }
        }
    }

    static func tooLarge(_ limit: Int) -> HTTPError {
        HTTPError(.contentTooLarge, message: "The file is larger than \(limit >> 20) MiB, so nothing was imported.")
    }
}
