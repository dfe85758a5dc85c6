import Foundation

/// Trakt's export ZIP, one JSON member at a time: watch history (watches, scrobbles and check-ins
/// of films and episodes), ratings of films and shows, the watchlist, favorites, and personal
/// lists (`lists-lists*.json` names them, `lists-list-<slug>*.json` holds each one's items). Any
/// id may be null; an episode stands for a watch of its show.
public enum TraktFiles {
    public enum File: Sendable, Equatable {
        case history, movieRatings, showRatings, watchlist, favorites, lists
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
        if stem.hasPrefix("lists-watchlist") { return .watchlist }
        if stem.hasPrefix("lists-favorites") { return .favorites }
        if stem.hasPrefix("lists-lists") { return .lists }
        if stem.hasPrefix("lists-list-") {
            // `lists-list-<slug>` or `lists-list-<slug>-2` for a later page.
            var slug = String(stem.dropFirst("lists-list-".count))
            if let dash = slug.lastIndex(of: "-"), Int(slug[slug.index(after: dash)...]) != nil { slug = String(slug[..<dash]) }
            return slug.isEmpty ? nil : .list(slug)
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

    struct Entry: Decodable {
        var type: String?
        var action: String?
        var watched_at: String?
        var rating: Int?
        var rank: Int?
        var movie: Title?
        var show: Title?
        var notes: String?
    }

    struct ListInfo: Decodable {
        var name: String?
        var ids: IDs?
    }

    /// The lists' names by slug, from `lists-lists*.json`.
    public static func listNames(_ data: Data, named name: String) throws(ImportRefused) -> [String: String] {
        let lists: [ListInfo]
        do { lists = try JSONDecoder().decode([ListInfo].self, from: data) } catch {
            throw ImportRefused(message: "\(name) is not Trakt's list of lists (JSON that could not be read).")
        }
        return Dictionary(
            lists.compactMap { list in list.ids?.slug.flatMap { slug in list.name.map { (slug, $0) } } }, uniquingKeysWith: { a, _ in a })
    }

    /// The rows of one member. `lists` names the personal lists (see `listNames`).
    public static func read(_ data: Data, as file: File, named name: String, lists: [String: String] = [:]) throws(ImportRefused) -> ImportRead {
        let entries: [Entry]
        do { entries = try JSONDecoder().decode([Entry].self, from: data) } catch {
            throw ImportRefused(message: "\(name) is not a Trakt export file: its JSON could not be read (\(Self.reason(error))).")
        }
        guard entries.count <= NamedCSV.maxRows else {
            throw ImportRefused(message: "\(name) has more than \(NamedCSV.maxRows) entries: export less at a time.")
        }
        var read = ImportRead()
        for (index, entry) in entries.enumerated() {
            let line = index + 1
            let isShow = entry.type == "show" || entry.type == "episode" || (entry.movie == nil && entry.show != nil)
            guard let title = isShow ? entry.show : entry.movie, let name0 = title.title, !name0.isEmpty else {
                read.problems.append(ImportProblem(file: name, line: line, step: "read", reason: "The entry names no film or show."))
                continue
            }
            var row = ImportRow(file: name, line: line, kind: isShow ? .show : .movie, title: name0, year: title.year)
            row.imdbID = title.ids?.imdb
            row.tvdbID = title.ids?.tvdb
            row.tmdbID = title.ids?.tmdb
            switch file {
            case .history:
                row.watched = true
                if let at = entry.watched_at {
                    guard let day = Self.day(at) else {
                        read.problems.append(ImportProblem(file: name, line: line, step: "read", reason: "“\(at)” is not a date and time."))
                        continue
                    }
                    row.watchedOn = day
                }
            case .movieRatings, .showRatings:
                guard let rating = entry.rating, Rating.range.contains(rating) else {
                    read.problems.append(ImportProblem(file: name, line: line, step: "read", reason: "The entry has no rating from 1 to 10."))
                    continue
                }
                row.rating = rating
            case .watchlist: row.watchlist = true
            case .favorites: row.liked = true
            case .lists: continue
            case .list(let slug):
                row.list = lists[slug] ?? slug
                row.listPosition = entry.rank
                row.review = entry.notes
            }
            read.rows.append(row)
        }
        return read
    }

    /// `2024-01-02T21:15:00.000Z` → the UTC day.
    static func day(_ timestamp: String) -> String? {
        let date = (try? Date(timestamp, strategy: Backup.timestamp)) ?? (try? Date(timestamp, strategy: .iso8601))
        return date?.formatted(DiaryService.dayFormat)
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
