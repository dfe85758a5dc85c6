import Foundation
import SQLKit

/// A person's watching in numbers, from the diary: all time, or one year ("year in review").
public struct WatchStatistics: Sendable, Equatable {
    /// Watches in a month (`2026-11`) or a year (`2026`).
    public struct Period: Sendable, Equatable {
        public var key: String
        public var films: Int
        public var shows: Int
        public var minutes: Int
        public var watches: Int { films + shows }
    }

    public struct Genre: Sendable, Equatable {
        public var name: String
        public var watches: Int
    }

    public struct Rewatched: Sendable, Equatable {
        public var kind: MediaKind
        public var itemID: String
        public var title: String
        public var watches: Int
    }

    /// nil: all time.
    public var year: Int?
    public var films: Int
    public var shows: Int
    /// Different titles watched.
    public var titles: Int
    /// Watches of a title watched before (ever, not only in the period).
    public var rewatches: Int
    /// From each watch's runtime: a film's length, one episode of a show.
    public var filmMinutes: Int
    public var showMinutes: Int
    /// The year's twelve months; all time, the last twelve up to this month. Oldest first.
    public var months: [Period]
    /// Every year with a watch, oldest first (within the period).
    public var years: [Period]
    /// How many titles have each rating, index 0 for 1 (½ ★) … 9 for 10 (5 ★): all rated titles,
    /// or for a year the rated titles watched that year.
    public var ratings: [Int]
    public var genres: [Genre]
    public var rewatched: [Rewatched]
    /// Every year with a watch, newest first: the years in review there are.
    public var reviewYears: [Int]

    public var watches: Int { films + shows }
}

/// Reads `WatchStatistics` with a handful of aggregate queries over the person's watches (each on
/// an index that starts with the person), not by loading the diary.
public struct StatisticsService: Sendable {
    typealias Period = WatchStatistics.Period

    public static let topCount = 10
    let database: AppDatabase
    let clock: any AppClock

    public func statistics(profile: UUID?, year: Int?) async throws -> WatchStatistics {
        let (from, to) = year.map { (String(format: "%04d-01-01", $0), String(format: "%04d-12-31", $0)) } ?? ("0000-01-01", "9999-12-31")
        let monthKeys = Self.monthKeys(year: year, now: clock.now())
        guard let profile else {
            return WatchStatistics(
                year: year, films: 0, shows: 0, titles: 0, rewatches: 0, filmMinutes: 0, showMinutes: 0,
                months: monthKeys.map { .init(key: $0, films: 0, shows: 0, minutes: 0) }, years: [], ratings: Array(repeating: 0, count: 10),
                genres: [], rewatched: [], reviewYears: [])
        }
        let sql = database.sql
        struct MonthRow: Decodable {
            var month: String
            var media_kind: String
            var n: Int
            var minutes: Int?
        }
        let monthRows = try await sql.raw(
            """
            SELECT SUBSTR(watched_on, 1, 7) AS month, media_kind, COUNT(*) AS n, SUM(runtime_minutes) AS minutes FROM watches
            WHERE profile_id = \(bind: profile) AND watched_on >= \(bind: from) AND watched_on <= \(bind: to)
            GROUP BY SUBSTR(watched_on, 1, 7), media_kind
            """
        ).all(decoding: MonthRow.self)
        var byMonth: [String: Period] = [:]
        var byYear: [String: Period] = [:]
        for row in monthRows {
            let film = row.media_kind == MediaKind.movie.rawValue
            for (key, isYear) in [(row.month, false), (String(row.month.prefix(4)), true)] {
                var period = (isYear ? byYear[key] : byMonth[key]) ?? Period(key: key, films: 0, shows: 0, minutes: 0)
                if film { period.films += row.n } else { period.shows += row.n }
                period.minutes += row.minutes ?? 0
                if isYear { byYear[key] = period } else { byMonth[key] = period }
            }
        }
        let years = byYear.values.sorted { $0.key < $1.key }
        struct Total: Decodable { var n: Int }
        // Titles whose first watch ever falls in the period: every other watch in it is a rewatch.
        let firstWatches =
            try await sql.raw(
                """
                SELECT COUNT(*) AS n FROM (SELECT MIN(watched_on) AS first_day FROM watches WHERE profile_id = \(bind: profile)
                GROUP BY media_kind, item_id) firsts WHERE first_day >= \(bind: from) AND first_day <= \(bind: to)
                """
            ).first(decoding: Total.self)?.n ?? 0
        let titles =
            try await sql.raw(
                """
                SELECT COUNT(*) AS n FROM (SELECT media_kind FROM watches WHERE profile_id = \(bind: profile)
                AND watched_on >= \(bind: from) AND watched_on <= \(bind: to) GROUP BY media_kind, item_id) titles
                """
            ).first(decoding: Total.self)?.n ?? 0
        let films = years.reduce(0) { $0 + $1.films }
        let shows = years.reduce(0) { $0 + $1.shows }
        return WatchStatistics(
            year: year, films: films, shows: shows, titles: titles, rewatches: films + shows - firstWatches,
            filmMinutes: try await minutes(profile, .movie, from, to), showMinutes: try await minutes(profile, .show, from, to),
            months: monthKeys.map { byMonth[$0] ?? Period(key: $0, films: 0, shows: 0, minutes: 0) }, years: years,
            ratings: try await ratings(profile, year: year, from, to), genres: try await genres(profile, from, to),
            rewatched: try await rewatched(profile, from, to), reviewYears: try await reviewYears(profile))
    }

