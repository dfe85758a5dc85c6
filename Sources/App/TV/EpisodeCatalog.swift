import Foundation
import Logging
import SQLKit

/// Where a show's episode list came from.
public enum EpisodeSource: String, Sendable {
    /// TVMaze's answer (fresh, or the last one kept when TVMaze could not be asked).
    case tvmaze
    /// The bundled offline catalogue: TVMaze has not answered for this show yet.
    case offline
}

/// The episode list held for a show, and how current it is.
public struct HeldEpisodes: Sendable {
    public var source: EpisodeSource
    /// When TVMaze's answer was fetched (nil for the bundled list).
    public var fetchedAt: Date?
    /// TVMaze could not be asked for a newer list when one was due: the list shown may be old.
    public var isStale: Bool
    /// When the list held was written (`tv_episode_lists.synced_at`): it names the list.
    public var storedAt: Date
}

/// Every show's episodes and seasons, from TVMaze through the cache engine (its budget, one call
/// per show among all servers, the page's one-second wait) into the `tv_episodes` and
/// `tv_seasons` tables, which pages and Up Next read. A show's list is asked of TVMaze again a day
/// after it was fetched, or as soon as TVMaze's updates say the show changed
/// (`EpisodeRefresher`); until then a page reads the tables alone. With nothing from TVMaze, the
/// bundled catalogue's episodes stand in (marked `offline`) until TVMaze answers.
public final class EpisodeCatalog: Sendable {
    public static let freshness: TimeInterval = 86_400

    let upstream: CachedUpstream
    let baseURL: String
    let offline: OfflineEpisodes
    let database: AppDatabase
    let clock: any AppClock
    let logger: Logger

    init(upstream: CachedUpstream, baseURL: String, offline: OfflineEpisodes, database: AppDatabase, clock: any AppClock, logger: Logger) {
        self.upstream = upstream
        self.baseURL = baseURL
        self.offline = offline
        self.database = database
        self.clock = clock
        self.logger = logger
    }

    struct ListRow: Decodable {
        var fetched_at: Date
        var source: String
        var changed_at: Int64?
        var synced_at: Date
    }

    /// Makes sure the tables hold the newest list PopcornSwirl can have for the show, asking TVMaze
    /// when the held one is due; nil when no list is known at all (TVMaze unreachable, not bundled).
    @discardableResult
    public func prepare(showID: Int) async -> HeldEpisodes? {
        let held = try? await heldList(showID)
        let now = clock.now()
        if let held, held.source == EpisodeSource.tvmaze.rawValue, now.timeIntervalSince(held.fetched_at) < Self.freshness {
            return HeldEpisodes(source: .tvmaze, fetchedAt: held.fetched_at, isStale: false, storedAt: held.synced_at)
        }
        // Due (or never fetched): one call for the seasons and regular episodes, one for the specials.
        if let answer = await fetchList(showID) {
            let stale = now.timeIntervalSince(answer.fetchedAt) >= Self.freshness
            do {
                try await store(answer.list, source: .tvmaze, fetchedAt: answer.fetchedAt)
                // Stored now, or a newer one was there already (another server's).
                if let stored = try await heldList(showID) {
                    return HeldEpisodes(
                        source: EpisodeSource(rawValue: stored.source) ?? .tvmaze, fetchedAt: stored.fetched_at, isStale: stale,
                        storedAt: stored.synced_at)
                }
            } catch {
                logger.warning("episode list not stored", metadata: ["show": "\(showID)", "error": "\(error)"])
            }
        }
        if let held {
            let source = EpisodeSource(rawValue: held.source) ?? .offline
            return HeldEpisodes(
                source: source, fetchedAt: source == .tvmaze ? held.fetched_at : nil, isStale: source == .tvmaze, storedAt: held.synced_at)
        }
        guard let bundled = offline.list(showID: showID) else { return nil }
        do {
            try await store(bundled, source: .offline, fetchedAt: .distantPast)
            guard let stored = try await heldList(showID) else { return nil }
            return HeldEpisodes(source: .offline, fetchedAt: nil, isStale: false, storedAt: stored.synced_at)
        } catch {
            logger.warning("bundled episode list not stored", metadata: ["show": "\(showID)", "error": "\(error)"])
            return nil
        }
    }

    static func embedKey(_ showID: Int) -> String { "tvmaze:episodes:\(showID)" }
    static func specialsKey(_ showID: Int) -> String { "tvmaze:specials:\(showID)" }
    func embedURL(_ showID: Int) -> URL { URL(string: "\(baseURL)/shows/\(showID)?embed[]=episodes&embed[]=seasons&embed[]=nextepisode")! }
    func specialsURL(_ showID: Int) -> URL { URL(string: "\(baseURL)/shows/\(showID)/episodes?specials=1")! }

