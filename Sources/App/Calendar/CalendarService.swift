import Foundation
import SQLKit

/// One thing on a person's calendar: an episode of a show they track, or a film in their
/// Favorites on its release day.
public struct CalendarItem: Sendable, Equatable {
    public enum Kind: String, Sendable { case episode, movie }
    /// A season's first or last episode (a show's first season's first is the series premiere; the
    /// last season's last of an ended show, its finale).
    public enum Mark: String, Sendable {
        case seriesPremiere = "Series premiere"
        case seasonPremiere = "Season premiere"
        case seasonFinale = "Season finale"
        case seriesFinale = "Series finale"
    }

    public var kind: Kind
    /// The episode's TVMaze id, or the film's id.
    public var id: Int
    /// The show's name, or the film's title.
    public var title: String
    public var showID: Int?
    public var episode: Episode?
    public var network: String?
    /// The instant it starts (an all-day item: the start of its day in UTC).
    public var start: Date
    /// Its end, when its runtime is known (never for an all-day item).
    public var end: Date?
    /// Only the day is known (`day`): no time of day.
    public var allDay: Bool
    /// `yyyy-MM-dd`: the day of an all-day item as given (the same in every time zone).
    public var day: String?
    public var watched: Bool
    public var mark: Mark?
    /// The episode's summary as TVMaze gave it (untrusted HTML), when asked for.
    public var summaryHTML: String?
    /// The day it falls on in the zone it was asked for (`CalendarService.items`).
    public var shownDay = ""

    /// "Show – S02E05 – Title" (the feed's SUMMARY and the page's heading of it).
    public var fullTitle: String {
        guard let episode else { return title }
        return "\(title) – \(episode.code) – \(episode.name)"
    }

    /// The day it falls on for someone in `zone`.
    public func localDay(in zone: TimeZone) -> String {
        if let day { return day }
        return CalendarService.day(of: start, in: zone)
    }
}

/// What a calendar asks for.
public struct CalendarQuery: Sendable, Hashable {
    /// The first and last day wanted (`yyyy-MM-dd`, both included), in `zone`.
    public var from: String
    public var to: String
    public var zone: TimeZone
    public var premieresOnly = false
    public var unwatchedOnly = false
    /// With the episodes' summaries (the feed's descriptions).
    public var summaries = false

    /// At most this many days in one call.
    public static let maxDays = 93
}

/// Why a calendar could not be read.
public enum CalendarError: Error, Sendable, Equatable {
    case invalid(String)

    public var message: String {
        switch self {
        case .invalid(let message): message
        }
    }
}

/// A person's calendar: the episodes of the shows they track (Watching, Up to date or Favorite;
/// never Stopped) and the films in their Favorites, by when they air or come out. Reads the
/// episode tables `EpisodeCatalog` keeps; never asks TVMaze.
public final class CalendarService: Sendable {
    let database: AppDatabase
    let clock: any AppClock

    init(database: AppDatabase, clock: any AppClock) {
        self.database = database
        self.clock = clock
    }

    /// The person's own time zone (set on their account), if any.
    public func timeZone(profile: UUID) async throws -> TimeZone? {
        struct Row: Decodable { var time_zone: String? }
        let row = try await database.sql.select().column("time_zone").from("profiles").where("id", .equal, SQLBind(profile))
            .first(decoding: Row.self)
        return row?.time_zone.flatMap(TimeZone.init(identifier:))
    }

    /// The zone a person's days are in when no browser says: their own, else UTC.
    public func zone(profile: UUID) async throws -> TimeZone {
        try await timeZone(profile: profile) ?? TimeZone(identifier: "UTC")!
    }

    /// Sets (or clears, nil) the person's time zone. Throws `.invalid` for a name that is no zone.
    public func setTimeZone(_ identifier: String?, profile: UUID) async throws(CalendarError) {
        var chosen: String?
        if let identifier, !identifier.isEmpty {
            guard let zone = Self.zone(named: identifier) else {
                throw .invalid("“\(identifier.prefix(40))” is not a time zone. Choose one from the list, such as Europe/Paris.")
            }
            chosen = zone.identifier
        }
        let stored = chosen
        do {
            try await database.writeSQL { sql in
                try await sql.update("profiles").set("time_zone", to: SQLBind(stored)).set("updated_at", to: SQLBind(self.clock.now()))
                    .where("id", .equal, SQLBind(profile)).run()
            }
        } catch {
            throw .invalid("Your time zone could not be saved. Try again in a moment.")
        }
        database.changes.publish(.person(profile))
    }

