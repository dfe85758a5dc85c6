import Foundation
import SQLKit

/// Reads `WatchStatistics` with four queries run at once. Months, years, minutes and genres come
/// from the tallies the database keeps of each person's watches (migration 026: per month and
/// kind, per year and genre); all time, so do the titles (per title); a year in review reads its
/// watches by title (migration 020's index). The fourth is the ratings of the person's saved
/// titles. Measured on 12,000 watches in `scripts/bench`: the two passes over every watch this
/// replaces took 4–5 ms each, again after every watch logged.
public final class StatisticsService: Sendable {
    typealias Period = WatchStatistics.Period
    public static let topCount = 10
    /// `watch_months.media_kind` of episodes' watches.
    static let episodeKind = "episode"
    let database: AppDatabase
    let clock: any AppClock

    init(database: AppDatabase, clock: any AppClock) {
        self.database = database
        self.clock = clock
    }

    /// The figures read from the watches of a period.
    struct Watched: Sendable {
        var months: [String: Period]
        var years: [Period]
        var minutes: [MediaKind: Int]
        var titles: Int
        var firsts: Int
        var rewatched: [WatchStatistics.Rewatched]
        var genres: [WatchStatistics.Genre]
        var reviewYears: [Int]
    }

    public func statistics(profile: UUID?, year: Int?) async throws -> WatchStatistics {
        let range = year.map { (String(format: "%04d-01-01", $0), String(format: "%04d-12-31", $0)) } ?? ("0000-01-01", "9999-12-31")
        let monthKeys = Self.monthKeys(year: year, now: clock.now())
        guard let profile else {
            return WatchStatistics(
                year: year, films: 0, shows: 0, titles: 0, rewatches: 0, filmMinutes: 0, showMinutes: 0,
                months: monthKeys.map { .init(key: $0, films: 0, shows: 0, minutes: 0) }, years: [], ratings: Array(repeating: 0, count: 10),
                genres: [], rewatched: [], reviewYears: [])
        }
        async let ratings = self.ratings(profile, year: year, range)
        async let undated = year == nil ? self.undatedWatched(profile) : 0
        async let finished = self.finishedShows(profile, year: year, range)
        let watched = try await self.watched(profile, year: year, range)
        let films = watched.years.reduce(0) { $0 + $1.films }
        let shows = watched.years.reduce(0) { $0 + $1.shows }
        let episodes = watched.years.reduce(0) { $0 + $1.episodes }
        // Episodes are no titles of their own: their watches are no rewatches of their show.
        var statistics = WatchStatistics(
            year: year, films: films, shows: shows, titles: watched.titles, rewatches: films + shows - episodes - watched.firsts,
            filmMinutes: watched.minutes[.movie] ?? 0, showMinutes: watched.minutes[.show] ?? 0,
            months: monthKeys.map { watched.months[$0] ?? Period(key: $0, films: 0, shows: 0, minutes: 0) }, years: watched.years,
            ratings: try await ratings, genres: watched.genres, rewatched: watched.rewatched, reviewYears: watched.reviewYears)
        statistics.episodes = episodes
        statistics.undatedWatched = try await undated
        statistics.showsFinished = try await finished
        return statistics
    }

    /// Shows the person finished: TVMaze says the show has ended, and every episode it counts for
    /// them (the regular ones, and the specials when they include them) has aired and is watched.
    /// A show is finished on the latest day one of its episodes was watched; all time also counts
    /// shows finished only on days nobody knows. Read from the held episode lists, with the
    /// watched-episode index (`watches_episode`).
    private func finishedShows(_ profile: UUID, year: Int?, _ range: (String, String)) async throws -> Int {
        let now = clock.now()
        struct Row: Decodable {
            var show_id: Int
            var last_day: String?
        }
        let rows = try await database.sql.raw(
            """
            SELECT p.show_id, (SELECT MAX(w.watched_on) FROM watches w JOIN tv_episodes we ON we.id = w.episode_id \
              WHERE w.profile_id = p.profile_id AND we.show_id = p.show_id) AS last_day \
            FROM show_progress p JOIN tv_episode_lists l ON l.show_id = p.show_id \
            WHERE p.profile_id = \(bind: profile) AND l.show_status = 'Ended' \
            AND EXISTS (SELECT 1 FROM tv_episodes e WHERE e.show_id = p.show_id AND e.kind = 'regular') \
            AND NOT EXISTS (SELECT 1 FROM tv_episodes e WHERE e.show_id = p.show_id \
              AND (e.kind = 'regular' OR p.include_specials = \(SQLLiteral.boolean(true))) \
              AND (e.airs_at IS NULL OR e.airs_at > \(bind: now) \
                OR (NOT EXISTS (SELECT 1 FROM watches w WHERE w.profile_id = p.profile_id AND w.episode_id = e.id) \
                  AND NOT EXISTS (SELECT 1 FROM episode_states s WHERE s.profile_id = p.profile_id AND s.episode_id = e.id \
                    AND s.undated_watches > 0))))
            """
        ).all(decoding: Row.self)
        guard year != nil else { return rows.count }
        return rows.count { row in row.last_day.map { $0 >= range.0 && $0 <= range.1 } ?? false }
    }