    /// The show's list from TVMaze (or the answers kept of it): nil when there is none.
    /// `refresh`: ask TVMaze now, whatever is kept (TVMaze said the show changed).
    func fetchList(_ showID: Int, refresh: Bool = false) async -> (list: EpisodeList, fetchedAt: Date)? {
        let checkEmbed: @Sendable (Data) throws -> Void = { _ = try TVMazeDecoder.episodes(showID: showID, embed: $0, specials: nil) }
        let checkSpecials: @Sendable (Data) throws -> Void = { try TVMazeDecoder.checkEpisodeArray($0) }
        let policy = FetchPolicy(freshness: { _ in Self.freshness })
        let embed: CachedBody?
        let specials: CachedBody?
        if refresh {
            guard
                case .success(let body) = await upstream.refresh(
                    key: Self.embedKey(showID), url: embedURL(showID), policy: policy, validate: checkEmbed)
            else { return nil }
            embed = body
            specials = try? await upstream.refresh(key: Self.specialsKey(showID), url: specialsURL(showID), policy: policy, validate: checkSpecials)
                .get()
        } else {
            // Side by side: a page waits for TVMaze once (its one second), not twice.
            async let embedAnswer = upstream.fetch(key: Self.embedKey(showID), url: embedURL(showID), policy: policy, validate: checkEmbed)
            async let specialsAnswer = upstream.fetch(
                key: Self.specialsKey(showID), url: specialsURL(showID), policy: policy, validate: checkSpecials)
            embed = await embedAnswer.answer?.body
            specials = await specialsAnswer.answer?.body
        }
        guard let embed, let list = try? TVMazeDecoder.episodes(showID: showID, embed: embed.body, specials: specials?.body) else { return nil }
        // Without the specials (TVMaze refused that call and none are kept), the list is held as one
        // due again in a few minutes, not after a day: its specials are asked for again then.
        guard specials != nil else { return (list, embed.fetchedAt.addingTimeInterval(Self.specialsRetry - Self.freshness)) }
        return (list, embed.fetchedAt)
    }

    /// How soon a list held without its specials is asked for again.
    static let specialsRetry: TimeInterval = 300

    func heldList(_ showID: Int) async throws -> ListRow? {
        try await database.sql.select().columns("fetched_at", "source", "changed_at", "synced_at").from("tv_episode_lists")
            .where("show_id", .equal, SQLBind(showID)).first(decoding: ListRow.self)
    }

    /// Writes a show's list over the held one, in one transaction, unless a newer one was stored
    /// meanwhile (another server). Watches and states of an episode whose id changed (the bundled
    /// list's ids, then TVMaze's) move to the episode now at its season and number.
    func store(_ list: EpisodeList, source: EpisodeSource, fetchedAt: Date) async throws {
        let now = clock.now()
        defer { database.changes.publish(.episodes(show: list.showID)) }
        try await database.write(serializedBy: "tv-episodes|\(list.showID)") { db in
            let sql = db as! any SQLDatabase
            let show = list.showID
            let held = try await sql.select().columns("fetched_at", "source", "changed_at", "synced_at").from("tv_episode_lists")
                .where("show_id", .equal, SQLBind(show)).first(decoding: ListRow.self)
            if let held, held.source == EpisodeSource.tvmaze.rawValue, held.fetched_at >= fetchedAt { return }
            // The time names the list (`Caches.episodeLists`): always later than the one it replaces.
            let storedAt = max(now, (held?.synced_at ?? .distantPast).addingTimeInterval(0.001))
            struct Old: Decodable {
                var id: Int
                var season: Int
                var number: Int?
            }
            let old = try await sql.select().columns("id", "season", "number").from("tv_episodes").where("show_id", .equal, SQLBind(show))
                .all(decoding: Old.self)
            let newIDs = Set(list.episodes.map(\.id))
            var bySlot: [String: Int] = [:]
            for episode in list.episodes { if let number = episode.number { bySlot["\(episode.season)|\(number)"] = episode.id } }
            for gone in old where !newIDs.contains(gone.id) {
                guard let number = gone.number, let replacement = bySlot["\(gone.season)|\(number)"] else { continue }
                try await Self.move(episode: gone.id, to: replacement, on: sql)
            }
            try await sql.delete(from: "tv_episodes").where("show_id", .equal, SQLBind(show)).run()
            try await sql.delete(from: "tv_seasons").where("show_id", .equal, SQLBind(show)).run()
            for batch in stride(from: 0, to: list.episodes.count, by: 200) {
                var insert = sql.insert(into: "tv_episodes").columns(
                    "id", "show_id", "position", "season", "number", "kind", "name", "airdate", "airtime", "airstamp", "airs_at",
                    "runtime_minutes", "summary", "image_url")
                for e in list.episodes[batch..<min(batch + 200, list.episodes.count)] {
                    insert = insert.values(
                        SQLBind(e.id), SQLBind(show), SQLBind(e.position), SQLBind(e.season), SQLBind(e.number), SQLBind(e.kind.rawValue),
                        SQLBind(e.name), SQLBind(e.airdate), SQLBind(e.airtime), SQLBind(e.airstamp), SQLBind(e.airsAt), SQLBind(e.runtimeMinutes),
                        SQLBind(e.summaryHTML), SQLBind(e.imageMedium))
                }
                try await insert.run()
            }
            if !list.seasons.isEmpty {
                var insert = sql.insert(into: "tv_seasons").columns("show_id", "number", "name", "episode_order", "premiere_date", "end_date")
                var seen = Set<Int>()
                for season in list.seasons where seen.insert(season.number).inserted {
                    insert = insert.values(
                        SQLBind(show), SQLBind(season.number), SQLBind(season.name), SQLBind(season.episodeOrder), SQLBind(season.premiereDate),
                        SQLBind(season.endDate))
                }
                try await insert.run()
            }
            try await sql.delete(from: "tv_episode_lists").where("show_id", .equal, SQLBind(show)).run()
            try await sql.insert(into: "tv_episode_lists").columns(
                "show_id", "fetched_at", "source", "synced_at", "changed_at", "show_status", "network"
            )
            .values(
                SQLBind(show), SQLBind(fetchedAt), SQLBind(source.rawValue), SQLBind(storedAt), SQLBind(Int64?.none), SQLBind(list.showStatus),
                SQLBind(list.network)
            ).run()
        }
    }

