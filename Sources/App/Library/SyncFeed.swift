import FluentKit
import Foundation
import SQLKit

/// What changed in a person's data since a device last asked (`sync_log`, `CreateSyncLog`): each
/// thing changed once, at its last change, with its state now or as removed. A device keeps the
/// cursor of the page it read and asks again from there; nothing is skipped and a thing read again
/// (it changed after the page was numbered) only repeats its newer state.
public struct SyncFeed: Sendable {
    let database: AppDatabase
    let diary: DiaryService
    let lists: CustomListService

    public static let defaultLimit = 200
    public static let maxLimit = 500
    /// Custom lists come with all their titles: a page stops early past this many titles.
    static let itemBudget = 10_000

    /// One page of the person's changes after `since`, at most `limit` things.
    public func changes(profile: UUID, since: Int64, limit: Int) async throws -> SyncPage {
        let limit = min(max(limit, 1), Self.maxLimit)
        let rows = try await logRows(profile: profile, since: since, limit: limit + 1)
        let more = rows.count > limit
        var page = Array(rows.prefix(limit))
        // Lists weigh their titles: keep the page to the budget, with at least one thing.
        var weight = 0
        var states: [SyncEntity: [String: SyncState]] = [:]
        for (entity, keys) in Dictionary(grouping: page, by: \.entity).mapValues({ $0.map(\.entity_key) }) {
            guard let kind = SyncEntity(rawValue: entity) else { continue }
            states[kind] = try await load(kind, keys: keys, profile: profile)
        }
        var cut: Int?
        for (index, row) in page.enumerated() {
            if row.entity == SyncEntity.list.rawValue, case .list(_, let items)? = states[.list]?[row.entity_key] { weight += items.count }
            if weight > Self.itemBudget, index > 0 {
                cut = index
                break
            }
        }
        if let cut { page = Array(page[..<cut]) }
        let changes = page.compactMap { row -> SyncChange? in
            guard let entity = SyncEntity(rawValue: row.entity) else { return nil }
            return SyncChange(entity: entity, key: row.entity_key, state: states[entity]?[row.entity_key])
        }
        return SyncPage(changes: changes, cursor: page.last?.seq ?? since, more: more || cut != nil)
    }

    private struct LogRow: Decodable {
        var seq: Int64
        var entity: String
        var entity_key: String
    }

    /// The log's rows past `since`, in order. On PostgreSQL the person's sync lock is taken alone
    /// first: every number taken before is then committed (`CreateSyncLog`'s note on order).
    private func logRows(profile: UUID, since: Int64, limit: Int) async throws -> [LogRow] {
        let read: @Sendable (any SQLDatabase) async throws -> [LogRow] = { sql in
            try await sql.select().columns("seq", "entity", "entity_key").from("sync_log")
                .where("profile_id", .equal, SQLBind(profile)).where("seq", .greaterThan, SQLBind(since))
                .orderBy("seq").limit(limit).all(decoding: LogRow.self)
        }
        let sql = try database.sql
        guard sql.dialect.name == "postgresql" else { return try await read(sql) }
        return try await database.db.transaction { db in
            let sql = db as! any SQLDatabase
            try await sql.raw(
                "SELECT pg_advisory_xact_lock(\(unsafeRaw: String(CreateSyncLog.lockClass)), hashtext(\(bind: profile.uuidString.lowercased())))"
            ).run()
            return try await read(sql)
        }
    }

    /// The state now of each of these things the person has; a key missing from the answer was removed.
    private func load(_ entity: SyncEntity, keys: [String], profile: UUID) async throws -> [String: SyncState] {
        let sql = try database.sql
        switch entity {
        case .title:
            var found: [String: SyncState] = [:]
            let byKind = Dictionary(grouping: keys.compactMap(Self.split), by: \.0).mapValues { $0.map(\.1) }
            for (kind, ids) in byKind {
                guard let kind = MediaKind(rawValue: kind) else { continue }
                for row in try await EntryRow.all(sql, profile: profile, kind: kind, itemIDs: ids) {
                    found["\(kind.rawValue):\(row.item_id)"] = .title(row.item)
                }
            }
            return found
        case .watch:
            let watches = try await diary.watches(profile: profile, ids: keys.compactMap(UUID.init(uuidString:)))
            return Dictionary(watches.map { ($0.id.uuidString.lowercased(), SyncState.watch($0)) }, uniquingKeysWith: { a, _ in a })
        case .list:
            var found: [String: SyncState] = [:]
            for key in keys {
                guard let id = UUID(uuidString: key), let (list, items) = try await lists.allItems(profile: profile, id: id) else { continue }
                found[key] = .list(list, items)
            }
            return found
        case .episode:
            return try await episodes(keys: keys, profile: profile)
        case .show:
            struct Row: Decodable {
                var show_id: Int
                var title: String
                var artwork_url: String?
                var stopped: Bool
                var include_specials: Bool
                var last_watched_at: Date?
                var updated_at: Date
            }
            let rows = try await sql.select().columns(
                "show_id", "title", "artwork_url", "stopped", "include_specials", "last_watched_at", "updated_at"
            )
            .from("show_progress").where("profile_id", .equal, SQLBind(profile))
            .where("show_id", .in, SQLBind.group(keys.compactMap { Int($0) })).all(decoding: Row.self)
            return Dictionary(
                rows.map {
                    (
                        String($0.show_id),
                        SyncState.show(
                            SyncedShow(
                                showID: $0.show_id, title: $0.title, artworkURL: $0.artwork_url, stopped: $0.stopped,
                                includeSpecials: $0.include_specials, lastWatchedAt: $0.last_watched_at, updatedAt: $0.updated_at))
                    )
                }, uniquingKeysWith: { a, _ in a })
        case .seasonRating:
            struct Row: Decodable {
                var show_id: Int
                var season: Int
                var rating: Int
            }
            let wanted = Set(keys)
            let shows = Set(keys.compactMap { Self.split($0).flatMap { Int($0.0) } })
            let rows = try await sql.select().columns("show_id", "season", "rating").from("season_ratings")
                .where("profile_id", .equal, SQLBind(profile)).where("show_id", .in, SQLBind.group(Array(shows))).all(decoding: Row.self)
            var found: [String: SyncState] = [:]
            for row in rows where wanted.contains("\(row.show_id):\(row.season)") {
                found["\(row.show_id):\(row.season)"] = .seasonRating(showID: row.show_id, season: row.season, rating: row.rating)
            }
            return found
        }
    }

