/// A lock held across suspension points (a Mutex cannot be): waiters resume in order.
actor AsyncLock {
    private var held = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard held else {
            held = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Hands the lock to the next waiter, if any.
    func release() {
        if waiters.isEmpty { held = false } else { waiters.removeFirst().resume() }
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