    /// Titles marked Watched with no watch in the diary.
    private func undatedWatched(_ profile: UUID) async throws -> Int {
        try await database.sql.raw(
            """
            SELECT COUNT(*) AS n FROM library_entries l WHERE l.profile_id = \(bind: profile) AND l.watched = \(bind: true) \
            AND NOT EXISTS (SELECT 1 FROM watches w WHERE w.profile_id = l.profile_id AND w.media_kind = l.media_kind AND w.item_id = l.item_id)
            """
        ).first(decodingColumn: "n", as: Int.self) ?? 0
    }

    /// The watches' figures of a period.
    private func watched(_ profile: UUID, year: Int?, _ range: (String, String)) async throws -> Watched {
        async let days = self.days(profile, range)
        async let titles = self.titles(profile, range, allTime: year == nil)
        async let genres = self.genres(profile, range)
        async let reviewYears = year == nil ? nil : self.reviewYears(profile)
        let (byMonth, byYear, minutes) = try await days
        let years = byYear.values.sorted { $0.key < $1.key }
        let (titleCount, firsts, top) = try await titles
        return Watched(
            months: byMonth, years: years, minutes: minutes, titles: titleCount, firsts: firsts, rewatched: try await rewatched(profile, top),
            genres: try await genres, reviewYears: try await reviewYears ?? years.reversed().compactMap { Int($0.key) })
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

    /// Watches and minutes per month and kind, summed into months, years and minutes per kind.
    private func days(
        _ profile: UUID, _ range: (String, String)
    ) async throws -> (months: [String: Period], years: [String: Period], minutes: [MediaKind: Int]) {
        struct Row: Decodable {
            var month: String
            var media_kind: String
            var n: Int
            var minutes: Int?
        }
        let rows = try await database.sql.raw(
            """
            SELECT month, media_kind, watch_count AS n, minutes FROM watch_months
            WHERE profile_id = \(bind: profile) AND month >= \(bind: String(range.0.prefix(7))) AND month <= \(bind: String(range.1.prefix(7)))
            """
        ).all(decoding: Row.self)
        var months: [String: Period] = [:]
        var years: [String: Period] = [:]
        var minutes: [MediaKind: Int] = [:]
        for row in rows {
            // An episode's watch is a show's watch, counted apart too (migration 031).
            let episode = row.media_kind == Self.episodeKind
            let kind = episode ? .show : MediaKind(rawValue: row.media_kind) ?? .movie
            minutes[kind, default: 0] += row.minutes ?? 0
            for (key, isYear) in [(row.month, false), (String(row.month.prefix(4)), true)] {
                var period = (isYear ? years[key] : months[key]) ?? Period(key: key, films: 0, shows: 0, minutes: 0)
                if kind == .movie { period.films += row.n } else { period.shows += row.n }
                if episode { period.episodes += row.n }
                period.minutes += row.minutes ?? 0
                if isYear { years[key] = period } else { months[key] = period }
            }
        }
        return (months, years, minutes)
    }

    private struct TitleRow: Decodable {
        var media_kind: String
        var item_id: String
        var n: Int
        var firsts: Int
    }

    /// How many different titles were watched in the period, how many of them for the first time
    /// ever (every other watch in it is a rewatch), and the most rewatched. All time, that is the
    /// person's title tallies (every first watch is in the period); a year reads its watches by title.
    private func titles(
        _ profile: UUID, _ range: (String, String), allTime: Bool
    ) async throws -> (titles: Int, firsts: Int, rewatched: [TitleRow]) {
        let (from, to) = range
        let top = "ORDER BY n DESC, media_kind, item_id LIMIT \(Self.topCount)"
        // A show seen only episode by episode is a title watched too (its episodes' watches are no
        // titles of their own, and no rewatches): counted once, unless a whole-show watch counts it.
        let inPeriod: SQLQueryString = " AND w.watched_on >= \(bind: from) AND w.watched_on <= \(bind: to)"
        func episodeShows(_ period: SQLQueryString) -> SQLQueryString {
            let counted: SQLQueryString =
                allTime
                ? "SELECT 1 FROM watch_titles t WHERE t.profile_id = w.profile_id AND t.media_kind = w.media_kind AND t.item_id = w.item_id"
                : "SELECT 1 FROM per_title p WHERE p.media_kind = w.media_kind AND p.item_id = w.item_id AND p.in_period > 0"
            return """
                SELECT COUNT(DISTINCT w.item_id) FROM watches w WHERE w.profile_id = \(bind: profile) AND w.episode_id IS NOT NULL\(period) \
                AND NOT EXISTS (\(counted))
                """
        }
        let query: SQLQueryString =
            allTime
            ? """
            SELECT '' AS media_kind, '' AS item_id, COUNT(*) + (\(episodeShows(""))) AS n, COUNT(*) AS firsts
            FROM watch_titles WHERE profile_id = \(bind: profile)
            UNION ALL
            SELECT * FROM (SELECT media_kind, item_id, watch_count AS n, 0 AS firsts FROM watch_titles
              WHERE profile_id = \(bind: profile) AND watch_count > 1 \(unsafeRaw: top)) top
            """
            : """
            WITH per_title AS MATERIALIZED (
              SELECT media_kind, item_id, MIN(watched_on) AS first_day,
                SUM(CASE WHEN watched_on >= \(bind: from) AND watched_on <= \(bind: to) THEN 1 ELSE 0 END) AS in_period
              FROM watches WHERE profile_id = \(bind: profile) AND episode_id IS NULL GROUP BY media_kind, item_id)
            SELECT '' AS media_kind, '' AS item_id, COUNT(*) + (\(episodeShows(inPeriod))) AS n,
              COALESCE(SUM(CASE WHEN first_day >= \(bind: from) AND first_day <= \(bind: to) THEN 1 ELSE 0 END), 0) AS firsts
            FROM per_title WHERE in_period > 0
            UNION ALL
            SELECT * FROM (SELECT media_kind, item_id, in_period AS n, 0 AS firsts FROM per_title WHERE in_period > 1 \(unsafeRaw: top)) top
            """
        let rows = try await database.sql.raw(query).all(decoding: TitleRow.self)
        let total = rows.first { $0.media_kind.isEmpty }
        return (total?.n ?? 0, total?.firsts ?? 0, rows.filter { !$0.media_kind.isEmpty }.sorted { $0.n > $1.n })
    }

    /// The most rewatched with their titles (read for those few only).
    private func rewatched(_ profile: UUID, _ top: [TitleRow]) async throws -> [WatchStatistics.Rewatched] {
        guard !top.isEmpty else { return [] }
        struct Row: Decodable {
            var media_kind: String
            var item_id: String
            var title: String
        }
        let rows = try await database.sql.select().column("media_kind").column("item_id").column(
            SQLFunction("MAX", args: SQLIdentifier("title")), as: "title"
        )
        .from("watches").where("profile_id", .equal, SQLBind(profile)).where("item_id", .in, SQLBind.group(top.map(\.item_id)))
        .groupBy("media_kind").groupBy("item_id").all(decoding: Row.self)
        let names = Dictionary(rows.map { ("\($0.media_kind)|\($0.item_id)", $0.title) }, uniquingKeysWith: { a, _ in a })
        return top.map { row in
            .init(
                kind: MediaKind(rawValue: row.media_kind) ?? .movie, itemID: row.item_id, title: names["\(row.media_kind)|\(row.item_id)"] ?? "",
                watches: row.n)
        }
    }

    private func ratings(_ profile: UUID, year: Int?, _ range: (String, String)) async throws -> [Int] {
        struct Row: Decodable {
            var rating: Int
            var n: Int
        }
        let inYear: SQLQueryString =
            year == nil
            ? ""
            : """
             AND EXISTS (SELECT 1 FROM watches w WHERE w.profile_id = l.profile_id AND w.media_kind = l.media_kind AND w.item_id = l.item_id
            AND w.watched_on >= \(bind: range.0) AND w.watched_on <= \(bind: range.1))
            """
        let rows = try await database.sql.raw(
            "SELECT l.rating AS rating, COUNT(*) AS n FROM library_entries l WHERE l.profile_id = \(bind: profile) AND l.rating IS NOT NULL"
                + inYear + " GROUP BY l.rating"
        ).all(decoding: Row.self)
        var counts = Array(repeating: 0, count: 10)
        for row in rows where Rating.range.contains(row.rating) { counts[row.rating - 1] = row.n }
        return counts
    }

    private func genres(_ profile: UUID, _ range: (String, String)) async throws -> [WatchStatistics.Genre] {
        struct Row: Decodable {
            var genre: String
            var n: Int
        }
        return try await database.sql.raw(
            """
            SELECT genre, CAST(SUM(watch_count) AS BIGINT) AS n FROM watch_genres
            WHERE profile_id = \(bind: profile) AND year >= \(bind: String(range.0.prefix(4))) AND year <= \(bind: String(range.1.prefix(4)))
            GROUP BY genre ORDER BY SUM(watch_count) DESC, genre LIMIT \(unsafeRaw: String(Self.topCount))
            """
        ).all(decoding: Row.self).map { .init(name: $0.genre, watches: $0.n) }
    }

    private func reviewYears(_ profile: UUID) async throws -> [Int] {
        struct Row: Decodable { var year: String }
        return try await database.sql.raw(
            "SELECT DISTINCT SUBSTR(month, 1, 4) AS year FROM watch_months WHERE profile_id = \(bind: profile) ORDER BY year DESC"
        ).all(decoding: Row.self).compactMap { Int($0.year) }
    }
}
