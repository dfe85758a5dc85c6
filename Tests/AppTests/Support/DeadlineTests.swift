import Testing

@testable import App

@Suite("Deadline: a result when it comes in time")
struct DeadlineTests {
    @Test("work that answers at once is never taken for late (the timer, cancelled, must not answer first)")
    func fastWorkWins() async {
        var late = 0
        for n in 0..<2000 {
            let answer = await Deadline.first(within: .seconds(30)) { n }
            if answer != n { late += 1 }
        }
        #expect(late == 0)
    }

    @Test("work past the limit: nil at the limit, and the work still runs to its end")
    func slowWork() async throws {
        let done = Heard()
        let started = ContinuousClock.now
        let answer = await Deadline.first(within: .milliseconds(100)) { () async -> Int in
            try? await Task.sleep(for: .milliseconds(400))
            done.mark()
            return 1
        }
        #expect(answer == nil)
        #expect(ContinuousClock.now - started < .milliseconds(390))
        try await Task.sleep(for: .milliseconds(600))
        #expect(done.value)
    }
}
