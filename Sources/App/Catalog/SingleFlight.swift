/// Coalesces concurrent work per key: while a call for a key is running, later callers
/// await the same result instead of starting another upstream request.
public actor SingleFlight<Key: Hashable & Sendable, Value: Sendable> {
    private var running: [Key: Task<Result<Value, UpstreamError>, Never>] = [:]

    public init() {}

    public func run(
        _ key: Key,
        _ work: @escaping @Sendable () async -> Result<Value, UpstreamError>
    ) async -> Result<Value, UpstreamError> {
        if let task = running[key] { return await task.value }
        let task = Task { await work() }
        running[key] = task
        let result = await task.value
        running[key] = nil
        return result
    }
}
