import FluentKit
import FluentSQLiteDriver
import Logging
import NIOPosix
import SQLKit
import Synchronization

/// SQLite's writes, committed in groups. SQLite has one writer, and a commit with `synchronous =
/// FULL` waits for the disk (0.3 ms here) besides its `BEGIN` and `COMMIT`: one transaction per
/// write held rating changes to 285 a second. Writes that arrive while a group is being written
/// wait for the next group, which runs them one after another in one transaction. A write that
/// fails is undone alone: each write of a group runs in a savepoint that its failure rolls back
/// to, so the others stay whole and every write's body runs exactly once. Each caller hears of its
/// write once the group is committed, so nothing is reported saved before it is on disk.
///
/// One task, the writer, holds the writer connection for the process's life and runs every group
/// on that connection's own thread (`PoolExecutor`). Checked out per group from Fluent's pool, the
/// connection came with a new task on the shared pool, and every statement's answer went back
/// there, behind 64 connections' requests: a group of 31 rating changes took 6.5 ms, 1.2 of them to
/// begin and 3 to hand its callers their answers after its `COMMIT`.
final class GroupCommit: Sendable {
    /// At most this many writes in one transaction (a group is done in a few milliseconds).
    static let maxGroup = 64

    private struct Pending: Sendable {
        /// Runs the write on the transaction's connection; false when it failed (its error is kept for `finish`).
        let run: @Sendable (any Database) async -> Bool
        /// Tells the caller: its own result, or `error` when the group was not committed.
        let finish: @Sendable ((any Error)?) -> Void
    }

    private struct State {
        var queue: [Pending] = []
        /// The writer, waiting for the next write.
        var idle: CheckedContinuation<Void, Never>?
        /// Set once the process is stopping: writes are refused.
        var refusal: (any Error)?
    }

    private let state = Mutex(State())
    /// The writer connection's pool (of one), on an event loop of its own.
    private let databases: Databases
    private let loop: MultiThreadedEventLoopGroup
    /// The writer connection's thread: its statements run there, and so does the writer.
    private let executor = PoolExecutor()
    private let logger: Logger
    private let writer = Mutex<Task<Void, Never>?>(nil)

    init(path: String, logger: Logger) {
        loop = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        databases = Databases(threadPool: executor.pool, on: loop)
        databases.use(.sqlite(.init(storage: .file(path: path)), sqlLogLevel: .trace), as: .sqliteWriter)
        self.logger = logger
    }

    enum GroupError: Error { case notRun }

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
            let (refusal, idle) = state.withLock { state -> ((any Error)?, CheckedContinuation<Void, Never>?) in
                if let refusal = state.refusal { return (refusal, nil) }
                state.queue.append(pending)
                defer { state.idle = nil }
                return (nil, state.idle)
            }
            if let refusal { return continuation.resume(throwing: refusal) }
            idle?.resume()
        }
    }

    /// Stops taking writes, commits those already queued, and closes the connection.
    func shutdown() async {
        let idle = state.withLock { state in
            if state.refusal == nil { state.refusal = DatabaseShutDown() }
            defer { state.idle = nil }
            return state.idle
        }
        idle?.resume()
        await writer.withLock { $0 }?.value
        // Queued with no writer to take them (it never started): refused, not left waiting.
        let left = state.withLock { state in
            defer { state.queue = [] }
            return state.queue
        }
        for pending in left { pending.finish(DatabaseShutDown()) }
        await databases.shutdownAsync()
        try? await loop.shutdownGracefully()
        await executor.shutdown()
    }

    /// Starts the writer (once the readers have put the file in WAL mode).
    func start() {
        writer.withLock { $0 = $0 ?? Task(executorPreference: executor) { await self.run() } }
    }

    /// The writer: holds the connection and commits groups until the process stops. When the
    /// connection fails, the writes waiting then fail with it and the writer opens it again.
    private func run() async {
        while !isStopping {
            do {
                try await databases.database(.sqliteWriter, logger: logger, on: loop.next())!.withConnection { db in
                    // Fluent runs this in a task of its own on the shared pool: back to the connection's thread.
                    try await withTaskExecutorPreference(self.executor) {
                        let sql = db as! any SQLDatabase
                        try await sql.raw("PRAGMA busy_timeout = 5000").run()
                        try await sql.raw("PRAGMA synchronous = FULL").run()
                        while let group = await self.nextGroup() { await self.commit(group, on: db) }
                    }
                }
            } catch {
                logger.critical("the SQLite writer connection failed: \(String(reflecting: error))")
                let queued = state.withLock { state in
                    defer { state.queue = [] }
                    return state.queue
                }
                for pending in queued { pending.finish(error) }
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    private var isStopping: Bool { state.withLock { $0.refusal != nil } }

    /// The next writes waiting, at most `maxGroup`; nil once stopping with none left.
    private func nextGroup() async -> [Pending]? {
        while true {
            let group: [Pending]? = state.withLock { state in
                if state.queue.isEmpty { return state.refusal == nil ? [] : nil }
                let taken = Array(state.queue.prefix(Self.maxGroup))
                state.queue.removeFirst(taken.count)
                return taken
            }
            guard let group, group.isEmpty else { return group }
            await withCheckedContinuation { idle in
                let now = state.withLock { state in
                    guard state.queue.isEmpty, state.refusal == nil else { return true }
                    state.idle = idle
                    return false
                }
                if now { idle.resume() }
            }
        }
    }

    private func commit(_ group: [Pending], on db: any Database) async {
        let sql = db as! any SQLDatabase
        do {
            try await sql.raw("BEGIN IMMEDIATE").run()
            do {
                if group.count == 1 {
                    // A write alone: its failure rolls the transaction back.
                    if !(await group[0].run(db)) {
                        try await sql.raw("ROLLBACK").run()
                        return group[0].finish(nil)
                    }
                } else {
                    // Each write in a savepoint (two statements of some microseconds): a failed
                    // one is undone alone and no body runs again.
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
        } catch {
            // The group's transaction failed as a whole (the disk, the connection): nothing of it was kept.
            logger.error("database write group of \(group.count) failed: \(String(reflecting: error))")
            for pending in group { pending.finish(error) }
        }
    }
}

extension DatabaseID {
    /// The writer connection of a SQLite database (see `GroupCommit`).
    static let sqliteWriter = DatabaseID(string: "sqlite-writer")
}
