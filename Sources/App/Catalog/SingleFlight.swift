/// Coalesces concurrent work per key: while a call for a key is running, later callers
/// await the same result instead of starting the same work again.
public actor SingleFlight<Key: Hashable & Sendable, Value: Sendable, Failure: Error> {
    private var running: [Key: Task<Result<Value, Failure>, Never>] = [:]

    public init() {}

    public func run(
        _ key: Key,
        _ work: @escaping @Sendable () async -> Result<Value, Failure>
    ) async -> Result<Value, Failure> {
        if let task = running[key] { return await task.value }
        let task = Task { await work() }
        running[key] = task
        let result = await task.value
        running[key] = nil
        return result
    }
}
