import Foundation

/// Trakt's export ZIP, one JSON member at a time: watch history (watches, scrobbles and check-ins
/// of films and episodes), ratings of films and shows, the watchlist, favorites, and personal
/// lists (`lists-lists*.json` names them, `lists-list-<slug>*.json` holds each one's items), and
/// episode and season ratings. Any id may be null. An episode's watch is kept as that episode's, with its
/// moment (`watched_at`).
public enum TraktFiles {
    public enum File: Sendable, Equatable {
        case history, movieRatings, showRatings, episodeRatings, seasonRatings, watchlist, favorites, lists
        /// The items of the list with this slug.
        case list(String)
    }

    /// Which member is which (pages of a large export come as `watched-history-2.json` …).
    public static func file(named path: String) -> File? {
        let parts = path.split(separator: "/")
        guard let last = parts.last, !parts.contains("__MACOSX") else { return nil }
        let name = last.lowercased()
        guard name.hasSuffix(".json") else { return nil }
        let stem = String(name.dropLast(5))
        if stem.hasPrefix("watched-history") { return .history }
        if stem.hasPrefix("ratings-movies") { return .movieRatings }
        if stem.hasPrefix("ratings-shows") { return .showRatings }
        if stem.hasPrefix("ratings-episodes") { return .episodeRatings }
        if stem.hasPrefix("ratings-seasons") { return .seasonRatings }
        if stem.hasPrefix("lists-watchlist") { return .watchlist }
        if stem.hasPrefix("lists-favorites") { return .favorites }
        if stem.hasPrefix("lists-lists") { return .lists }
        if stem.hasPrefix("lists-list-") {
            // The list is named by `listName(_:in:)`: the suffix may be `<slug>`, `<trakt id>-<slug>`, and end in a page's `-2`.
            let suffix = String(stem.dropFirst("lists-list-".count))
            return suffix.isEmpty ? nil : .list(suffix)
        }
        return nil
    }

    struct IDs: Decodable {
        var imdb: String?
        var tvdb: Int?
        var tmdb: Int?
        var slug: String?
    }

    struct Title: Decodable {
        var title: String?
        var year: Int?
        var ids: IDs?
    }

    struct EpisodeRef: Decodable {
        var season: Int?
        var number: Int?
        var title: String?
    }

    struct SeasonRef: Decodable {
        var number: Int?
    }

    struct Entry: Decodable {
        var type: String?
        var episode: EpisodeRef?
        var season: SeasonRef?
        var action: String?
        var watched_at: String?
        var rating: Int?
        var rank: Int?
        var movie: Title?
        var show: Title?
        var notes: String?
    }

    struct ListIDs: Decodable {
        var trakt: Int?
        var slug: String?
    }

    struct ListInfo: Decodable {
        var name: String?
        var ids: ListIDs?
    }

    /// The lists' names by slug and by Trakt id, from `lists-lists*.json`.
    public static func listNames(_ data: Data, named name: String) throws(ImportRefused) -> [String: String] {
        var names: [String: String] = [:]
        try forEach(ListInfo.self, data, named: name) { list, _ in
            guard let title = list.name else { return }
            if let slug = list.ids?.slug, names[slug] == nil { names[slug] = title }
            if let id = list.ids?.trakt, names[String(id)] == nil { names[String(id)] = title }
        }
        return names
    }

    /// A list file's name: its suffix as a known slug, else without a page's `-N`, else without
    /// a leading `<trakt id>-`, or that id itself; the suffix as it is when nothing is known (a
    /// slug ending in a number, `top-10`, stays whole when it is known).
    static func listName(_ suffix: String, in names: [String: String]) -> String {
        var candidates = [suffix]
        if let dash = suffix.lastIndex(of: "-"), Int(suffix[suffix.index(after: dash)...]) != nil {
            candidates.append(String(suffix[..<dash]))
        }
        for candidate in candidates {
            if let name = names[candidate] { return name }
            if let dash = candidate.firstIndex(of: "-"), Int(candidate[..<dash]) != nil {
                let id = String(candidate[..<dash])
                if let name = names[String(candidate[candidate.index(after: dash)...])] ?? names[id] { return name }
            }
        }
        return suffix
    }