    private static func move(episode old: Int, to new: Int, on sql: any SQLDatabase) async throws {
        try await sql.update("watches").set("episode_id", to: SQLBind(new)).where("episode_id", .equal, SQLBind(old)).run()
        // A person with states for both keeps the new episode's.
        try await sql.raw(
            """
            UPDATE episode_states SET episode_id = \(bind: new) WHERE episode_id = \(bind: old) \
            AND NOT EXISTS (SELECT 1 FROM episode_states n WHERE n.profile_id = episode_states.profile_id AND n.episode_id = \(bind: new))
            """
        ).run()
        try await sql.delete(from: "episode_states").where("episode_id", .equal, SQLBind(old)).run()
    }
}

/// The bundled shows' episodes (`Resources/catalog/episodes.json`: each show's TVMaze season and
/// episode objects, specials included), decoded by the same code as TVMaze's answers.
public struct OfflineEpisodes: Sendable {
    let lists: [Int: EpisodeList]

    public func list(showID: Int) -> EpisodeList? { lists[showID] }

    private struct Bundled: Decodable {
        var seasons: [Lossy<Season>]?
        var episodes: [Lossy<TVMazeEpisode>]
    }

    /// `statuses` and `networks`: the bundled shows' TVMaze status and network by id (`OfflineShows`).
    static func decode(_ data: Data, statuses: [Int: String] = [:], networks: [Int: String] = [:]) throws -> OfflineEpisodes {
        let shows = try JSONDecoder().decode([String: Bundled].self, from: data)
        var lists: [Int: EpisodeList] = [:]
        for (key, bundled) in shows {
            guard let id = Int(key) else { continue }
            let wire = bundled.episodes.compactMap(\.value)
            // Regular episodes in their order, then the specials in theirs, as TVMaze's two answers give them.
            let ordered =
                wire.filter { $0.number != nil && ($0.type ?? "regular") == "regular" }
                + wire.filter { $0.number == nil || ($0.type ?? "regular") != "regular" }
            let episodes = ordered.enumerated().compactMap { $0.element.episode(showID: id, position: $0.offset) }
            lists[id] = EpisodeList(
                showID: id, seasons: (bundled.seasons ?? []).compactMap(\.value).sorted { $0.number < $1.number }, episodes: episodes,
                showStatus: statuses[id], network: networks[id])
        }
        return OfflineEpisodes(lists: lists)
    }

    public static func bundled(shows: OfflineShows) throws -> OfflineEpisodes {
        guard let url = Bundle.module.url(forResource: "episodes", withExtension: "json", subdirectory: "Resources/catalog") else {
            return OfflineEpisodes(lists: [:])
        }
        let statuses = Dictionary(shows.shows.compactMap { show in show.status.map { (show.id, $0) } }, uniquingKeysWith: { a, _ in a })
        let networks = Dictionary(
            shows.shows.compactMap { show in (show.network ?? show.webChannel).map { (show.id, $0) } }, uniquingKeysWith: { a, _ in a })
        return try decode(Data(contentsOf: url), statuses: statuses, networks: networks)
    }
}
