import FluentKit
import Foundation
import SQLKit

/// One time a person watched a title: its day (`yyyy-MM-dd`), its own rating and note.
public struct Watch: Sendable, Equatable {
    public var id: UUID
    public var kind: MediaKind
    public var itemID: String
    public var title: String
    public var artworkURL: String?
    public var day: String
    public var rating: Int?
    public var note: String?
    /// Not the title's first watch (an earlier day, or earlier the same day).
    public var isRewatch: Bool
    /// Kept with the watch for the statistics (top genres, hours watched); not shown in the diary.
    public var genre: String? = nil
    public var runtimeMinutes: Int? = nil
    /// The episode watched, for a watch of one episode of a show.
    public var episode: WatchedEpisode? = nil
}

/// The episode a watch was of, kept with the watch (the diary stays whole when TVMaze's list changes).
public struct WatchedEpisode: Sendable, Equatable {
    public var id: Int
    public var season: Int
    /// Nil for a special.
    public var number: Int?
    public var name: String

    /// "S02E05", or "S02 special".
    public var code: String {
        let s = "S" + Episode.twoDigits(season)
        return number.map { s + "E" + Episode.twoDigits($0) } ?? s + " special"
    }
}

public struct DiaryPage: Sendable {
    public static let pageSize = 50
    public var watches: [Watch]
    public var total: Int
    public var page: Int
    /// The page's titles still in the person's lists (`"<kind>|<item>"`): deleting a watch of one
    /// leaves it there, and the diary says so only for these.
    public var saved: Set<String> = []
    public var pageCount: Int { LibraryPage.pageCount(total: total, pageSize: Self.pageSize) }
}

/// The watch diary (`watches`): a dated watch for every time a person watched a title, logged
/// when a title is marked Watched (today), or by hand for any day up to today (a rewatch is
/// simply another watch). Newest first, by day.
public final class DiaryService: Sendable {
    let database: AppDatabase
    let clock: any AppClock

    init(database: AppDatabase, clock: any AppClock) {
        self.database = database
        self.clock = clock
    }

    /// Today on the calendar of the people furthest ahead (UTC+14): no one's today is later, so a
    /// day after it is in the future for everyone.
    static func latestToday(_ now: Date) -> String { now.addingTimeInterval(14 * 3600).formatted(UTCFormatters.dayStyle) }

    /// Today in UTC, the day a watch is logged on when none is given.
    static func today(_ now: Date) -> String { now.formatted(UTCFormatters.dayStyle) }

    /// A `yyyy-MM-dd` day from 1888 (the first film) to today; anything else says what is wrong.
    public static func validatedDay(_ raw: String, now: Date) throws(LibraryError) -> String {
        let day = raw.trimmingCharacters(in: .whitespaces)
        guard day.count == 10, UTCFormatters.noon(ofDay: day) != nil else {
            throw .invalidDay("“\(raw.prefix(20))” is not a date. Use the form’s date picker, or write it as 2026-11-24.")
        }
        guard day >= "1888-01-01" else { throw .invalidDay("That is before the first film was made. Check the year.") }
        guard day <= latestToday(now) else { throw .invalidDay("\(day) has not happened yet: a watch can only be logged for today or earlier.") }
        return day
    }

    /// Logs a watch of `title` on `day`, checked first (note, rating, day).
    @discardableResult
    /// `at`: the moment it was watched, when it was not now (a media server's event, received late).
    public func log(profile: UUID, title: SavedTitle, day: String, rating: Int?, note: String?, at moment: Date? = nil) async throws(LibraryError)
        -> Watch
    {
        var watch = Watch(
            id: UUID(), kind: title.kind, itemID: title.itemID, title: title.title, artworkURL: title.artworkURL,
            day: try Self.validatedDay(day, now: clock.now()), rating: try LibraryService.validatedRating(rating),
            note: try LibraryService.validatedNote(note), isRewatch: false, genre: title.genre, runtimeMinutes: title.runtimeMinutes)
        let now = moment ?? clock.now()
        do {
            let logged = watch
            watch.isRewatch = try await database.write(serializedBy: profile.uuidString) { db in
                let sql = db as! any SQLDatabase
                // A rewatch when the title was watched on this day or before (this one is the latest logged).
                let earlier =
                    try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("watches")
                    .where("profile_id", .equal, SQLBind(profile)).where("media_kind", .equal, SQLBind(logged.kind.rawValue))
                    .where("item_id", .equal, SQLBind(logged.itemID)).where("watched_on", .lessThanOrEqual, SQLBind(logged.day))
                    .where(SQLIdentifier("episode_id"), .is, SQLLiteral.null)
                    .first(decodingColumn: "n", as: Int.self) ?? 0
                try await Self.insert(logged, profile: profile, at: now, on: sql)
                return earlier > 0
            }
        } catch {
            throw .storageFailed("\(error)")
        }
        return watch
    }

