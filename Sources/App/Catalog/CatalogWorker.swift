import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// The catalogue's background work, done by one server of the deployment at a time (the lease
/// `catalog-worker` in the database; any server takes over within a minute of one stopping):
///
/// - on start, the title index is filled from the bundled catalogue, and once per database from
///   every answer kept before the index existed (`TitleIndex.backfill`);
/// - titles saved by id before their details were known: films 50 to an iTunes call
///   (`lookup?id=a,b,c`), shows one TVMaze call each; the details go into every saved copy, and an
///   id the catalogue does not know is marked so (`LibraryService.fillDetails`, `markUnknown`);
/// - release years kept warm (`YearSchedule`): a year a person opened first, then every year never
///   fetched from the current one outward, then the most overdue.
///
/// A round every 2 s, so a title saved by id has its details within seconds. Its share of iTunes'
/// ~20 calls a minute: at most one call a round and `itunesPerMinute` (4, a fifth) in any minute,
/// leaving the rest to people; the deployment's throttle counts its calls with everyone's. After
/// iTunes answers 403 or 429 it asks nothing of iTunes for a minute, doubling to an hour while the
/// refusals go on (the lease `catalog-worker:backoff`, so a server taking over keeps to it too).
public struct CatalogWorker: Service {
    let catalog: MovieCatalog
    let shows: ShowCatalog
    let index: TitleIndex
    let library: LibraryService
    let leases: Leases
    let clock: any AppClock
    let logger: Logger
    var interval: TimeInterval = 2
    let state = State()

    /// What the lease holder remembers between rounds: the backoff after the last refusal (nil:
    /// none; doubled by each refusal in a row) and its iTunes calls of the last minute.
    final class State: Sendable {
        let backoff = Mutex<TimeInterval?>(nil)
        let calls = Mutex<[Date]>([])
    }

    static let itunesPerMinute = 4

    static let lease = "catalog-worker"
    static let backoffLease = "catalog-worker:backoff"
    static let showsPerRound = 5

    var requests: CatalogRequests { catalog.requests }

    public func run() async throws {
        try await cancelWhenGracefulShutdown {
            var indexed = false
            while !Task.isCancelled {
                do {
                    if try await leases.take(Self.lease, for: 30) {
                        if !indexed {
                            try await index.backfill(bundled: catalog.offline, shows: shows.offline)
                            indexed = true
                        }
                        _ = try await round()
                    }
                } catch is CancellationError {
                    return
                } catch {
                    logger.error("catalogue worker: \(String(reflecting: error)) (tried again in \(Int(interval)) s)")
                }
                try? await Task.sleep(for: .seconds(interval))
            }
        }
    }

    /// What one round did (for the tests and the log).
    struct Round: Equatable {
        var filledFilms = 0
        var unknownFilms = 0
        var year: Int?
        var shows = 0
        var itunesRefused = false
    }

    /// One round: at most one iTunes call (films waiting for their details first, then a year) and
    /// up to `showsPerRound` TVMaze calls.
    func round() async throws -> Round {
        var round = Round()
        if try await !leases.isHeld(Self.backoffLease), hasITunesCallLeft() {
            let ids = try await requests.due(.movie, limit: MovieCatalog.lookupBatch).compactMap(Int.init)
            if !ids.isEmpty {
                recordITunesCall()
                switch await catalog.lookup(ids: ids) {
                case .success(let movies):
                    let found = Dictionary(movies.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                    for id in ids {
                        if let movie = found[id] {
                            try await library.fillDetails(try movie.savedTitle())
                            round.filledFilms += 1
                        } else {
                            try await library.markUnknown(.movie, String(id))
                            round.unknownFilms += 1
                        }
                    }
                    try await requests.done(.movie, ids.map(String.init))
                    succeeded()
                case .failure(let error):
                    try await requests.later(.movie, ids.map(String.init))
                    round.itunesRefused = try await refused(error)
                }
            } else if let year = try await nextYear() {
                recordITunesCall()
                switch await catalog.refreshYear(year) {
                case .success:
                    try await requests.done(.year, [String(year)])
                    round.year = year
                    succeeded()
                case .failure(let error):
                    round.itunesRefused = try await refused(error)
                }
            }
        }
        for item in try await requests.due(.show, limit: Self.showsPerRound) {
            guard let id = Int(item) else {
                try await requests.done(.show, [item])
                continue
            }
            switch await shows.show(id: id) {
            case .found(let show, _):
                try await library.fillDetails(try show.savedTitle())
                try await requests.done(.show, [item])
                round.shows += 1
            case .notFound:
                try await library.markUnknown(.show, item)
                try await requests.done(.show, [item])
            case .unavailable:
                try await requests.later(.show, [item])
            }
        }
        return round
    }

    /// The year to fetch now, if any is due; a year asked for that is fetched already is let go.
    func nextYear() async throws -> Int? {
        let fetched = try await catalog.yearsFetched()
        let asked = try await requests.all(.year)
        let settled = asked.filter { Int($0).map { fetched[$0] != nil } ?? true }
        try await requests.done(.year, settled)
        let current = clock.currentYear
        return YearSchedule.next(
            fetched: fetched, wanted: Set(asked.compactMap(Int.init)), years: MovieCatalog.firstYear...MovieCatalog.latestYear(current: current),
            current: current, now: clock.now())
    }

    /// Fewer than `itunesPerMinute` iTunes calls in the last minute.
    private func hasITunesCallLeft() -> Bool {
        let now = clock.now()
        return state.calls.withLock { calls in
            calls.removeAll { now.timeIntervalSince($0) >= 60 }
            return calls.count < Self.itunesPerMinute
        }
    }

    private func recordITunesCall() {
        let now = clock.now()
        state.calls.withLock { $0.append(now) }
    }

    private func succeeded() { state.backoff.withLock { $0 = nil } }

    /// iTunes said no: for its own limit (403/429) nothing more is asked of it for a while.
    private func refused(_ error: UpstreamError) async throws -> Bool {
        guard case .rateLimited = error else { return false }
        let wait = state.backoff.withLock { current in
            let next = min(3600, (current ?? 30) * 2)
            current = next
            return next
        }
        logger.notice("catalogue worker: iTunes refused, asking again in \(Int(wait)) s")
        _ = try await leases.take(Self.backoffLease, for: wait)
        return true
    }
}
