import Foundation
import Logging
import SQLKit
import ServiceLifecycle

/// Deletes what nobody can use any more, every `interval` (an hour):
/// - sessions past their end (`expires_at`) or unused for the idle timeout;
/// - abandoned visitor profiles, with their lists: a visitor profile that has no session left and
///   was made more than the idle timeout ago. Its cookie was the only way to it, so once its
///   last session is gone (ended, or idle past the timeout) nobody can reach it again, whatever
///   its lists hold; the age condition keeps a profile that is being made right now;
/// - sign-in failures and sign-up attempts that have left their throttle's window;
/// - the answers kept for `Idempotency-Key`s, two days after their write.
///
/// Where several servers share the database, one of them sweeps each hour: the `clean-up` lease
/// (`Leases`), held for most of the interval, is taken by whichever asks first.
///
/// Work is in batches of `batchSize` rows, each its own short write (other writers get their turn
/// between batches), at most `maxBatches` per kind per sweep; anything left waits for the next.
public struct SessionCleanup: Service {
    static let batchSize = 500
    static let maxBatches = 20

    let sessions: SessionService
    let logger: Logger
    let interval: TimeInterval
    /// This server, as the `clean-up` lease's owner.
    let owner: String

    public init(sessions: SessionService, logger: Logger, interval: TimeInterval = 3600, owner: String = "server-" + RequestTrace.newID()) {
        self.sessions = sessions
        self.logger = logger
        self.interval = interval
        self.owner = owner
    }

    public func run() async throws {
        try await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                // First a wait: a starting server (or a short-lived test app) does no clean-up work.
                try? await Task.sleep(for: .seconds(interval))
                guard !Task.isCancelled else { return }
                do {
                    let leases = Leases(database: sessions.database, clock: sessions.clock, owner: owner)
                    // Another server has this hour's sweep.
                    guard try await leases.take("clean-up", for: interval * 0.9) else { continue }
                    let swept = try await sweep()
                    logger.info(
                        "clean-up: \(swept.sessions) sessions and \(swept.visitors) visitor profiles deleted", metadata: ["server": "\(owner)"])
                } catch is CancellationError {
                    return
                } catch {
                    logger.error("clean-up failed (tried again in \(Int(interval)) s): \(String(reflecting: error))")
                }
            }
        }
    }

    /// One pass; returns how many sessions and visitor profiles were deleted.
    public func sweep() async throws -> (sessions: Int, visitors: Int) {
        let database = sessions.database
        let now = sessions.clock.now()
        let unusedSince = now.addingTimeInterval(-sessions.idleTimeout)
        let ended = try await batches { sql in
            try await sql.raw(
                """
                SELECT token_hash AS id FROM sessions
                WHERE (expires_at IS NOT NULL AND expires_at <= \(bind: now)) OR last_seen_at < \(bind: unusedSince)
                LIMIT \(unsafeRaw: String(Self.batchSize))
                """
            ).all().map { try $0.decode(column: "id", as: String.self) }
        } delete: { sql, ids in
            try await sql.raw("DELETE FROM sessions WHERE token_hash IN (\(binds: ids.map { $0 as any Encodable & Sendable }))").run()
        }
        let visitors = try await batches { sql in
            try await sql.raw(
                """
                SELECT p.id FROM profiles p
                WHERE p.kind = \(bind: "visitor") AND p.created_at < \(bind: unusedSince)
                AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.profile_id = p.id)
                LIMIT \(unsafeRaw: String(Self.batchSize))
                """
            ).all().map { try $0.decode(column: "id", as: UUID.self) }
        } delete: { sql, ids in
            // Their lists and last search go with them (ON DELETE CASCADE).
            try await sql.raw("DELETE FROM profiles WHERE id IN (\(binds: ids.map { $0 as any Encodable & Sendable }))").run()
        }
        let windows = [
            LoginThrottle(database: database, clock: sessions.clock).attempts, SignUpThrottle(database: database, clock: sessions.clock).attempts,
            VisitorThrottle.window(database: database, clock: sessions.clock),
            IdempotencyStore(database: database, clock: sessions.clock).expiry,
            UploadThrottle(database: database, clock: sessions.clock).person,
        ]
        let sweeps =
            windows.map { window in { @Sendable in try await window.sweep(batch: Self.batchSize) } }
            + ClientShare.all(database: database, clock: sessions.clock).map { share in { @Sendable in try await share.sweep(batch: Self.batchSize) }
            }
            + HostThrottle.Spec.all.map { spec in
                let throttle = HostThrottle(spec, database: database, clock: sessions.clock)
                return { @Sendable in try await throttle.sweep(batch: Self.batchSize) }
            }
            + [{ @Sendable in try await Leases(database: database, clock: sessions.clock, owner: "").sweep(batch: Self.batchSize) }]
        for sweep in sweeps {
            var rounds = 0
            while rounds < Self.maxBatches, try await sweep() == Self.batchSize { rounds += 1 }
        }
        return (ended, visitors)
    }

    /// Up to `maxBatches` rounds of: find a batch (inside the write), delete it; stops at a short batch.
    private func batches<ID: Encodable & Sendable>(
        find: @escaping @Sendable (any SQLDatabase) async throws -> [ID],
        delete: @escaping @Sendable (any SQLDatabase, [ID]) async throws -> Void
    ) async throws -> Int {
        var total = 0
        for _ in 0..<Self.maxBatches {
            let count = try await sessions.database.writeSQL { sql in
                let ids = try await find(sql)
                if !ids.isEmpty { try await delete(sql, ids) }
                return ids.count
            }
            total += count
            if count < Self.batchSize { break }
        }
        return total
    }
}
