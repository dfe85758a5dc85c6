import FluentKit
import Foundation

/// The advertiser console's operations: shops and offers, validated, and their reports.
public struct OfferAdmin: Sendable {
    let store: OfferStore
    let tracker: OfferTracker
    let clock: any AppClock
    /// The store orders are made for: shown in the console; its currency is the reports' revenue's.
    var referringStore = ReferringStore()
    var secrets: ShopSecrets { ShopSecrets(database: store.database, clock: clock) }

    public enum Failure: Error, Sendable {
        case invalid(ValidationFailure)
        case notFound
        /// A shop with offers cannot be deleted: its offers would lose their shop.
        case inUse(offers: Int)
    }

    var db: any Database {
        get throws { try store.database.db }
    }

    func advertisers() async throws -> [Advertiser] {
        try await AdvertiserModel.query(on: db).sort(\.$name).all().map(OfferStore.advertiser)
    }

    func advertiser(_ id: Int) async throws -> Advertiser? {
        try await AdvertiserModel.find(id, on: db).map(OfferStore.advertiser)
    }

    func offers(advertiser: Int? = nil) async throws -> [Offer] {
        var query = try OfferModel.query(on: db).sort(\.$id)
        if let advertiser { query = query.filter(\.$advertiserID == advertiser) }
        return try await query.all().compactMap(OfferStore.offer)
    }

    func offer(_ id: Int) async throws -> Offer? {
        try await OfferModel.find(id, on: db).flatMap(OfferStore.offer)
    }

    /// Creates a shop and its signing key, returned this once (`ShopSecrets`).
    func createAdvertiser(_ draft: AdvertiserDraft, logo: UploadedImage?) async throws(Failure) -> (Advertiser, key: String) {
        let shop = try await saveAdvertiser(nil, draft, logo: logo)
        do {
            return (shop, try await secrets.rotate(shop.id))
        } catch {
            throw .invalid(ValidationFailure(problems: ["form": "The shop was saved but its key could not be made (\(error)). Use Make key."]))
        }
    }

    /// Creates (`id` nil) or updates a shop. Without an uploaded logo a new shop gets a monogram.
    func saveAdvertiser(_ id: Int?, _ draft: AdvertiserDraft, logo: UploadedImage?) async throws(Failure) -> Advertiser {
        let valid: OfferRules.ValidAdvertiser
        switch OfferRules.validate(draft) {
        case .success(let value): valid = value
        case .failure(let failure): throw .invalid(failure)
        }
        do {
            let now = clock.now()
            let row = try await existingOrNew(AdvertiserModel.self, id, now: now)
            row.apply(valid, now: now)
            let image =
                logo.map { OfferImageModel(upload: $0, now: now) }
                ?? (row.logoImageID == nil
                    ? OfferImageModel(
                        contentType: "image/svg+xml",
                        bytes: GeneratedLogo.svg(monogram: GeneratedLogo.monogram(for: valid.name), color: GeneratedLogo.color(for: valid.name)),
                        now: now
                    ) : nil)
            try await save(row, with: image) { row.logoImageID = $0 }
            return OfferStore.advertiser(row)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .invalid(ValidationFailure(problems: ["form": "The shop could not be saved just now (\(error)). Try again."]))
        }
    }

    /// Pauses or resumes a whole shop; nil when there is no such shop.
    func setAdvertiserActive(_ id: Int, _ active: Bool) async throws -> Advertiser? {
        let now = clock.now()
        guard
            let row = try await store.database.write({ db -> AdvertiserModel? in
                guard let row = try await AdvertiserModel.find(id, on: db) else { return nil }
                row.pausedAt = active ? nil : now
                row.updatedAt = now
                try await row.update(on: db)
                return row
            })
        else { return nil }
        store.invalidate()
        return OfferStore.advertiser(row)
    }

    func deleteAdvertiser(_ id: Int) async throws -> Failure? {
        let failure = try await store.database.write { db -> Failure? in
            guard let row = try await AdvertiserModel.find(id, on: db) else { return .notFound }
            let count = try await OfferModel.query(on: db).filter(\.$advertiserID == id).count()
            if count > 0 { return .inUse(offers: count) }
            try await row.delete(on: db)
            return nil
        }
        if failure == nil { store.invalidate() }
        return failure
    }

    /// Creates (`id` nil) or updates an offer. An uploaded image replaces the current one.
    func saveOffer(_ id: Int?, _ draft: OfferDraft, image: UploadedImage?) async throws(Failure) -> Offer {
        do {
            let shops = Dictionary(uniqueKeysWithValues: try await advertisers().map { ($0.id, $0) })
            let valid: OfferRules.ValidOffer
            switch OfferRules.validate(draft, advertisers: shops) {
            case .success(let value): valid = value
            case .failure(let failure): throw Failure.invalid(failure)
            }
            let now = clock.now()
            let row = try await existingOrNew(OfferModel.self, id, now: now)
            row.apply(valid, now: now)
            try await save(row, with: image.map { OfferImageModel(upload: $0, now: now) }) { row.imageID = $0 }
            guard let offer = OfferStore.offer(row) else { throw Failure.notFound }
            return offer
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .invalid(ValidationFailure(problems: ["form": "The offer could not be saved just now (\(error)). Try again."]))
        }
    }

    /// Pauses or resumes; nil when there is no such offer.
    func setActive(_ id: Int, _ active: Bool) async throws -> Offer? {
        let now = clock.now()
        guard
            let row = try await store.database.write({ db -> OfferModel? in
                guard let row = try await OfferModel.find(id, on: db) else { return nil }
                row.active = active
                row.updatedAt = now
                try await row.update(on: db)
                return row
            })
        else { return nil }
        store.invalidate()
        return OfferStore.offer(row)
    }

    /// Deletes an offer; its impressions and clicks stay in the advertiser's report.
    func deleteOffer(_ id: Int) async throws -> Bool {
        let deleted = try await store.database.write { db -> Bool in
            guard let row = try await OfferModel.find(id, on: db) else { return false }
            try await row.delete(on: db)
            return true
        }
        if deleted { store.invalidate() }
        return deleted
    }

    func report(_ scope: OfferTracker.Scope, range: ReportRange) async throws -> OfferReport {
        OfferReport(range: range, counts: try await tracker.daily(scope, from: range.from, to: range.to), currency: referringStore.currency)
    }

    func totals(range: ReportRange) async throws -> [Int: OfferCounts] {
        try await tracker.totalsPerOffer(from: range.from, to: range.to)
    }

    var today: String { tracker.day() }

    /// Saves a shop or offer with its new image (if any) in one transaction; pages read the change at once.
    private func save(_ row: some AdRow, with image: OfferImageModel?, attach: (UUID?) -> Void) async throws {
        if let image { attach(image.id) }
        try await store.database.write { db in
            try await image?.create(on: db)
            try await row.save(on: db)
        }
        store.invalidate()
    }

    /// The row to update (`id` given; `notFound` if gone) or a new, non-demo one.
    private func existingOrNew<Row: AdRow>(_ type: Row.Type, _ id: Int?, now: Date) async throws -> Row {
        guard let id else { return Row(demo: false, now: now) }
        guard let existing = try await Row.find(id, on: db) else { throw Failure.notFound }
        return existing
    }
}
