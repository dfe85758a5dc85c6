import FluentKit
import Logging
import SQLKit
import Synchronization

/// SQLite's writes, committed in groups. SQLite has one writer, and a commit with `synchronous =
/// FULL` waits for the disk (0.3 ms here) besides its `BEGIN` and `COMMIT`: one transaction per
/// write held rating changes to 285 a second. Writes that arrive while a group is being written
/// wait for the next group, which runs them one after another in one transaction, each inside a
/// savepoint: a write that fails rolls back to its savepoint and leaves the others whole. Each
/// caller hears of its write once the group is committed, so nothing is reported saved before it
/// is on disk.
final class GroupCommit: Sendable {
    /// At most this many writes in one transaction (a group is done in a few milliseconds).
    static let maxGroup = 64

    private struct Pending: Sendable {
        /// Runs the write on the transaction's connection; false when it failed (its error is kept for `finish`).
        let run: @Sendable (any Database) async -> Bool
        /// Tells the caller: its own result, or `error` when the group was not committed.
        let finish: @Sendable ((any Error)?) -> Void
    }

    private let state = Mutex<(queue: [Pending], draining: Bool)>(([], false))
    /// The writer connection's database (its pool of one).
    let connection: @Sendable () -> any Database
    private let logger: Logger

    init(logger: Logger, connection: @escaping @Sendable () -> any Database) {
        self.connection = connection
        self.logger = logger
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any Database) async throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let outcome = Mutex<Result<T, any Error>?>(nil)
            let pending = Pending(
                run: { db in
                    do {
                        let value = try await WriteTransaction.$current.withValue(db) { try await body(db) }
                        outcome.withLock { $0 = .success(value) }
                        return true
                    } catch {
                        outcome.withLock { $0 = .failure(error) }
                        return false
                    }
                },
                finish: { groupError in
                    if let groupError { return continuation.resume(throwing: groupError) }
                    continuation.resume(with: outcome.withLock { $0 } ?? .failure(GroupError.notRun))
                })
            let start = state.withLock { state in
                state.queue.append(pending)
                defer { state.draining = true }
                return !state.draining
            }
            if start { Task { await drain() } }
        }
    }

    enum GroupError: Error { case notRun }

    /// Writes groups until no write is waiting.
    private func drain() async {
        while true {
            let group: [Pending] = state.withLock { state in
                let taken = Array(state.queue.prefix(Self.maxGroup))
                state.queue.removeFirst(taken.count)
                if taken.isEmpty { state.draining = false }
                return taken
            }
            if group.isEmpty { return }
            await commit(group)
        }
    }

    private func commit(_ group: [Pending]) async {
        do {
            try await connection().withConnection { db in
                let sql = db as! any SQLDatabase
                try await sql.raw("BEGIN IMMEDIATE").run()
                do {
                    if group.count == 1 {
                        // Alone: the transaction is its savepoint.
                        if !(await group[0].run(db)) {
                            try await sql.raw("ROLLBACK").run()
                            return group[0].finish(nil)
                        }
                    } else {
                        for pending in group {
                            try await sql.raw("SAVEPOINT write").run()
                            if !(await pending.run(db)) { try await sql.raw("ROLLBACK TO write").run() }
                            try await sql.raw("RELEASE write").run()
                        }
                    }
                    try await sql.raw("COMMIT").run()
                } catch {
                    try? await sql.raw("ROLLBACK").run()
                    throw error
                }
                for pending in group { pending.finish(nil) }
            }
        } catch {
            // The group's transaction failed as a whole (the disk, the connection): nothing of it was kept.
            logger.error("database write group of \(group.count) failed: \(String(reflecting: error))")
            for pending in group { pending.finish(error) }
        }
    }
}
