/// A lock held across suspension points (a Mutex cannot be): at most `permits` holders at once
/// (one unless told otherwise), waiters resume in order.
actor AsyncLock {
    private var available: Int
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(permits: Int = 1) {
        available = permits
    }

    func acquire() async {
        guard available == 0 else {
            available -= 1
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Hands the permit to the next waiter, if any.
    func release() {
        if waiters.isEmpty { available += 1 } else { waiters.removeFirst().resume() }
    }

    /// Runs `body` holding the lock.
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await acquire()
        do {
            let result = try await body()
            release()
            return result
        } catch {
            release()
            throw error
        }
    }
}
