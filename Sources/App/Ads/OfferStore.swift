import FluentKit
import Foundation
import Synchronization

/// Advertisers and offers in the database, and the in-memory copy pages choose from.
public final class OfferStore: Sendable {
    /// Every server re-reads the offers this often, so a change made on another machine shows up.
    static let refreshInterval: TimeInterval = 30

    struct Snapshot: Sendable {
        let advertisers: [Int: Advertiser]
        let offers: [Offer]
        let loadedAt: Date
        /// Different for every read: what was computed from one copy is valid while it is current.
        let version: Int
    }

    let database: AppDatabase
    let clock: any AppClock
    private let cached = Mutex<Snapshot?>(nil)
    /// Concurrent page views that find the copy old share one database read.
    private let loads = SingleFlight<Int, Snapshot, any Error>()
    /// Bumped by every change: a read that started before it is not kept, nor shared with later callers.
    private let generation = Mutex(0)
    private let reads = Mutex(0)

    init(database: AppDatabase, clock: any AppClock) {
        self.database = database
        self.clock = clock
        database.changes.subscribe { [weak self] change in
            if change == .offers || change == .everything { self?.forgetCopy() }
        }
    }

    /// The current advertisers and offers: read from the database at most every `refreshInterval`
    /// (and after a change on this server); if that read fails, the copy in memory still serves.
    func snapshot() async throws -> Snapshot {
        guard let current = cached.withLock({ $0 }) else { return try await load() }
        guard clock.now().timeIntervalSince(current.loadedAt) >= Self.refreshInterval else { return current }
        return (try? await load()) ?? current
    }

    private func load() async throws -> Snapshot {
        let started = generation.withLock { $0 }
        return try await loads.run(started) { [self] in
            do { return .success(try await read(started)) } catch { return .failure(error) }
        }.get()
    }

    private func read(_ started: Int) async throws -> Snapshot {
        let now = clock.now()
        let advertisers = try await AdvertiserModel.query(on: database.db).all().map(Self.advertiser)
        let offers = try await OfferModel.query(on: database.db).sort(\.$id).all().compactMap(Self.offer)
        let fresh = Snapshot(
            advertisers: Dictionary(uniqueKeysWithValues: advertisers.map { ($0.id, $0) }), offers: offers, loadedAt: now,
            version: reads.withLock {
                $0 += 1
                return $0
            }
        )
        if generation.withLock({ $0 }) == started { cached.withLock { $0 = fresh } }
        return fresh
    }

    /// After a change on this server: the next page here reads the database again, and so does
    /// the next on every other server sharing the database (`ChangeFeed`).
    func invalidate() {
        forgetCopy()
        database.changes.publish(.offers)
    }

    private func forgetCopy() {
        generation.withLock { $0 += 1 }
        cached.withLock { $0 = nil }
    }

    func image(_ id: UUID) async throws -> OfferImageModel? {
        try await OfferImageModel.find(id, on: database.db)
    }

    static func advertiser(_ row: AdvertiserModel) -> Advertiser {
        Advertiser(
            id: row.id ?? 0, name: row.name, description: row.description, website: row.website,
            domains: lines(row.domains), logoImageID: row.logoImageID, demo: row.demo, active: row.pausedAt == nil
        )
    }

    /// Nil for a row whose landing URL no longer parses: such an offer is never shown.
    static func offer(_ row: OfferModel) -> Offer? {
        guard let id = row.id, let landing = URL(string: row.landingURL) else { return nil }
        return Offer(
            id: id, advertiserID: row.advertiserID, headline: row.headline, description: row.description, imageID: row.imageID,
            priceText: row.priceText, landingURL: landing, genres: Set(lines(row.genres)), keywords: lines(row.keywords),
            media: OfferMedia(rawValue: row.media) ?? .both, startsOn: row.startsOn, endsOn: row.endsOn,
            weight: row.weight, active: row.active, demo: row.demo
        )
    }

    static func lines(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
