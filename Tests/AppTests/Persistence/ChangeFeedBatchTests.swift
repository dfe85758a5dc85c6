import Foundation
import Synchronization
import Testing

@testable import App

@Suite("Change feed: notices sent together")
struct ChangeFeedBatchTests {
    final class Sent: Sendable {
        let payloads = Mutex<[String]>([])
        let gate = Mutex<Bool>(false)
    }

    @Test("notices published while one is being sent go together, each once; a payload of several lines is applied line by line")
    func batches() async throws {
        let sent = Sent()
        let feed = ChangeFeed(
            send: { payload in
                sent.payloads.withLock { $0.append(payload) }
                // The first send takes its time: everything published meanwhile waits for the next.
                while !sent.gate.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
            }, logger: TestDatabase.logger)
        let person = UUID()
        feed.publish(.offers)
        for _ in 0..<500 { feed.publish(.person(person)) }
        feed.publish(.episodes(show: 590))
        sent.gate.withLock { $0 = true }
        try await Task.sleep(for: .milliseconds(200))
        let payloads = sent.payloads.withLock { $0 }
        #expect((1...2).contains(payloads.count), "502 notices in one or two NOTIFYs (the first may go alone)")
        let lines = payloads.flatMap { $0.split(separator: "\n").map(String.init) }
        #expect(lines.map { $0.split(separator: " ", maxSplits: 1)[1] } == ["offers", "person \(person.uuidString)", "episodes 590"])
        #expect(lines.allSatisfy { $0.hasPrefix(feed.origin + " ") })

        // Another server's payload of several notices.
        let other = ChangeFeed(send: nil, logger: TestDatabase.logger)
        let heard = Mutex<[ChangeFeed.Change]>([])
        other.subscribe { change in heard.withLock { $0.append(change) } }
        other.receive(payloads.joined(separator: "\n"))
        #expect(heard.withLock { $0 } == [.offers, .person(person), .episodes(show: 590)])
        // Payloads stay under NOTIFY's limit.
        let many = (0..<400).map { _ in "\(feed.origin) person \(UUID().uuidString)" }
        #expect(ChangeFeed.chunks(many).allSatisfy { $0.utf8.count <= ChangeFeed.maxPayloadBytes })
        #expect(ChangeFeed.chunks(many).flatMap { $0.split(separator: "\n") }.count == 400)
    }
}
