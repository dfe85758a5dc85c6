import Foundation
import Synchronization

/// A counter per profile, bumped after every committed change to its lists. Pages rendered from a
/// profile's lists remember the version they saw and are reused only while it is unchanged. A
/// second counter moves only with the profile's watches (every change but a saved title's flags,
/// rating or note that logs no watch): the statistics' figures read from the diary keep to it.
public final class LibraryVersions: Sendable {
    private let versions = Mutex<[UUID: (all: UInt64, watches: UInt64)]>([:])

    public init() {}

    public func current(_ profile: UUID) -> UInt64 {
        versions.withLock { $0[profile]?.all ?? 0 }
    }

    func watches(_ profile: UUID) -> UInt64 {
        versions.withLock { $0[profile]?.watches ?? 0 }
    }

    /// `watches`: false only where the change cannot have touched the profile's watches.
    func bump(_ profile: UUID, watches: Bool = true) {
        versions.withLock { table in
            var version = table[profile] ?? (0, 0)
            version.all &+= 1
            if watches { version.watches &+= 1 }
            table[profile] = version
        }
    }
}
