import Foundation

/// Single flight across servers: the process's `flight` makes one call per key here, and the
/// `leases` table makes one call per key among every server sharing the database.
extension CachedUpstream {
    /// The call for `key`, made by this server unless another server sharing the database is
    /// making it (`leases`): then the answer is the one it stores.
    func callOnce(
        key: String, url: URL, policy: FetchPolicy, validate: @Sendable (Data) throws -> Void, known: Date?
    ) async -> Result<CachedBody, UpstreamError> {
        guard let leases, !offline else { return await callUpstream(key: key, url: url, policy: policy, validate: validate) }
        let name = "upstream:" + key
        // The database failing to answer must not stop the call: it is made as on a server of its own.
        guard (try? await leases.take(name, for: Self.leaseSeconds)) ?? true else {
            return await answerOfOtherServer(key: key, lease: name, newerThan: known, leases: leases)
        }
        let result = await callUpstream(key: key, url: url, policy: policy, validate: validate)
        try? await leases.release(name)
        return result
    }

    /// Longer than any one call (8 s, plus a 2 s back-off and its retry): a server that dies
    /// mid-call holds the key this long at most.
    static let leaseSeconds: TimeInterval = 20

    /// Another server is calling for `key`: polls the store for an answer newer than `known` until
    /// that server lets go of the lease (with none stored, its call failed) or the lease's time is up.
    private func answerOfOtherServer(key: String, lease: String, newerThan known: Date?, leases: Leases) async -> Result<CachedBody, UpstreamError> {
        func stored() async -> CachedBody? {
            guard let entry = try? await store.read(key), entry.fetchedAt > (known ?? .distantPast) else { return nil }
            return entry
        }
        let deadline = ContinuousClock.now + .seconds(Self.leaseSeconds)
        while ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
            if let entry = await stored() { return .success(entry) }
            if (try? await leases.isHeld(lease)) == false {
                // It may have stored its answer just before letting go.
                return await stored().map { .success($0) } ?? .failure(.unreachable("another server's call failed"))
            }
        }
        return .failure(.unreachable("another server's call took too long"))
    }
}
