import Foundation

/// Simkl's export (`simkl.com/apps/backup/`): the backup JSON (`SimklBackup.json`, alone or in its
/// ZIP, shaped like the API's `/sync/all-items`: `shows`, `anime` and `movies` lists) and the CSV
/// (`SIMKL_ID,Title,Type,Year,Watchlist,LastEpWatched,WatchedDate,Rating,Memo,TVDB,TMDB,IMDB`).
/// Each title is found by the ids Simkl carries (IMDb, TheTVDB; TMDB kept), else its name and year.
/// - A show's watched episodes, each on its day when the backup has `watched_at`; a show with only
///   how far the person got (`last_watched`, the CSV's `LastEpWatched`: a completed show has no
///   episode list) is watched up to that episode.
/// - Status: `watching`, `hold` and `completed` shows are followed, `dropped` ones Stopped;
///   `plantowatch` lands in Favorites; a `completed` film is watched (on its day when known).
/// - `user_rating` (1–10) is the title's rating; a film's memo is its watch's note.
/// The JSON is read a list at a time and an entry at a time (`JSONArrayElements`).
public enum SimklFiles {
    /// A backup ZIP's JSON member.
    static func isBackup(named path: String) -> Bool {
        let parts = path.split(separator: "/")
        guard let last = parts.last?.lowercased(), !parts.contains("__MACOSX"), !last.hasPrefix("._") else { return false }
        return last.hasSuffix(".json") && last.filter { $0.isLetter }.contains("simklbackup")
    }

    /// A JSON upload is Simkl's backup when it is an object with any of its three lists.
    static func isBackup(_ data: Data) -> Bool {
        guard let members = try? JSONArrayElements.objectMembers(data) else { return false }
        return members.contains { ["shows", "anime", "movies"].contains($0.key) }
    }

    /// A CSV uploaded alone is Simkl's by its columns.
    static func isCSV(columns: Set<String>) -> Bool {
        columns.contains("simkl_id") && columns.contains("watchlist") && columns.contains("title")
    }

