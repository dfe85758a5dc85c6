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
    }

    let database: AppDatabase
    let clock: any AppClock
    private let cached = Mutex<Snapshot?>(nil)
    private let refreshing = Mutex(false)

    init(database: AppDatabase, clock: any AppClock) {
        self.database = database
        self.clock = clock
    }

    /// The current advertisers and offers. Only the first read (and the first after a change on this
    /// server) waits for the database; an older copy is served while a fresh one loads in the background.
    func snapshot() async throws -> Snapshot {
        guard let current = cached.withLock({ $0 }) else { return try await load() }
        if clock.now().timeIntervalSince(current.loadedAt) >= Self.refreshInterval,
           refreshing.withLock({ busy in busy ? false : { busy = true; return true }() }) {
            Task { [self] in
                defer { refreshing.withLock { $0 = false } }
                _ = try? await load()
            }
        }
        return current
    }

    private func load() async throws -> Snapshot {
        let now = clock.now()
        let advertisers = try await AdvertiserModel.query(on: database.db).all().map(Self.advertiser)
        let offers = try await OfferModel.query(on: database.db).sort(\.$id).all().compactMap(Self.offer)
        let fresh = Snapshot(advertisers: Dictionary(uniqueKeysWithValues: advertisers.map { ($0.id, $0) }), offers: offers, loadedAt: now)
        cached.withLock { $0 = fresh }
        return fresh
    }

    /// After a change on this server: the next page reads the database again.
    func invalidate() {
        cached.withLock { $0 = nil }
    }

    func image(_ id: UUID) async throws -> OfferImageModel? {
        try await OfferImageModel.find(id, on: database.db)
    }

    static func advertiser(_ row: AdvertiserModel) -> Advertiser {
        Advertiser(
            id: row.id ?? 0, name: row.name, description: row.description, website: row.website,
            domains: lines(row.domains), logoImageID: row.logoImageID, demo: row.demo
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
