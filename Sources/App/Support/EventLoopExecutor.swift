import NIOCore
import NIOPosix

/// Swift concurrency's global executor on the server's event loops.
///
/// By default an async handler runs on Swift's own thread pool while its connection's bytes are
/// read and written on an event loop: every request crosses threads at least four times, and on
/// two cores those switches were most of a cached page's CPU (62 % of the statistics page's
/// samples were on the pool's threads, much of it the kernel's `finish_task_switch`). With the
/// event loops as the global executor a request is read, answered and written on one thread.
///
/// Nothing here may block a thread: blocking work (bcrypt, SQLite's calls) already runs on thread
/// pools of its own. Called once, first thing in `main`, before any task is started.
public enum EventLoopExecutor {
    public static func install() {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}