    /// Episodes' watch counts (watches on no known day, and the diary's) and ratings.
    private func episodes(keys: [String], profile: UUID) async throws -> [String: SyncState] {
        struct State: Decodable {
            var episode_id: Int
            var undated_watches: Int
            var rating: Int?
        }
        struct Dated: Decodable {
            var episode_id: Int
            var n: Int
        }
        let wanted = Dictionary(keys.compactMap { key in Self.split(key).flatMap { s in Int(s.1).map { ($0, (Int(s.0) ?? 0, key)) } } }) { a, _ in a }
        let ids = Array(wanted.keys)
        guard !ids.isEmpty else { return [:] }
        let sql = try database.sql
        let states = try await sql.select().columns("episode_id", "undated_watches", "rating").from("episode_states")
            .where("profile_id", .equal, SQLBind(profile)).where("episode_id", .in, SQLBind.group(ids)).all(decoding: State.self)
        let dated = try await sql.select().column("episode_id").column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("watches")
            .where("profile_id", .equal, SQLBind(profile)).where("episode_id", .in, SQLBind.group(ids)).groupBy("episode_id")
            .all(decoding: Dated.self)
        let counts = Dictionary(dated.map { ($0.episode_id, $0.n) }, uniquingKeysWith: +)
        let byID = Dictionary(states.map { ($0.episode_id, $0) }, uniquingKeysWith: { a, _ in a })
        var found: [String: SyncState] = [:]
        for (id, (show, key)) in wanted {
            let watches = (byID[id]?.undated_watches ?? 0) + (counts[id] ?? 0)
            let rating = byID[id]?.rating
            guard watches > 0 || rating != nil else { continue }
            found[key] = .episode(SyncedEpisode(showID: show, episodeID: id, watchCount: watches, rating: rating))
        }
        return found
    }

    /// "a:b" as ("a", "b").
    private static func split(_ key: String) -> (String, String)? {
        guard let colon = key.firstIndex(of: ":") else { return nil }
        return (String(key[..<colon]), String(key[key.index(after: colon)...]))
    }
}

/// The kinds of things a device keeps, as the log names them.
public enum SyncEntity: String, Sendable, CaseIterable {
    case title, watch, list, episode, show, seasonRating
}

public struct SyncPage: Sendable {
    public var changes: [SyncChange]
    /// The number to ask from next (the last change's, or the one asked from when none).
    public var cursor: Int64
    /// More changes are waiting past this page.
    public var more: Bool
}

public struct SyncChange: Sendable {
    public var entity: SyncEntity
    /// The thing within its kind: `movie:123` for a title, a watch's or list's id, `show:episode`
    /// for an episode, a show's id, `show:season` for a season's rating.
    public var key: String
    /// Its state now; nil when the person no longer has it.
    public var state: SyncState?
}

public enum SyncState: Sendable {
    case title(LibraryItem)
    case watch(Watch)
    case list(CustomList, [CustomListItem])
    case episode(SyncedEpisode)
    case show(SyncedShow)
    case seasonRating(showID: Int, season: Int, rating: Int)
}

/// An episode the person watched or rated: every watch counted (dated or not).
public struct SyncedEpisode: Sendable, Equatable {
    public var showID: Int
    public var episodeID: Int
    public var watchCount: Int
    public var rating: Int?
}

/// A show the person began: what Up Next and Stopped keep of it.
public struct SyncedShow: Sendable, Equatable {
    public var showID: Int
    public var title: String
    public var artworkURL: String?
    public var stopped: Bool
    public var includeSpecials: Bool
    public var lastWatchedAt: Date?
    public var updatedAt: Date
}
