import Foundation
import Logging
import PostgresNIO
import SQLKit
import ServiceLifecycle
import Synchronization

/// What changed that a cache may hold (domain services say it; `Caches` listens): this server's
/// subscribers hear it at once, and every server sharing a PostgreSQL database within moments
/// (`NOTIFY` on `popcornswirl_changes`, heard by `ChangeListener`), instead of trusting its memory
/// for up to 30 s. On SQLite there is one server, and nothing is sent.
public final class ChangeFeed: Sendable {
    public enum Change: Sendable, Equatable {
        /// A session ended (its token's hash).
        case session(String)
        /// Every session of a profile ended but the one kept (its hash).
        case sessions(profile: UUID, kept: String?)
        /// The offers or shops changed.
        case offers
        /// What a person's calendar shows changed: their shows, films, episodes watched, time
        /// zone, or feed (made, renewed, revoked, or the account deleted).
        case person(UUID)
        /// A show's held episode list was replaced.
        case episodes(show: Int)
        /// The feed was down for a while (the listener reconnected): anything may have changed.
        case everything
    }

    static let channel = "popcornswirl_changes"
    /// This server: its own notices come back to it and are skipped.
    let origin = RequestTrace.newID()
    private let subscribers = Mutex<[@Sendable (Change) -> Void]>([])
    /// Set by `AppDatabase` for PostgreSQL; nil on SQLite (nothing to send).
    let send: (@Sendable (String) async throws -> Void)?
    let logger: Logger
    private let sending = Atomic<Bool>(true)
    /// Notices waiting to be sent, and whether a send is under way: notices published meanwhile go
    /// in the next `NOTIFY` together, the same notice once (an import's thousands of saves of one
    /// person are a few notices, not one per save).
    private let outbox = Mutex<(lines: [String], sending: Bool)>(([], false))
    /// A `NOTIFY` payload must stay under 8,000 bytes.
    static let maxPayloadBytes = 7_000

    /// Whether notices are sent (a server that does not listen for the others' sends none either).
    var isSending: Bool {
        get { sending.load(ordering: .relaxed) }
        set { sending.store(newValue, ordering: .relaxed) }
    }

    init(send: (@Sendable (String) async throws -> Void)?, logger: Logger) {
        self.send = send
        self.logger = logger
    }

    /// `handle` is told of every change, this server's and the others' (and of `.everything`).
    func subscribe(_ handle: @escaping @Sendable (Change) -> Void) {
        subscribers.withLock { $0.append(handle) }
    }

    /// Tells this server's subscribers, then the other servers, after the change is committed.
    /// Never fails the caller: an unsent notice leaves the others to their 30 s re-check.
    func publish(_ change: Change) {
        deliver(change)
        guard let send, isSending, let payload = Self.encode(change) else { return }
        let line = "\(origin) \(payload)"
        let starts = outbox.withLock { box -> Bool in
            if !box.lines.contains(line) { box.lines.append(line) }
            if box.sending { return false }
            box.sending = true
            return true
        }
        guard starts else { return }
        Task { [logger] in
            while true {
                let batch = outbox.withLock { box -> [String] in
                    let taken = box.lines
                    box.lines = []
                    if taken.isEmpty { box.sending = false }
                    return taken
                }
                if batch.isEmpty { return }
                for chunk in Self.chunks(batch) {
                    do {
                        try await send(chunk)
                    } catch {
                        logger.warning("changes not sent to the other servers", metadata: ["notices": "\(batch.count)", "error": "\(error)"])
                    }
                }
            }
        }
    }

    /// Notices joined by newlines into payloads under `maxPayloadBytes`.
    static func chunks(_ lines: [String]) -> [String] {
        var chunks: [String] = []
        var current = ""
        for line in lines {
            if !current.isEmpty, current.utf8.count + 1 + line.utf8.count > maxPayloadBytes {
                chunks.append(current)
                current = ""
            }
            current += (current.isEmpty ? "" : "\n") + line
        }
        if !current.isEmpty { chunks.append(current) }
        return chunks
    }

    /// A payload from the channel (one notice a line): each applied unless it is this server's own.
    func receive(_ payload: String) {
        for line in payload.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts[0] != origin, let change = Self.decode(parts[1]) else { continue }
            deliver(change)
        }
    }

    func deliver(_ change: Change) {
        for handle in subscribers.withLock({ $0 }) { handle(change) }
    }

    static func encode(_ change: Change) -> String? {
        switch change {
        case .session(let hash): "session \(hash)"
        case .sessions(let profile, let kept): "sessions \(profile.uuidString) \(kept ?? "-")"
        case .offers: "offers"
        case .person(let profile): "person \(profile.uuidString)"
        case .episodes(let show): "episodes \(show)"
        case .everything: nil
        }
    }

    static func decode(_ text: String) -> Change? {
        let words = text.split(separator: " ").map(String.init)
        switch (words.first, words.count) {
        case ("session", 2): return .session(words[1])
        case ("sessions", 3): return UUID(uuidString: words[1]).map { .sessions(profile: $0, kept: words[2] == "-" ? nil : words[2]) }
        case ("offers", 1): return .offers
        case ("person", 2): return UUID(uuidString: words[1]).map { .person($0) }
        case ("episodes", 2): return Int(words[1]).map { .episodes(show: $0) }
        default: return nil
        }
    }
}

/// Listens on the change channel on a connection of its own (PostgreSQL only), for as long as the
/// server runs: every notice goes to the feed's subscribers. When the connection drops it
/// reconnects after a second, and tells the subscribers `.everything` once listening again, since
/// notices sent meanwhile are lost.
struct ChangeListener: Service {
    let database: AppDatabase
    let logger: Logger

    func run() async throws {
        guard let configuration = database.listenConfiguration else {
            // SQLite: one server, nothing to hear. Stay until the group stops.
            try? await gracefulShutdown()
            return
        }
        var connected = false
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            do {
                let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
                do {
                    try await connection.listen(on: ChangeFeed.channel) { notices in
                        // Missed notices while reconnecting: forget everything kept.
                        if connected { database.changes.deliver(.everything) }
                        connected = true
                        for try await notice in notices.cancelOnGracefulShutdown() { database.changes.receive(notice.payload) }
                    }
                } catch {
                    try? await connection.close()
                    throw error
                }
                try? await connection.close()
            } catch {
                if Task.isShuttingDownGracefully || Task.isCancelled { return }
                logger.warning("change listener: reconnecting in 1 s", metadata: ["error": "\(error)"])
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }
}
