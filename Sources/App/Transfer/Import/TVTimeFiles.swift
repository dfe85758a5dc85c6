import Foundation

/// TV Time's GDPR export (TV Time closed on 15 July 2026; the export ZIP, or the CSVs from its
/// folder, is all its people have). It is a dump of database tables, one CSV each, whose column
/// order and even column set differ between exports, so every column is read by its name
/// (`Tests/AppTests/Fixtures/tvtime/README.md` has the sources):
/// - `tracking-prod-records-v2.csv`: the episode log since 2024. A `watch-episode-…` or
///   `rewatch-episode-…` row is one watch: `series_name`, `s_id` (TheTVDB's show id), the season
///   and number (`season_number`/`episode_number`, or `s_no`/`ep_no` when those are empty), and
///   `created_at` (UTC, `yyyy-MM-dd HH:mm:ss`). A `user-series-…` row is a show's state
///   (`is_followed`, `is_archived`, `is_for_later`); `tracking-stats` is a running total.
/// - `tracking-prod-records.csv` (v1): films (`entity_type` `movie`: `type` `watch`, or `follow`
///   and `towatch` for one to watch; `movie_name` and `release_date`, no id) and an older copy of
///   episode watches (`entity_type` `episode`, `series_id`), which repeat v2's and count once.
/// - `followed_tv_show.csv`: followed shows; `archived` 1 is Stopped.
/// - `user_tv_show_data.csv`: `is_favorited` 1 is a Favorite.
/// - An export with neither log (older ones, and some of 2026) has `seen_episode.csv`,
///   `watched_on_episode.csv` and `rewatched_episode.csv`: show name, season, number and moment.
/// The export's other tables (the account, its password hash, tokens, IP addresses) are never opened.
public enum TVTimeFiles {
    public enum File: Sendable, Equatable, CaseIterable {
        case trackingV2, trackingV1, followedShows, showData, seenEpisodes
    }

