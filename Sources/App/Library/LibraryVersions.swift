import Foundation
import Synchronization

/// A counter per profile, bumped after every committed change to its lists. Pages rendered from a
/// profile's lists remember the version they saw and are reused only while it is unchanged.
public final class LibraryVersions: Sendable {
    private let versions = Mutex<[UUID: UInt64]>([:])

    public init() {}

    public func current(_ profile: UUID) -> UInt64 {
        versions.withLock { $0[profile] ?? 0 }
    }

    func bump(_ profile: UUID) {
        versions.withLock { $0[profile, default: 0] &+= 1 }
    }
}
