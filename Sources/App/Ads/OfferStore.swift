import FluentKit
import Foundation
import Synchronization

/// Advertisers and offers in the database, and the copy pages choose from (`Caches.offers`).
public final class OfferStore: Sendable {
    /// Every server re-reads the offers this often, should a change on another machine go unheard.
    static let refreshInterval: TimeInterval = 30

    struct Snapshot: Sendable {
        let advertisers: [Int: Advertiser]
        let offers: [Offer]
        let loadedAt: Date
        /// Different for every read: what was computed from one copy is valid while it is current.
        let version: Int

        var bytes: Int { 512 * (advertisers.count + offers.count) }
    }

    let database: AppDatabase
    let clock: any AppClock
    private let copies: DeclaredCache<OffersKey, Snapshot>
    private let reads = Atomic(0)

    init(database: AppDatabase, clock: any AppClock, copies: DeclaredCache<OffersKey, Snapshot>) {
        self.database = database
        self.clock = clock
        self.copies = copies
    }

    /// The current advertisers and offers: read from the database at most every `refreshInterval`
    /// and after a change; if that read fails, an older copy still serves.
    func snapshot() async throws -> Snapshot {
        let now = clock.now()
        do {
            return try await copies.loaded(OffersKey(), bytes: \.bytes, isFresh: { now.timeIntervalSince($0.loadedAt) < Self.refreshInterval }) {
                try await read(now)
            }!
        } catch {
            guard let older = copies.get(OffersKey()) else { throw error }
            return older
        }
    }

    private func read(_ now: Date) async throws -> Snapshot {
        let advertisers = try await AdvertiserModel.query(on: database.db).all().map(Self.advertiser)
        let offers = try await OfferModel.query(on: database.db).sort(\.$id).all().compactMap(Self.offer)
        return Snapshot(
            advertisers: Dictionary(uniqueKeysWithValues: advertisers.map { ($0.id, $0) }), offers: offers, loadedAt: now,
            version: reads.add(1, ordering: .relaxed).newValue)
    }

    /// After a change: every server reads the database again for its next page (`ChangeFeed`).
    func invalidate() {
        database.changes.publish(.offers)
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

/// The one copy of every advertiser and offer (`Caches.offers`).
struct OffersKey: Hashable, Sendable {}