    /// Which member is which: names after lowercasing and keeping letters and digits only, as
    /// exports put prefixes on them (`a1b2_tracking-prod-records-v2.csv`).
    public static func file(named path: String) -> File? {
        let parts = path.split(separator: "/")
        guard let last = parts.last, !parts.contains("__MACOSX"), !last.hasPrefix("._") else { return nil }
        let name = String(last.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) && $0.isASCII })
        guard name.hasSuffix("csv") else { return nil }
        if name.hasSuffix("trackingprodrecordsv2csv") { return .trackingV2 }
        if name.hasSuffix("trackingprodrecordscsv") { return .trackingV1 }
        if name.hasSuffix("followedtvshowcsv") { return .followedShows }
        if name.hasSuffix("usertvshowdatacsv") { return .showData }
        if name.hasSuffix("seenepisodecsv") || name.hasSuffix("watchedonepisodecsv") || name.hasSuffix("rewatchedepisodecsv") {
            return .seenEpisodes
        }
        return nil
    }

    /// A CSV uploaded alone, told by its columns.
    static func file(columns: Set<String>) -> File? {
        if columns.contains("key"), columns.contains("s_id") || columns.contains("series_name") { return .trackingV2 }
        if columns.contains("type-uuid-n") { return .trackingV1 }
        if columns.contains("tv_show_id"), columns.contains("archived") { return .followedShows }
        if columns.contains("tv_show_id"), columns.contains("is_favorited") { return .showData }
        if columns.contains("tv_show_name"), columns.contains("episode_number") { return .seenEpisodes }
        return nil
    }

    /// The order members are read in: the logs before the shows' states, so a row's report says the
    /// watch landed rather than that the show was already there.
    static let order: [File] = [.trackingV2, .trackingV1, .seenEpisodes, .followedShows, .showData]

    /// The watches already read from this upload, shared by its files: TV Time's v1 log repeats
    /// v2's watches, and a dump may hold a row twice.
    final class Seen: @unchecked Sendable {
        /// Only the task reading the upload touches it.
        private var watches: [String: (file: String, line: Int)] = [:]

        /// Where the same watch was read before, or nil (and it is noted) when it is new.
        func earlier(_ key: String, file: String, line: Int) -> (file: String, line: Int)? {
            if let found = watches[key] { return found }
            watches[key] = (file, line)
            return nil
        }
    }

    /// A file's rows, a part at a time (`next(max:)`).
    public struct Reader: ImportPartReader {
        let file: File
        let name: String
        let seen: Seen
        var csv: NamedCSV

        init(_ data: Data, as file: File, named name: String, seen: Seen) throws(ImportRefused) {
            self.file = file
            self.name = name
            self.seen = seen
            csv = try NamedCSV(data)
            let needed: [String] =
                switch file {
                case .trackingV2: ["key", "created_at"]
                case .trackingV1: ["type-uuid-n", "created_at"]
                case .followedShows: ["tv_show_name", "tv_show_id"]
                case .showData: ["tv_show_name", "tv_show_id"]
                case .seenEpisodes: ["tv_show_name", "episode_number"]
                }
            guard needed.allSatisfy(csv.has) else {
                throw ImportRefused(
                    message: "\(name) is not a TV Time export file: it has no \(needed.joined(separator: " and ")) columns.")
            }
        }

        public mutating func next(max: Int) throws(ImportRefused) -> ImportRead? {
            var read = ImportRead()
            while read.rows.count + read.problems.count < max, let (line, fields) = try csv.next() {
                switch row(line, fields) {
                case .row(let row): read.rows.append(row)
                case .problem(let reason): read.problems.append(ImportProblem(file: name, line: line, step: "read", reason: reason))
                case .nothing(let reason):
                    read.problems.append(ImportProblem(file: name, line: line, step: "read", reason: reason, skipped: true))
                }
            }
            return read.rows.isEmpty && read.problems.isEmpty ? nil : read
        }

        private enum Outcome {
            case row(ImportRow)
            case problem(String)
            /// Nothing to import (skipped, not failed).
            case nothing(String)
        }

        private func value(_ column: String, _ fields: [String]) -> String? { csv.value(column, in: fields) }

        private func row(_ line: Int, _ fields: [String]) -> Outcome {
            switch file {
            case .trackingV2:
                let key = value("key", fields) ?? ""
                if key.hasPrefix("watch-episode") || key.hasPrefix("rewatch-episode") {
                    return watch(
                        line, fields, show: "series_name", id: "s_id", season: ["season_number", "s_no"], number: ["episode_number", "ep_no"])
                }
                if key.hasPrefix("user-series") {
                    return show(
                        line, fields, followed: flag(value("is_followed", fields)), stopped: flag(value("is_archived", fields)),
                        later: flag(value("is_for_later", fields)), favorite: false, name: "series_name", id: "s_id")
                }
                return .nothing(TVTimeFiles.runningTotal)
            case .trackingV1:
                let type = value("type", fields)?.lowercased() ?? ""
                switch value("entity_type", fields)?.lowercased() {
                case "episode" where type == "watch":
                    return watch(line, fields, show: "series_name", id: "series_id", season: ["season_number"], number: ["episode_number"])
                case "movie" where ["watch", "follow", "towatch"].contains(type): return film(line, fields, type: type)
                case "movie" where type == "rewatch_count":
                    return .nothing("TV Time’s count of rewatches of the film, without their days: nothing to import.")
                default: return .nothing(TVTimeFiles.runningTotal)
                }
            case .seenEpisodes:
                return watch(
                    line, fields, show: "tv_show_name", id: "tv_show_id", season: ["episode_season_number", "season_number"],
                    number: ["episode_number"])
            case .followedShows:
                let active = flag(value("active", fields)) ?? true
                let archived = flag(value("archived", fields)) ?? false
                guard active || archived else { return .nothing("No longer followed on TV Time: nothing to import.") }
                return show(line, fields, followed: true, stopped: archived, later: nil, favorite: false, name: "tv_show_name", id: "tv_show_id")
            case .showData:
                let favorite = flag(value("is_favorited", fields)) ?? false
                let followed = flag(value("is_followed", fields)) ?? false
                guard favorite || followed else { return .nothing("Neither followed nor a favourite on TV Time: nothing to import.") }
                return show(line, fields, followed: followed, stopped: nil, later: nil, favorite: favorite, name: "tv_show_name", id: "tv_show_id")
            }
        }

        /// One episode watch: the same show, episode and moment read before (the same row twice, or
        /// v1 repeating v2) is skipped.
        private func watch(_ line: Int, _ fields: [String], show: String, id: String, season: [String], number: [String]) -> Outcome {
            let tvdb = value(id, fields).flatMap { Int($0) }
            guard let title = value(show, fields) ?? tvdb.map({ "TheTVDB show \($0)" }) else {
                return .problem("The row names no show.")
            }
            guard let seasonNumber = season.lazy.compactMap({ value($0, fields).flatMap { Int($0) } }).first,
                let episodeNumber = number.lazy.compactMap({ value($0, fields).flatMap { Int($0) } }).first,
                TraktFiles.seasons.contains(seasonNumber), TraktFiles.numbers.contains(episodeNumber)
            else {
                return .problem("The watch of “\(title)” has no season and episode number PopcornSwirl can place.")
            }
            var row = ImportRow(file: name, line: line, kind: .show, title: title)
            row.tvdbID = tvdb
            row.episode = ImportedEpisode(season: seasonNumber, number: episodeNumber)
            row.watched = true
            if let raw = value("created_at", fields) ?? value("updated_at", fields) {
                guard let moment = TVTimeFiles.moment(raw) else { return .problem("“\(raw)” is not a date and time.") }
                row.markWatched(at: moment)
            }
            let key = [
                tvdb.map(String.init) ?? SearchQuery.fold(title).lowercased(), String(seasonNumber), String(episodeNumber), row.watchedAt ?? "",
            ]
            .joined(separator: "|")
            if let earlier = seen.earlier(key, file: name, line: line) {
                let place = earlier.file == name ? "row \(earlier.line)" : "\(ImportRow.bounded(file: earlier.file)), row \(earlier.line)"
                return .nothing("The same watch as \(place): counted once.")
            }
            return .row(row)
        }

        /// A show's state: followed (or stopped), for later (Favorites), a favourite.
        private func show(
            _ line: Int, _ fields: [String], followed: Bool?, stopped: Bool?, later: Bool?, favorite: Bool, name nameColumn: String, id: String
        ) -> Outcome {
            let tvdb = value(id, fields).flatMap { Int($0) }
            guard let title = value(nameColumn, fields) ?? tvdb.map({ "TheTVDB show \($0)" }) else { return .problem("The row names no show.") }
            var row = ImportRow(file: name, line: line, kind: .show, title: title)
            row.tvdbID = tvdb
            if stopped == true {
                row.following = .stopped
            } else if followed == true {
                row.following = .following
            }
            row.watchlist = later == true
            row.liked = favorite
            guard row.following != nil || row.watchlist || row.liked else {
                return .nothing("Neither followed nor a favourite on TV Time: nothing to import.")
            }
            return .row(row)
        }

        /// A film of the v1 log: watched on the day it was ticked, or one to watch (Favorites).
        private func film(_ line: Int, _ fields: [String], type: String) -> Outcome {
            guard let title = value("movie_name", fields) else { return .problem("The row has no film name.") }
            // `0001-01-01 00:00:00` is TV Time's unknown release date.
            let year = value("release_date", fields).flatMap { Int($0.prefix(4)) }.flatMap { $0 > 1800 ? $0 : nil }
            var row = ImportRow(file: name, line: line, kind: .movie, title: title, year: year)
            if type == "watch" {
                row.watched = true
                if let raw = value("created_at", fields) ?? value("updated_at", fields), let moment = TVTimeFiles.moment(raw) {
                    row.watchedOn = moment.formatted(UTCFormatters.dayStyle)
                }
                let key = ["film", SearchQuery.fold(title).lowercased(), row.watchedOn ?? ""].joined(separator: "|")
                if let earlier = seen.earlier(key, file: name, line: line) {
                    return .nothing("The same watch as row \(earlier.line): counted once.")
                }
            } else {
                row.watchlist = true
            }
            return .row(row)
        }

        /// `1`/`0`, `true`/`false`; nil when empty.
        private func flag(_ raw: String?) -> Bool? {
            switch raw?.lowercased() {
            case "1", "true": true
            case "0", "false": false
            default: nil
            }
        }
    }

    static let runningTotal = "TV Time’s running total, not a watch: nothing to import."

    /// `2026-01-10 19:02:11` (UTC, as TV Time and Simkl's CSV write them; seconds optional, or an
    /// ISO 8601 moment).
    static func moment(_ raw: String) -> Date? {
        let text = raw.trimmingCharacters(in: .whitespaces)
        if let date = try? Date(text, strategy: .iso8601) { return date }
        guard text.count == 16 || text.count == 19, text.dropFirst(10).first == " " else { return nil }
        let iso = text.replacingOccurrences(of: " ", with: "T") + (text.count == 16 ? ":00" : "") + "Z"
        guard let date = try? Date(iso, strategy: .iso8601), date.ISO8601Format() == iso else { return nil }
        return date
    }
}
