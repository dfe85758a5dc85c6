import Logging
import ServiceLifecycle
import Synchronization

/// Whether this server should be sent requests (`/ready`): not once shutdown has begun, and not
/// while its database does not answer.
public final class Readiness: Sendable {
    private let draining = Atomic<Bool>(false)
    /// Nil when the database answers; why not otherwise.
    let probe: @Sendable () async -> String?

    init(probe: @escaping @Sendable () async -> String?) {
        self.probe = probe
    }

    /// The database answers `SELECT 1` and takes a write (`AppDatabase.probeWrite`), within
    /// `timeout`: with the disk full or the file read-only every write fails while reads still work,
    /// and this server must not be sent requests then.
    convenience init(database: AppDatabase, server: String, timeout: Duration = .seconds(2)) {
        self.init {
            let answered = await Deadline.first(within: timeout) { () async -> String? in
                do {
                    try await database.ping()
                } catch {
                    return "the database did not answer: \(error)"
                }
                do {
                    try await database.probeWrite(server: server)
                    return nil
                } catch {
                    return "the database refused a write: \(error)"
                }
            }
            return answered ?? "the database did not answer within \(timeout)"
        }
    }

    public var isDraining: Bool { draining.load(ordering: .relaxed) }

    /// From now on `/ready` answers 503, so a balancer sends this server nothing new.
    public func beginDraining() { draining.store(true, ordering: .relaxed) }

    /// Nil when ready; otherwise why not, for the 503's text.
    func check() async -> String? {
        if isDraining { return "shutting down" }
        return await probe()
    }
}

/// The first service told of a shutdown: `/ready` turns 503, and requests keep being served for
/// `drain` so a balancer polling `/ready` moves traffic away before the listener closes. Then the
/// HTTP server finishes what is in flight (within the group's graceful-shutdown bound).
struct DrainService: Service {
    let readiness: Readiness
    let drain: Duration
    let logger: Logger

    func run() async throws {
        // Returns once shutdown begins (throws when cancelled instead).
        try await gracefulShutdown()
        readiness.beginDraining()
        logger.info("shutting down: /ready answers 503", metadata: ["drain_seconds": "\(drain.components.seconds)"])
        if drain > .zero { try? await Task.sleep(for: drain) }
    }
}