    /// A time zone by its IANA name (`Pacific/Auckland`), nil for anything else.
    public static func zone(named name: String) -> TimeZone? {
        guard name.count <= 64, TimeZone.knownTimeZoneIdentifiers.contains(name) || name == "UTC" else { return nil }
        return TimeZone(identifier: name)
    }

    /// `yyyy-MM-dd` of `date` in `zone`.
    public static func day(of date: Date, in zone: TimeZone) -> String {
        day(of: date, in: gregorian(zone))
    }

    static func gregorian(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    /// `yyyy-MM-dd` of `date` in the calendar's zone (one calendar for many dates: making one is
    /// most of the cost).
    static func day(of date: Date, in calendar: Calendar) -> String {
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return String(c.year ?? 1970) + "-" + two(c.month ?? 1) + "-" + two(c.day ?? 1)
    }

    /// The day `offset` days from `day`.
    public static func day(_ day: String, plus offset: Int) -> String? {
        guard let noon = UTCFormatters.noon(ofDay: day) else { return nil }
        return DiaryService.today(noon.addingTimeInterval(Double(offset) * 86_400))
    }

    /// The start of `day` in `zone`.
    static func start(of day: String, in zone: TimeZone) -> Date? {
        guard let utc = UTCFormatters.startOfDay(day) else { return nil }
        // The offset at that day's start; near a change of offset, the hour either side is close enough
        // for a query widened by a day.
        return utc.addingTimeInterval(-Double(zone.secondsFromGMT(for: utc)))
    }

    /// Today in `zone`.
    public func today(in zone: TimeZone) -> String { Self.day(of: clock.now(), in: zone) }

    /// A query from `from` to `to` (`yyyy-MM-dd`, both included): at most `maxDays` days.
    public static func query(from: String, to: String, zone: TimeZone) throws(CalendarError) -> CalendarQuery {
        guard from.count == 10, let start = UTCFormatters.noon(ofDay: from) else {
            throw .invalid("“from” must be a date written as 2026-11-24.")
        }
        guard to.count == 10, let end = UTCFormatters.noon(ofDay: to) else { throw .invalid("“to” must be a date written as 2026-11-24.") }
        guard end >= start else { throw .invalid("“to” (\(to)) is before “from” (\(from)).") }
        let days = Int((end.timeIntervalSince(start) / 86_400).rounded()) + 1
        guard days <= CalendarQuery.maxDays else {
            throw .invalid("At most \(CalendarQuery.maxDays) days at once: \(from) to \(to) is \(days). Ask for the rest in another call.")
        }
        return CalendarQuery(from: from, to: to, zone: zone)
    }

    /// The shows the person tracks: in progress or Favorite, never Stopped, with their names.
    func trackedShows(profile: UUID, on sql: any SQLDatabase) async throws -> [Int: String] {
        struct Progress: Decodable {
            var show_id: Int
            var title: String
            var stopped: Bool
        }
        struct Favorite: Decodable {
            var item_id: String
            var title: String
        }
        let progress = try await sql.select().columns("show_id", "title", "stopped").from("show_progress")
            .where("profile_id", .equal, SQLBind(profile)).all(decoding: Progress.self)
        let favorites = try await sql.select().columns("item_id", "title").from("library_entries")
            .where("profile_id", .equal, SQLBind(profile)).where("media_kind", .equal, SQLBind(MediaKind.show.rawValue))
            .where("favorite", .equal, SQLLiteral.boolean(true)).all(decoding: Favorite.self)
        var shows: [Int: String] = [:]
        for favorite in favorites { if let id = Int(favorite.item_id) { shows[id] = favorite.title } }
        for row in progress { if row.stopped { shows[row.show_id] = nil } else { shows[row.show_id] = row.title } }
        return shows
    }

    /// The calendar's items from the first day's start to the last day's end in the query's zone,
    /// in order of time (all-day items first on their day).
    public func items(profile: UUID, _ query: CalendarQuery) async throws -> [CalendarItem] {
        let sql = try database.sql
        let zone = query.zone
        guard let from = Self.start(of: query.from, in: zone), let toDay = Self.day(query.to, plus: 1),
            let to = Self.start(of: toDay, in: zone)
        else { return [] }
        var items = try await episodes(profile: profile, from: from, to: to, query: query, on: sql)
        if !query.premieresOnly { items += try await films(profile: profile, query: query, on: sql) }
        if query.unwatchedOnly { items.removeAll(where: \.watched) }
        let calendar = Self.gregorian(zone)
        for index in items.indices { items[index].shownDay = items[index].day ?? Self.day(of: items[index].start, in: calendar) }
        return items.filter { (query.from...query.to).contains($0.shownDay) }
            .sorted { a, b in
                if a.shownDay != b.shownDay { return a.shownDay < b.shownDay }
                if a.allDay != b.allDay { return a.allDay }
                if a.start != b.start { return a.start < b.start }
                return (a.title, a.id) < (b.title, b.id)
            }
    }

    /// What the calendar reads beside the episode's own columns (`EpisodeService.EpisodeRow`).
    private struct Extras: Decodable {
        var summary: String?
        var network: String?
        var show_status: String?
        var episode_order: Int?
        var end_date: String?
        var last_number: Int?
        var last_season: Int?
    }

    private func episodes(
        profile: UUID, from: Date, to: Date, query: CalendarQuery, on sql: any SQLDatabase
    ) async throws -> [CalendarItem] {
        let shows = try await trackedShows(profile: profile, on: sql)
        guard !shows.isEmpty else { return [] }
        // A day either side: an all-day episode is stored at its day's start in UTC, which is
        // another day in far zones; `items` keeps the ones on the days asked.
        let window: SQLQueryString =
            "e.airs_at >= \(bind: from.addingTimeInterval(-86_400)) AND e.airs_at < \(bind: to.addingTimeInterval(86_400))"
        return try await episodeItems(
            profile: profile, shows: shows, where: window, summaries: query.summaries, premieresOnly: query.premieresOnly, on: sql)
    }

    /// One episode as the calendar has it, when its show is among `shows` (the person's tracked ones).
    func episodeItem(_ id: Int, profile: UUID, shows: [Int: String]) async throws -> CalendarItem? {
        guard !shows.isEmpty else { return nil }
        return try await episodeItems(
            profile: profile, shows: shows, where: "e.id = \(bind: id)", summaries: false, premieresOnly: false, on: database.sql
        )
        .first
    }

    private func episodeItems(
        profile: UUID, shows: [Int: String], where condition: SQLQueryString, summaries: Bool, premieresOnly: Bool, on sql: any SQLDatabase
    ) async throws -> [CalendarItem] {
        let ids = SQLGroupExpression(shows.keys.sorted().map { SQLBind($0) as any SQLExpression })
        let summary: SQLQueryString = summaries ? "e.summary" : "NULL AS summary"
        let rows = try await sql.raw(
            """
            SELECT e.id, e.show_id, e.position, e.season, e.number, e.kind, e.name, e.airdate, e.airtime, e.airstamp, \
            e.runtime_minutes, e.image_url, \(summary), l.network, l.show_status, s.episode_order, s.end_date, \
            CASE WHEN s.episode_order IS NULL AND s.end_date IS NOT NULL THEN \
            (SELECT MAX(x.number) FROM tv_episodes x WHERE x.show_id = e.show_id AND x.season = e.season AND x.kind = 'regular') END \
            AS last_number, \
            CASE WHEN l.show_status = 'Ended' THEN \
            (SELECT MAX(y.season) FROM tv_episodes y WHERE y.show_id = e.show_id AND y.kind = 'regular') END AS last_season \
            FROM tv_episodes e LEFT JOIN tv_episode_lists l ON l.show_id = e.show_id \
            LEFT JOIN tv_seasons s ON s.show_id = e.show_id AND s.number = e.season \
            WHERE e.show_id IN \(ids) AND \(condition) \
            ORDER BY e.airs_at, e.show_id, e.position LIMIT 5000
            """
        ).all().map { (try $0.decode(model: EpisodeService.EpisodeRow.self).episode, try $0.decode(model: Extras.self)) }
        guard !rows.isEmpty else { return [] }
        let watched = try await watchedEpisodes(profile: profile, among: rows.map(\.0.id), on: sql)
        return rows.compactMap { episode, row in
            let mark = Self.mark(episode, row)
            if premieresOnly, mark != .seasonPremiere, mark != .seriesPremiere { return nil }
            guard let start = episode.airsAt else { return nil }
            let timed = episode.airstamp != nil
            return CalendarItem(
                kind: .episode, id: episode.id, title: shows[episode.showID] ?? "", showID: episode.showID, episode: episode,
                network: row.network, start: start, end: timed ? episode.runtimeMinutes.map { start.addingTimeInterval(Double($0) * 60) } : nil,
                allDay: !timed,
                day: timed ? nil : episode.airdate, watched: watched.contains(episode.id), mark: mark, summaryHTML: row.summary)
        }
    }

    private static func mark(_ episode: Episode, _ row: Extras) -> CalendarItem.Mark? {
        guard episode.kind == .regular, let number = episode.number else { return nil }
        if number == 1 { return episode.season == 1 ? .seriesPremiere : .seasonPremiere }
        // The season's last: its announced order when TVMaze gives one, else its last listed episode
        // once the season has an end date (a running season's last listed episode is no finale).
        let last = row.episode_order ?? (row.end_date != nil ? row.last_number : nil)
        guard let last, number == last else { return nil }
        return row.show_status == "Ended" && episode.season == row.last_season ? .seriesFinale : .seasonFinale
    }

    private func watchedEpisodes(profile: UUID, among ids: [Int], on sql: any SQLDatabase) async throws -> Set<Int> {
        struct Row: Decodable { var episode_id: Int }
        let list = SQLGroupExpression(ids.map { SQLBind($0) as any SQLExpression })
        let rows = try await sql.raw(
            """
            SELECT episode_id FROM watches WHERE profile_id = \(bind: profile) AND episode_id IN \(list) \
            UNION SELECT episode_id FROM episode_states WHERE profile_id = \(bind: profile) AND undated_watches > 0 \
            AND episode_id IN \(list)
            """
        ).all(decoding: Row.self)
        return Set(rows.map(\.episode_id))
    }

    /// Films in the person's Favorites released on the days asked (their release day, the same everywhere).
    private func films(profile: UUID, query: CalendarQuery, on sql: any SQLDatabase) async throws -> [CalendarItem] {
        struct Row: Decodable {
            var item_id: String
            var title: String
            var release_date: Date
            var watched: Bool
        }
        guard let from = UTCFormatters.startOfDay(query.from), let to = UTCFormatters.startOfDay(query.to) else { return [] }
        let rows = try await sql.select().columns("item_id", "title", "release_date", "watched").from("library_entries")
            .where("profile_id", .equal, SQLBind(profile)).where("media_kind", .equal, SQLBind(MediaKind.movie.rawValue))
            .where("favorite", .equal, SQLLiteral.boolean(true))
            .where("release_date", .greaterThanOrEqual, SQLBind(from)).where("release_date", .lessThan, SQLBind(to.addingTimeInterval(86_400)))
            .limit(1000).all(decoding: Row.self)
        return rows.compactMap { row in
            guard let id = Int(row.item_id) else { return nil }
            let day = DiaryService.today(row.release_date)
            return CalendarItem(
                kind: .movie, id: id, title: row.title, showID: nil, episode: nil, network: nil,
                start: UTCFormatters.startOfDay(day) ?? row.release_date,
                end: nil, allDay: true, day: day, watched: row.watched, mark: nil, summaryHTML: nil)
        }
    }
}
