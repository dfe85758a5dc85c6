import FluentKit
import Foundation
import Logging
import SQLKit
import Synchronization

/// Counts impressions (one per visitor, offer and UTC day; at most `caps.impressions` per client
/// address) and clicks (one per visitor, offer and 30-minute UTC window, at most `caps.clicks`
/// per address and day; the others are counted as discarded, see `OfferTracker.Click`).
///
/// Impressions are queued in memory and written in batches within a second, so showing an offer
/// never waits for the database; the table's primary key removes duplicates across servers.
/// Clicks are written before the redirect, one row each; the database decides which one counts.
public final class OfferTracker: Sendable {
    struct Impression: Hashable, Sendable {
        let offer: Int
        let advertiser: Int
        let visitor: String
        /// The client address, keyed: at most `caps.impressions` are counted per address, offer and day.
        let address: String
        let day: String
    }

    static let batchSize = 200
    /// Past this many unwritten impressions (the database is down), new ones are dropped and logged.
    static let maxPending = 100_000

    let database: AppDatabase
    let clock: any AppClock
    let logger: Logger
    let flushDelay: Duration
    let caps: AddressCaps
    private let pending = Mutex<[Impression]>([])
    /// Clicks whose own insert failed (a busy database): written by the next flush, never dropped.
    private let pendingClicks = Mutex<[Click]>([])
    /// Impressions already queued today: repeat views skip the queue entirely.
    private let queued = Mutex<(day: String, keys: Set<Impression>)>(("", []))
    /// One flush at a time; a caller that finds one running waits for it, then writes what is left.
    private let flushLock = AsyncLock()
    /// Set by `close()`: the database is about to shut down, so a timer's flush must not touch it.
    private let closed = Mutex(false)

    init(database: AppDatabase, clock: any AppClock, logger: Logger, flushDelay: Duration = .seconds(1), caps: AddressCaps = AddressCaps()) {
        self.database = database
        self.caps = caps
        self.clock = clock
        self.logger = logger
        self.flushDelay = flushDelay
    }

    func day(_ date: Date? = nil) -> String { (date ?? clock.now()).formatted(UTCFormatters.dayStyle) }

    /// Impressions and clicks queued in memory, not yet written (the metrics' queue lengths).
    var queueLengths: (impressions: Int, clicks: Int) { (pending.withLock { $0.count }, pendingClicks.withLock { $0.count }) }

    /// Records that `viewer` was shown these offers (on `today`, when the caller already has it). Never waits and never fails.
    func impressions(_ offers: [Offer], viewer: OfferViewer, on today: String? = nil) {
        let today = today ?? day()
        let fresh: [Impression] = queued.withLock { state in
            if state.day != today || state.keys.count > 500_000 { state = (today, []) }
            return offers.map { Impression(offer: $0.id, advertiser: $0.advertiserID, visitor: viewer.id, address: viewer.address, day: today) }
                .filter { state.keys.insert($0).inserted }
        }
        guard !fresh.isEmpty else { return }
        let startTimer: Bool = pending.withLock { queue in
            guard queue.count + fresh.count <= Self.maxPending else { return false }
            let wasEmpty = queue.isEmpty
            queue.append(contentsOf: fresh)
            return wasEmpty
        }
        if startTimer { scheduleFlush() }
    }

    private func scheduleFlush() {
        let delay = flushDelay
        Task { [self] in
            try? await Task.sleep(for: delay)
            await flush()
        }
    }

    /// Writes what is queued and stops the timers' flushes: call before the database closes.
    public func close() async {
        await flushLock.acquire()
        await drain()
        closed.withLock { $0 = true }
        await flushLock.release()
    }

    /// Writes every impression queued before the call (waiting for a flush already writing).
    /// Reports call this first, so they are always current.
    public func flush() async {
        await flushLock.acquire()
        await drain()
        await flushLock.release()
    }

    private func drain() async {
        guard !closed.withLock({ $0 }) else { return }
        guard
            await writeQueued(
                "Clicks", take: { take(from: pendingClicks) }, putBack: { batch in pendingClicks.withLock { $0.insert(contentsOf: batch, at: 0) } },
                write: write)
        else { return }
        _ = await writeQueued(
            "Impressions", take: { take(from: pending) }, putBack: { batch in pending.withLock { $0.insert(contentsOf: batch, at: 0) } }, write: write
        )
    }

    private func take<Item>(from queue: borrowing Mutex<[Item]>) -> [Item] {
        queue.withLock { queue in
            let batch = Array(queue.prefix(Self.batchSize))
            queue.removeFirst(batch.count)
            return batch
        }
    }

    /// Writes batches until `take` gives none; false (the batch put back, logged) when a write fails.
    private func writeQueued<Item>(
        _ what: String, take: () -> [Item], putBack: ([Item]) -> Void, write: ([Item]) async throws -> Void
    ) async -> Bool {
        while true {
            let batch = take()
            if batch.isEmpty { return true }
            do {
                try await write(batch)
            } catch {
                logger.warning("\(what) not written yet: \(error)", metadata: ["count": "\(batch.count)"])
                putBack(batch)
                return false
            }
        }
    }

    private func write(_ batch: [Impression]) async throws {
        try await database.writeSQL { [caps] sql in try await Self.insert(batch, cap: caps.impressions, on: sql) }
    }

    /// One statement per impression: it is counted unless its address already has
    /// `cap` on the offer that day, and the primary key keeps one per visitor.
    private static func insert(_ batch: [Impression], cap: Int, on sql: any SQLDatabase) async throws {
        for impression in batch {
            try await sql.raw(
                """
                INSERT INTO offer_impressions (offer_id, advertiser_id, visitor, day, address)
                SELECT \(bind: impression.offer), \(bind: impression.advertiser), \(bind: impression.visitor), \(bind: impression.day),
                \(bind: impression.address)
                WHERE (SELECT COUNT(*) FROM offer_impressions WHERE offer_id = \(bind: impression.offer) AND day = \(bind: impression.day)
                AND address = \(bind: impression.address)) < \(bind: AddressCaps.bound(cap, address: impression.address))
                ON CONFLICT (offer_id, visitor, day) DO NOTHING
                """
            ).run()
        }
    }

    /// One click, written before the visitor is sent on: counted if it is the visitor's first on this
    /// offer in its window and its address is within its day's cap, else counted as discarded (why);
    /// `crossSite` is discarded at once.
    /// If the database refuses (busy, down), the click is queued for the next flush instead, and the
    /// error is passed on for the log.
    @discardableResult
    func click(
        _ offer: Offer, viewer: OfferViewer, title: TitleRef?, discarded: DiscardedClick? = nil, id: UUID = UUID()
    ) async throws -> DiscardedClick? {
        let now = clock.now()
        let click = Click(
            id: id, offer: offer.id, advertiser: offer.advertiserID, visitor: viewer.id, address: viewer.address, title: title?.description,
            day: day(now), at: now,
            discarded: discarded)
        do {
            return try await database.writeSQL { [caps] sql in try await Self.insert(click, cap: caps.clicks, on: sql) }
        } catch {
            let startTimer = pendingClicks.withLock { queue in
                queue.append(click)
                return queue.count == 1 && pending.withLock(\.isEmpty)
            }
            if startTimer { scheduleFlush() }
            throw error
        }
    }

    private func write(_ clicks: [Click]) async throws {
        try await database.writeSQL { [caps] sql in
            for click in clicks { try await Self.insert(click, cap: caps.clicks, on: sql) }
        }
    }
}