    /// `2026-01` … `2026-12` for a year; the twelve months up to this one otherwise.
    static func monthKeys(year: Int?, now: Date) -> [String] {
        if let year { return (1...12).map { String(format: "%04d-%02d", year, $0) } }
        let calendar = Calendar.utc
        return (0..<12).reversed().compactMap { back in
            calendar.date(byAdding: .month, value: -back, to: now).map { date in
                String(format: "%04d-%02d", calendar.component(.year, from: date), calendar.component(.month, from: date))
            }
        }
    }

    private func minutes(_ profile: UUID, _ kind: MediaKind, _ from: String, _ to: String) async throws -> Int {
        struct Row: Decodable { var minutes: Int? }
        return try await database.sql.raw(
            """
            SELECT SUM(runtime_minutes) AS minutes FROM watches WHERE profile_id = \(bind: profile) AND media_kind = \(bind: kind.rawValue)
            AND watched_on >= \(bind: from) AND watched_on <= \(bind: to)
            """
        ).first(decoding: Row.self)?.minutes ?? 0
    }

    private func ratings(_ profile: UUID, year: Int?, _ from: String, _ to: String) async throws -> [Int] {
        struct Row: Decodable {
            var rating: Int
            var n: Int
        }
        let inYear: SQLQueryString =
            year == nil
            ? ""
            : """
             AND EXISTS (SELECT 1 FROM watches w WHERE w.profile_id = l.profile_id AND w.media_kind = l.media_kind AND w.item_id = l.item_id
            AND w.watched_on >= \(bind: from) AND w.watched_on <= \(bind: to))
            """
        let rows = try await database.sql.raw(
            "SELECT l.rating AS rating, COUNT(*) AS n FROM library_entries l WHERE l.profile_id = \(bind: profile) AND l.rating IS NOT NULL"
                + inYear + " GROUP BY l.rating"
        ).all(decoding: Row.self)
        var counts = Array(repeating: 0, count: 10)
        for row in rows where Rating.range.contains(row.rating) { counts[row.rating - 1] = row.n }
        return counts
    }

    private func genres(_ profile: UUID, _ from: String, _ to: String) async throws -> [WatchStatistics.Genre] {
        struct Row: Decodable {
            var genre: String
            var n: Int
        }
        return try await database.sql.raw(
            """
            SELECT genre, COUNT(*) AS n FROM watches WHERE profile_id = \(bind: profile) AND genre IS NOT NULL
            AND watched_on >= \(bind: from) AND watched_on <= \(bind: to) GROUP BY genre ORDER BY COUNT(*) DESC, genre LIMIT \(unsafeRaw: String(Self.topCount))
            """
        ).all(decoding: Row.self).map { .init(name: $0.genre, watches: $0.n) }
    }

    private func rewatched(_ profile: UUID, _ from: String, _ to: String) async throws -> [WatchStatistics.Rewatched] {
        struct Row: Decodable {
            var media_kind: String
            var item_id: String
            var title: String
            var n: Int
        }
        return try await database.sql.raw(
            """
            SELECT media_kind, item_id, MAX(title) AS title, COUNT(*) AS n FROM watches WHERE profile_id = \(bind: profile)
            AND watched_on >= \(bind: from) AND watched_on <= \(bind: to) GROUP BY media_kind, item_id HAVING COUNT(*) > 1
            ORDER BY COUNT(*) DESC, MAX(title) LIMIT \(unsafeRaw: String(Self.topCount))
            """
        ).all(decoding: Row.self).map {
            .init(kind: MediaKind(rawValue: $0.media_kind) ?? .movie, itemID: $0.item_id, title: $0.title, watches: $0.n)
        }
    }

    private func reviewYears(_ profile: UUID) async throws -> [Int] {
        struct Row: Decodable { var year: String }
        return try await database.sql.raw(
            "SELECT DISTINCT SUBSTR(watched_on, 1, 4) AS year FROM watches WHERE profile_id = \(bind: profile) ORDER BY year DESC"
        ).all(decoding: Row.self).compactMap { Int($0.year) }
    }
}
