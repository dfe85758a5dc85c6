import Foundation
import Logging
import SQLKit
import ServiceLifecycle

/// Keeps the held episode lists current, one server of the deployment at a time (the lease
/// `episode-refresher`): TVMaze's `/updates/shows?since=day` (asked at most once an hour: the cache
/// engine keeps it) says which shows changed; each held list of a show changed since it was
/// fetched is marked (`tv_episode_lists.changed_at`) and asked of TVMaze again, shows someone is
/// watching first, `showsPerRound` a round (two TVMaze calls each, inside TVMaze's budget with
/// everyone's). A list nobody refreshes is still asked again a day after it was fetched, by the
/// first page that shows it (`EpisodeCatalog.prepare`).
public struct EpisodeRefresher: Service {
    let catalog: EpisodeCatalog
    let leases: Leases
    let logger: Logger
    var interval: TimeInterval = 30

    static let lease = "episode-refresher"
    static let showsPerRound = 5
    static let updatesFreshness: TimeInterval = 3600

    public func run() async throws {
        try await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    if try await leases.take(Self.lease, for: interval * 2) { _ = try await round() }
                } catch is CancellationError {
                    return
                } catch {
                    logger.error("episode refresher: \(String(reflecting: error)) (tried again in \(Int(interval)) s)")
                }
                try? await Task.sleep(for: .seconds(interval))
            }
        }
    }

    struct Round: Equatable {
        /// Held lists TVMaze said changed, marked this round.
        var marked = 0
        /// Lists asked of TVMaze again and stored.
        var refreshed = 0
    }

    /// One round: read TVMaze's updates (kept an hour), mark the held lists they name, refresh a few.
    func round() async throws -> Round {
        var done = Round()
        let database = catalog.database
        let url = URL(string: "\(catalog.baseURL)/updates/shows?since=day")!
        let fetched = await catalog.upstream.fetch(key: "tvmaze:updates:day", url: url, freshFor: Self.updatesFreshness) {
            _ = try JSONDecoder().decode([String: Int64].self, from: $0)
        }
        struct Held: Decodable {
            var show_id: Int
            var fetched_at: Date
            var changed_at: Int64?
        }
        let held = try await database.sql.select().columns("show_id", "fetched_at", "changed_at").from("tv_episode_lists")
            .where("source", .equal, SQLBind(EpisodeSource.tvmaze.rawValue)).all(decoding: Held.self)
        if let body = fetched.answer?.body.body, let updates = try? JSONDecoder().decode([String: Int64].self, from: body) {
            for list in held {
                guard let changed = updates[String(list.show_id)], Double(changed) > list.fetched_at.timeIntervalSince1970,
                    list.changed_at.map({ $0 < changed }) ?? true
                else { continue }
                try await database.writeSQL { sql in
                    try await sql.update("tv_episode_lists").set("changed_at", to: SQLBind(changed)).where("show_id", .equal, SQLBind(list.show_id))
                        .run()
                }
                done.marked += 1
            }
        }
        // Changed since fetched: the shows people are watching first.
        let due = try await database.sql.raw(
            """
            SELECT l.show_id, l.fetched_at, l.changed_at FROM tv_episode_lists l \
            WHERE l.source = \(bind: EpisodeSource.tvmaze.rawValue) AND l.changed_at IS NOT NULL \
            ORDER BY CASE WHEN EXISTS (SELECT 1 FROM show_progress p WHERE p.show_id = l.show_id AND p.stopped = \(SQLLiteral.boolean(false))) \
            THEN 0 ELSE 1 END, l.changed_at
            """
        ).all(decoding: Held.self).filter { list in list.changed_at.map { Double($0) > list.fetched_at.timeIntervalSince1970 } ?? false }
        for list in due.prefix(Self.showsPerRound) {
            guard let answer = await catalog.fetchList(list.show_id, refresh: true) else { break }
            try await catalog.store(answer.list, source: .tvmaze, fetchedAt: answer.fetchedAt)
            done.refreshed += 1
        }
        return done
    }
}
