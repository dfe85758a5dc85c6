import HummingbirdCore
import Logging
import NIOCore

/// An event loop as a Swift task executor: jobs run on the loop's thread.
///
/// By default an async handler runs on Swift's own thread pool while its connection's bytes are
/// read and written on an event loop: every request crossed threads at least four times, and on
/// two cores those switches were most of a cached page's CPU (62 % of the statistics page's
/// samples were on the pool's threads, much of it the kernel's `finish_task_switch`). A
/// connection's task prefers its own channel's loop (`LoopBoundChannel`), so a request is read,
/// answered and written on one thread.
///
/// Nothing may block a task's thread: blocking work (bcrypt, SQLite's calls) already runs on
/// thread pools of its own.
final class EventLoopExecutor: TaskExecutor, @unchecked Sendable {
    let loop: any EventLoop

    init(_ loop: any EventLoop) { self.loop = loop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// One executor per loop of `group`, made once.
    struct Table: Sendable {
        private let executors: [ObjectIdentifier: EventLoopExecutor]

        init(_ group: any EventLoopGroup) {
            executors = Dictionary(uniqueKeysWithValues: group.makeIterator().map { (ObjectIdentifier($0), EventLoopExecutor($0)) })
        }

        func executor(for loop: any EventLoop) -> EventLoopExecutor? { executors[ObjectIdentifier(loop)] }
    }
}

/// A server's child channel whose connection task (and every task it starts) prefers the
/// channel's own event loop (`EventLoopExecutor`). Not NIO's global-executor takeover: there every
/// task stays on the loop that started it, so the accepting loop ran every connection's handler;
/// cached pages were faster still on these two cores, but the uncached pages' throughput fell by a
/// third and their p99 rose to a second (`scripts/bench`, a film's and a show's page).
struct LoopBoundChannel<Inner: ServerChildChannel>: ServerChildChannel {
    let inner: Inner
    let executors: EventLoopExecutor.Table

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Inner.Value> {
        inner.setup(channel: channel, logger: logger)
    }

    func handle(value: Inner.Value, logger: Logger) async {
        await withTaskExecutorPreference(executors.executor(for: value.channel.eventLoop)) {
            await inner.handle(value: value, logger: logger)
        }
    }
}