    static func insert(_ watch: Watch, profile: UUID, at now: Date, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "watches")
            .columns(
                "id", "profile_id", "media_kind", "item_id", "title", "artwork_url", "watched_on", "rating", "note", "created_at", "genre",
                "runtime_minutes", "episode_id", "season", "episode_number", "episode_name"
            )
            .values(
                SQLBind(watch.id), SQLBind(profile), SQLBind(watch.kind.rawValue), SQLBind(watch.itemID), SQLBind(watch.title),
                SQLBind(watch.artworkURL), SQLBind(watch.day), SQLBind(watch.rating), SQLBind(watch.note), SQLBind(now), SQLBind(watch.genre),
                SQLBind(watch.runtimeMinutes), SQLBind(watch.episode?.id), SQLBind(watch.episode?.season), SQLBind(watch.episode?.number),
                SQLBind(watch.episode?.name)
            )
            .run()
    }

    /// Deletes one of the person's own watches; false when there is no such watch of theirs.
    public func delete(profile: UUID, id: UUID) async throws(LibraryError) -> Bool {
        defer { database.changes.publish(.person(profile)) }
        do {
            return try await database.write(serializedBy: profile.uuidString) { db in
                let sql = db as! any SQLDatabase
                let found = try await sql.select().column("id").from("watches")
                    .where("id", .equal, SQLBind(id)).where("profile_id", .equal, SQLBind(profile)).first()
                guard found != nil else { return false }
                try await sql.delete(from: "watches").where("id", .equal, SQLBind(id)).run()
                return true
            }
        } catch {
            throw .storageFailed("\(error)")
        }
    }

    /// One page of the diary, newest day first.
    public func page(profile: UUID?, page: Int) async throws -> DiaryPage {
        guard let profile else { return DiaryPage(watches: [], total: 0, page: 1) }
        let sql = try database.sql
        // From the monthly tallies the database keeps (migration 026), not a count of every watch:
        // that walked 12,000 index entries, 1 ms warm and 5 ms on a connection whose pages another's
        // write had made it drop (sqlite3 on the bench's database).
        let total =
            // PostgreSQL sums a bigint as numeric: cast back.
            try await sql.select().column(SQLRaw("COALESCE(CAST(SUM(watch_count) AS BIGINT), 0)"), as: "n")
            .from("watch_months").where("profile_id", .equal, SQLBind(profile)).first(decodingColumn: "n", as: Int.self) ?? 0
        let number = max(1, page)
        let rows = try await Self.rows(sql.select(), profile: profile)
            .orderBy("watched_on", .descending).orderBy("created_at", .descending)
            .limit(DiaryPage.pageSize).offset((number - 1) * DiaryPage.pageSize)
            .all(decoding: Row.self)
        var saved: Set<String> = []
        if !rows.isEmpty {
            saved = Set(
                try await sql.select().column("media_kind").column("item_id").from(EntryRow.table)
                    .where("profile_id", .equal, SQLBind(profile)).where("item_id", .in, SQLBind.group(Array(Set(rows.map(\.item_id)))))
                    .all().map { "\(try $0.decode(column: "media_kind", as: String.self))|\(try $0.decode(column: "item_id", as: String.self))" })
        }
        return DiaryPage(watches: try await markRewatches(rows, profile: profile), total: total, page: number, saved: saved)
    }

    /// A title's own watches, newest first (its page lists them): a show's watches of the whole
    /// show, not of its episodes (the page lists those with each episode).
    public func watches(profile: UUID?, kind: MediaKind, itemID: String) async throws -> [Watch] {
        guard let profile else { return [] }
        let rows = try await Self.titleWatches(database.sql.select(), profile: profile, kind: kind, itemID: itemID)
            .all(decoding: Row.self)
            .sorted { ($0.watched_on, $0.created_at) > ($1.watched_on, $1.created_at) }
        return rows.enumerated().map { index, row in row.watch(isRewatch: index < rows.count - 1) }
    }

    static func titleWatches(_ select: SQLSelectBuilder, profile: UUID, kind: MediaKind, itemID: String) -> SQLSelectBuilder {
        rows(select, profile: profile).where("media_kind", .equal, SQLBind(kind.rawValue)).where("item_id", .equal, SQLBind(itemID))
            .where(SQLIdentifier("episode_id"), .is, SQLLiteral.null)
            // By day alone, which the title's index (profile, kind, item, day) gives in order: with
            // `created_at` too, SQLite chose the diary's index (profile, day, created) to skip the
            // sort and walked every watch of the person (10 ms for 12,000 watches, on every title
            // page). The few watches of one day are put in order here.
            .orderBy("watched_on", .descending).limit(500)
    }

    static func rows(_ select: SQLSelectBuilder, profile: UUID) -> SQLSelectBuilder {
        select.columns(Row.columns.map { SQLIdentifier($0) }).from("watches").where("profile_id", .equal, SQLBind(profile))
    }

    /// A watch is a rewatch when the same title has a watch on an earlier day (or earlier that day).
    private func markRewatches(_ rows: [Row], profile: UUID) async throws -> [Watch] {
        guard !rows.isEmpty else { return [] }
        let earliest = try await database.sql.select()
            .column("media_kind").column("item_id").column("episode_id")
            .column(SQLFunction("MIN", args: SQLIdentifier("watched_on")), as: "first_day")
            .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from("watches").where("profile_id", .equal, SQLBind(profile))
            .where("item_id", .in, SQLBind.group(Array(Set(rows.map(\.item_id)))))
            .groupBy("media_kind").groupBy("item_id").groupBy("episode_id")
            .all(decoding: FirstWatch.self)
        // An episode's watches are rewatches of that episode, not of its show.
        let first = Dictionary(earliest.map { ("\($0.media_kind)|\($0.item_id)|\($0.episode_id ?? 0)", $0) }, uniquingKeysWith: { a, _ in a })
        return rows.map { row in
            guard let title = first["\(row.media_kind)|\(row.item_id)|\(row.episode_id ?? 0)"], title.n > 1 else {
                return row.watch(isRewatch: false)
            }
            return row.watch(isRewatch: row.watched_on > title.first_day || rows.contains { $0.sameTitle(row) && $0.isEarlier(than: row) })
        }
    }

    private struct FirstWatch: Decodable {
        var media_kind: String
        var item_id: String
        var episode_id: Int?
        var first_day: String
        var n: Int
    }

    struct Row: Decodable {
        static let columns = [
            "id", "media_kind", "item_id", "title", "artwork_url", "watched_on", "rating", "note", "created_at", "episode_id", "season",
            "episode_number", "episode_name",
        ]
        var id: UUID
        var media_kind: String
        var item_id: String
        var title: String
        var artwork_url: String?
        var watched_on: String
        var rating: Int?
        var note: String?
        var created_at: Date
        var episode_id: Int?
        var season: Int?
        var episode_number: Int?
        var episode_name: String?

        func sameTitle(_ other: Row) -> Bool { media_kind == other.media_kind && item_id == other.item_id && episode_id == other.episode_id }
        func isEarlier(than other: Row) -> Bool { watched_on == other.watched_on && created_at < other.created_at }

        func watch(isRewatch: Bool) -> Watch {
            Watch(
                id: id, kind: MediaKind(rawValue: media_kind) ?? .movie, itemID: item_id, title: title, artworkURL: artwork_url,
                day: watched_on, rating: rating, note: note, isRewatch: isRewatch,
                episode: episode_id.map { WatchedEpisode(id: $0, season: season ?? 0, number: episode_number, name: episode_name ?? "") })
        }
    }
}