    /// An id Simkl writes as a number or as a string of one.
    struct LooseInt: Decodable {
        var value: Int?
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int.self) {
                value = number
            } else {
                value = (try? container.decode(String.self)).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            }
        }
    }

    struct IDs: Decodable {
        var imdb: String?
        var tvdb: LooseInt?
        var tmdb: LooseInt?
    }

    struct Title: Decodable {
        var title: String?
        var year: Int?
        var ids: IDs?
    }

    struct Memo: Decodable {
        var text: String?
    }

    struct Episode: Decodable {
        var number: Int?
        var watched_at: String?
    }

    struct Season: Decodable {
        var number: Int?
        var episodes: [Episode]?
    }

    struct Item: Decodable {
        var status: String?
        var user_rating: Int?
        var last_watched_at: String?
        var last_watched: String?
        var anime_type: String?
        var memo: Memo?
        var show: Title?
        var movie: Title?
        var seasons: [Season]?
    }

    /// The backup's rows, a list at a time. Entries count from 1 across its lists, in the file's order.
    static func readBackup(_ data: Data, named name: String, each: (ImportRead) async throws -> Void) async throws {
        let members: [(key: String, value: Data)]
        do { members = try JSONArrayElements.objectMembers(data) } catch {
            throw ImportRefused(message: "\(name) is not a Simkl backup: its JSON could not be read (\(error)).")
        }
        var entry = 0
        for (key, value) in members where ["shows", "anime", "movies"].contains(key) {
            // An empty account's list may be `null`.
            guard value != Data("null".utf8) else { continue }
            var read = ImportRead()
            try TraktFiles.forEach(Item.self, value, named: name, what: "a Simkl backup") { item, _ in
                entry += 1
                rows(item, list: key, file: name, line: entry, into: &read)
            }
            try await each(read)
        }
    }

    /// The rows of one entry: the title's own (status, rating, a film's watch), then a show's episodes.
    static func rows(_ item: Item, list: String, file: String, line: Int, into read: inout ImportRead) {
        let isFilm = list == "movies" || item.anime_type?.lowercased() == "movie"
        guard let title = item.show ?? item.movie, let name = title.title?.trimmingCharacters(in: .whitespaces), !name.isEmpty else {
            read.problems.append(ImportProblem(file: file, line: line, step: "read", reason: "The entry names no film or show."))
            return
        }
        var row = ImportRow(file: file, line: line, kind: isFilm ? .movie : .show, title: name, year: title.year)
        row.imdbID = title.ids?.imdb
        row.tvdbID = title.ids?.tvdb?.value
        row.tmdbID = title.ids?.tmdb?.value
        if let rating = item.user_rating {
            guard Rating.range.contains(rating) else {
                read.problems.append(ImportProblem(file: file, line: line, step: "read", reason: "“\(rating)” is not a rating from 1 to 10."))
                return
            }
            row.rating = rating
        }
        let moment = item.last_watched_at.flatMap(TraktFiles.moment)
        let episodes = (item.seasons ?? []).flatMap { season in (season.episodes ?? []).map { (season.number, $0) } }
        let through = episodes.isEmpty ? item.last_watched.flatMap(Self.episode) : nil
        apply(status: item.status, to: &row, film: isFilm, watchedAt: moment, through: through, memo: item.memo?.text)
        read.rows.append(row)
        for (season, episode) in episodes {
            guard let season, let number = episode.number, TraktFiles.seasons.contains(season), TraktFiles.numbers.contains(number) else {
                read.problems.append(
                    ImportProblem(
                        file: file, line: line, step: "read", reason: "An episode of “\(name)” has no season and number PopcornSwirl can place."))
                continue
            }
            var watch = ImportRow(file: file, line: line, kind: .show, title: name, year: title.year)
            (watch.imdbID, watch.tvdbID, watch.tmdbID) = (row.imdbID, row.tvdbID, row.tmdbID)
            watch.episode = ImportedEpisode(season: season, number: number)
            watch.watched = true
            watch.markWatched(at: episode.watched_at.flatMap(TraktFiles.moment))
            read.rows.append(watch)
        }
    }

    /// What a status says of the title.
    static func apply(status: String?, to row: inout ImportRow, film: Bool, watchedAt: Date?, through: ImportedEpisode?, memo: String?) {
        let status = status?.lowercased().replacingOccurrences(of: " ", with: "")
        if status == "plantowatch" {
            row.watchlist = true
            return
        }
        if film {
            guard status == "completed" else { return }
            row.watched = true
            row.watchedOn = watchedAt?.formatted(UTCFormatters.dayStyle)
            if row.watchedOn != nil { row.review = memo }
            return
        }
        switch status {
        case "dropped": row.following = .stopped
        case "watching", "hold", "completed": row.following = .following
        default: break
        }
        if let through, status != nil {
            row.watchedThrough = through
            row.watched = true
            row.markWatched(at: watchedAt)
        }
    }

    /// `S06E10`, `s6e10` → season 6, episode 10; `E148` (anime without seasons) → season 1.
    static func episode(_ code: String) -> ImportedEpisode? {
        let text = code.lowercased().trimmingCharacters(in: .whitespaces)
        guard let e = text.firstIndex(of: "e") else { return nil }
        let seasonText = text[..<e]
        let season: Int? = seasonText.isEmpty ? 1 : seasonText.hasPrefix("s") ? Int(seasonText.dropFirst()) : nil
        guard let season, let number = Int(text[text.index(after: e)...]), TraktFiles.seasons.contains(season),
            TraktFiles.numbers.contains(number), number > 0
        else { return nil }
        return ImportedEpisode(season: season, number: number)
    }

    /// The CSV's rows, a part at a time (`next(max:)`); comma- or tab-separated.
    struct CSVReader: ImportPartReader {
        let name: String
        var csv: NamedCSV

        init(_ data: Data, named name: String) throws(ImportRefused) {
            self.name = name
            csv = try NamedCSV(data, delimiter: NamedCSV.delimiter(of: data))
            guard csv.has("Title"), csv.has("Type") else {
                throw ImportRefused(message: "\(name) is not Simkl’s CSV export: it has no Title and Type columns.")
            }
        }

        mutating func next(max: Int) throws(ImportRefused) -> ImportRead? {
            var read = ImportRead()
            while read.rows.count + read.problems.count < max, let (line, fields) = try csv.next() {
                guard let title = csv.value("Title", in: fields) else {
                    read.problems.append(ImportProblem(file: name, line: line, step: "read", reason: "The row has no title."))
                    continue
                }
                let type = csv.value("Type", in: fields)?.lowercased() ?? ""
                let film = type == "movie" || type == "movies" || type == "film"
                var row = ImportRow(
                    file: name, line: line, kind: film ? .movie : .show, title: title, year: csv.value("Year", in: fields).flatMap { Int($0) })
                row.imdbID = csv.value("IMDB", in: fields)
                row.tvdbID = csv.value("TVDB", in: fields).flatMap { Int($0) }
                row.tmdbID = csv.value("TMDB", in: fields).flatMap { Int($0) }
                if let raw = csv.value("Rating", in: fields) {
                    guard let rating = Int(raw), Rating.range.contains(rating) else {
                        read.problems.append(ImportProblem(file: name, line: line, step: "read", reason: "“\(raw)” is not a rating from 1 to 10."))
                        continue
                    }
                    row.rating = rating
                }
                var moment: Date?
                if let raw = csv.value("WatchedDate", in: fields) {
                    guard let parsed = TVTimeFiles.moment(raw) else {
                        read.problems.append(ImportProblem(file: name, line: line, step: "read", reason: "“\(raw)” is not a date and time."))
                        continue
                    }
                    moment = parsed
                }
                var through: ImportedEpisode?
                if !film, let raw = csv.value("LastEpWatched", in: fields) {
                    guard let episode = SimklFiles.episode(raw) else {
                        read.problems.append(ImportProblem(file: name, line: line, step: "read", reason: "“\(raw)” is not an episode such as s1e3."))
                        continue
                    }
                    through = episode
                }
                SimklFiles.apply(
                    status: csv.value("Watchlist", in: fields), to: &row, film: film, watchedAt: moment, through: through,
                    memo: csv.value("Memo", in: fields))
                read.rows.append(row)
            }
            return read.rows.isEmpty && read.problems.isEmpty ? nil : read
        }
    }
}
