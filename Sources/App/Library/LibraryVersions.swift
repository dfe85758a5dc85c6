import Foundation
import Synchronization

/// A counter per profile, bumped after every committed change to its lists (and to its last and
/// recent searches, which a kept search page shows). Pages rendered from a
/// profile's lists remember the version they saw and are reused only while it is unchanged. A
/// second counter moves only with the profile's watches (every change but a saved title's flags,
/// rating or note that logs no watch): the statistics' figures read from the diary keep to it.
///
/// Servers sharing a PostgreSQL database hear of each other's changes through the `ChangeFeed` and
/// move their own counters; when the feed was down, every counter moves (`epoch`).
public final class LibraryVersions: Sendable {
    private let versions = Mutex<[UUID: (all: UInt64, watches: UInt64)]>([:])
    /// Added to every counter: moved when anything may have changed unheard.
    private let epoch = Atomic<UInt64>(0)
    private let feed: ChangeFeed?

    public init(feed: ChangeFeed? = nil) {
        self.feed = feed
        feed?.subscribe { [weak self] change in
            switch change {
            case .library(let profile, let watches): self?.move(profile, watches: watches)
            case .everything: self?.epoch.add(1, ordering: .relaxed)
            default: break
            }
        }
    }

    public func current(_ profile: UUID) -> UInt64 {
        versions.withLock { $0[profile]?.all ?? 0 } &+ epoch.load(ordering: .relaxed)
    }

    /// What a page kept for `profile` is keyed and checked by: the owner as text ("-" for every
    /// visitor without a profile, who all see the same page) and the version it is kept at.
    func owner(_ profile: UUID?) -> (key: String, version: UInt64) {
        guard let profile else { return ("-", 0) }
        return ("\(profile)", current(profile))
    }

    func watches(_ profile: UUID) -> UInt64 {
        versions.withLock { $0[profile]?.watches ?? 0 } &+ epoch.load(ordering: .relaxed)
    }

    /// `watches`: false only where the change cannot have touched the profile's watches. The
    /// other servers are told.
    func bump(_ profile: UUID, watches: Bool = true) {
        move(profile, watches: watches)
        feed?.publish(.library(profile: profile, watches: watches))
    }

    private func move(_ profile: UUID, watches: Bool) {
        versions.withLock { table in
            var version = table[profile] ?? (0, 0)
            version.all &+= 1
            if watches { version.watches &+= 1 }
            table[profile] = version
        }
    }
}
