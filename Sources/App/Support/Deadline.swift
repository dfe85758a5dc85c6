import Synchronization

/// Waiting on work without being held up by it.
enum Deadline {
    /// `work`'s result when it comes within `limit`; nil otherwise, and `work` goes on regardless.
    /// Task-locals (the request's client and id) go with it.
    static func first<T: Sendable>(within limit: Duration, _ work: @escaping @Sendable () async -> T) async -> T? {
        let waiter = Waiter<T?>()
        return await withCheckedContinuation { continuation in
            waiter.set(continuation)
            let timer = Task {
                // Cancelled: the work answered first (a cancelled sleep returns at once).
                guard (try? await Task.sleep(for: limit)) != nil else { return }
                waiter.resume(nil)
            }
            Task {
                let value = await work()
                // The answer first: the timer, once cancelled, must find the continuation taken.
                waiter.resume(value)
                timer.cancel()
            }
        }
    }

    /// A continuation resumed by whichever comes first; later resumes do nothing.
    private final class Waiter<T: Sendable>: Sendable {
        private let continuation = Mutex<CheckedContinuation<T, Never>?>(nil)

        func set(_ continuation: CheckedContinuation<T, Never>) { self.continuation.withLock { $0 = continuation } }
        func resume(_ value: T) { continuation.withLock { $0.take() }?.resume(returning: value) }
    }
}