    /// A JSON array decoded entry by entry (`JSONArrayElements`: one entry's bytes at a time, never
    /// the whole file as one document), each handed to `body` with its 1-based number; refused
    /// past `NamedCSV.maxRows` entries before more are made.
    static func forEach<Element: Decodable>(
        _ type: Element.Type, _ data: Data, named name: String, what: String = "a Trakt export file",
        _ body: (Element, Int) throws(ImportRefused) -> Void
    ) throws(ImportRefused) {
        var elements = JSONArrayElements(data)
        let decoder = JSONDecoder()
        var count = 0
        while let element = elements.next() {
            guard count < NamedCSV.maxRows else {
                throw ImportRefused(message: "\(name) has more than \(NamedCSV.maxRows) entries: export less at a time.")
            }
            count += 1
            let entry: Element
            do { entry = try decoder.decode(Element.self, from: element) } catch {
                throw ImportRefused(message: "\(name) is not \(what): its entry \(count) could not be read (\(Self.reason(error))).")
            }
            try body(entry, count)
        }
        if let failure = elements.failure {
            throw ImportRefused(message: "\(name) is not \(what): its JSON could not be read (\(failure)).")
        }
    }

    /// The rows of one member. `lists` names the personal lists (see `listNames`).
    public static func read(_ data: Data, as file: File, named name: String, lists: [String: String] = [:]) throws(ImportRefused) -> ImportRead {
        var read = ImportRead()
        try forEach(Entry.self, data, named: name) { entry, line in
            let isShow = entry.type == "show" || entry.type == "episode" || (entry.movie == nil && entry.show != nil)
            guard let title = isShow ? entry.show : entry.movie, let name0 = title.title, !name0.isEmpty else {
                read.problems.append(ImportProblem(file: name, line: line, step: "read", reason: "The entry names no film or show."))
                return
            }
            var row = ImportRow(file: name, line: line, kind: isShow ? .show : .movie, title: name0, year: title.year)
            row.imdbID = title.ids?.imdb
            row.tvdbID = title.ids?.tvdb
            row.tmdbID = title.ids?.tmdb
            if entry.type == "episode" || entry.episode != nil {
                guard let episode = entry.episode, let season = episode.season, let number = episode.number,
                    Self.seasons.contains(season), Self.numbers.contains(number)
                else {
                    read.problems.append(
                        ImportProblem(file: name, line: line, step: "read", reason: "The episode has no season and number PopcornSwirl can place."))
                    return
                }
                row.episode = ImportedEpisode(season: season, number: number, name: episode.title)
            } else if file == .episodeRatings {
                read.problems.append(ImportProblem(file: name, line: line, step: "read", reason: "The entry names no episode."))
                return
            } else if file == .seasonRatings {
                guard let season = entry.season?.number, (1...Self.seasons.upperBound).contains(season) else {
                    read.problems.append(
                        ImportProblem(file: name, line: line, step: "read", reason: "The entry names no season PopcornSwirl can place."))
                    return
                }
                row.ratedSeason = season
            }
            switch file {
            case .history:
                row.watched = true
                if let at = entry.watched_at {
                    guard let day = Self.day(at) else {
                        read.problems.append(ImportProblem(file: name, line: line, step: "read", reason: "“\(at)” is not a date and time."))
                        return
                    }
                    row.watchedOn = day
                    if row.episode != nil { row.watchedAt = at }
                }
            case .movieRatings, .showRatings, .episodeRatings, .seasonRatings:
                guard let rating = entry.rating, Rating.range.contains(rating) else {
                    read.problems.append(ImportProblem(file: name, line: line, step: "read", reason: "The entry has no rating from 1 to 10."))
                    return
                }
                row.rating = rating
            case .watchlist: row.watchlist = true
            case .favorites: row.liked = true
            case .lists: return
            case .list(let suffix):
                row.list = Self.listName(suffix, in: lists)
                row.listPosition = entry.rank
                row.review = entry.notes
            }
            read.rows.append(row)
        }
        return read
    }

    /// What an episode's season and number may be (season 0 holds the specials).
    static let seasons = 0...10_000
    static let numbers = 0...100_000

    /// `2024-01-02T21:15:00.000Z` → the UTC day.
    static func day(_ timestamp: String) -> String? {
        moment(timestamp)?.formatted(UTCFormatters.dayStyle)
    }

    /// `2024-01-02T21:15:00.000Z`, with or without its fraction of a second.
    static func moment(_ timestamp: String) -> Date? {
        (try? Date(timestamp, strategy: Backup.timestamp)) ?? (try? Date(timestamp, strategy: .iso8601))
    }

    static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not JSON" }
        return switch error {
        case .typeMismatch: "a value of the wrong type"
        case .dataCorrupted: "not JSON, or not a list"
        case .keyNotFound, .valueNotFound: "a value is missing"
        @unknown default: "not JSON"
        }
    }
}