/// Changing one watch: its day, rating and note, checked as when it was logged.
extension DiaryService {
    /// The person's watches with these ids (others' and unknown ids find nothing), rewatches marked.
    func watches(profile: UUID, ids: [UUID]) async throws -> [Watch] {
        guard !ids.isEmpty else { return [] }
        let rows = try await Self.rows(database.sql.select(), profile: profile).where("id", .in, SQLBind.group(ids)).all(decoding: Row.self)
        return try await markRewatches(rows, profile: profile)
    }

    /// One of the person's own watches (nil for anyone else's).
    public func watch(profile: UUID?, id: UUID) async throws -> Watch? {
        guard let profile else { return nil }
        return try await Self.rows(database.sql.select(), profile: profile).where("id", .equal, SQLBind(id))
            .first(decoding: Row.self)?.watch(isRewatch: false)
    }

    /// Sets a watch's day, rating and note (nil clears the rating and the note); false when it is
    /// not the person's. Checked before anything is written.
    public func update(profile: UUID, id: UUID, day: String, rating: Int?, note: String?) async throws(LibraryError) -> Bool {
        defer { database.changes.publish(.person(profile)) }
        let day = try Self.validatedDay(day, now: clock.now())
        let rating = try LibraryService.validatedRating(rating)
        let note = try LibraryService.validatedNote(note)
        do {
            return try await database.write(serializedBy: profile.uuidString) { db in
                let sql = db as! any SQLDatabase
                guard
                    let found = try await sql.select().column("media_kind").column("item_id").column("note").column("rating").from("watches")
                        .where("id", .equal, SQLBind(id)).where("profile_id", .equal, SQLBind(profile)).first()
                else { return false }
                let kind = MediaKind(rawValue: try found.decode(column: "media_kind", as: String.self)) ?? .movie
                let itemID = try found.decode(column: "item_id", as: String.self)
                let oldNote = try found.decodeNil(column: "note") ? nil : try found.decode(column: "note", as: String.self)
                let oldRating = try found.decodeNil(column: "rating") ? nil : try found.decode(column: "rating", as: Int.self)
                try await sql.update("watches").set("watched_on", to: SQLBind(day)).set("rating", to: SQLBind(rating))
                    .set("note", to: SQLBind(note)).where("id", .equal, SQLBind(id)).run()
                // Checked after the day is set: the watch may have become, or stopped being, the latest.
                if let entry = try await EntryRow.find(sql, profile: profile, kind: kind, itemID: itemID) {
                    try await WatchNotes.watchChanged(
                        sql, profile: profile, watchID: id, entry: entry, note: .init(old: oldNote, new: note),
                        rating: .init(old: oldRating, new: rating))
                }
                return true
            }
        } catch {
            throw .storageFailed("\(error)")
        }
    }
}
