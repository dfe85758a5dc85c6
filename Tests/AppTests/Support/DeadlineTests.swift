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
        let (released, done) = (Heard(), Heard())
        // The work cannot end before `first` has answered: only the timer can answer it.
        let answer = await Deadline.first(within: .milliseconds(100)) { () async -> Int in
            while !released.value { try? await Task.sleep(for: .milliseconds(10)) }
            done.mark()
            return 1
        }
        #expect(answer == nil)
        released.mark()
        for _ in 0..<500 where !done.value { try await Task.sleep(for: .milliseconds(10)) }
        #expect(done.value, "the work went on after the answer")
    }
}
