import Foundation

/// Letterboxd's export files, one at a time (the ZIP's members are read by name). Ratings are ½–5
/// stars (stored ×2); `Rewatch` is `Yes` or blank; tags are one field, comma-separated. In the
/// diary and reviews the URI is the diary entry's, not the film's, so it is not kept there.
public enum LetterboxdFiles {
    public enum File: Sendable, Equatable {
        case watched, diary, ratings, watchlist, reviews, likes
        /// `lists/<name>.csv`: the list's name comes from its header block.
        case list
    }

    /// Which file a member of the ZIP is, or nil for members that are not read (profile,
    /// comments, `deleted/`, `orphaned/`, macOS metadata).
    public static func file(named path: String) -> File? {
        let parts = path.split(separator: "/").map(String.init)
        guard let name = parts.last?.lowercased(), name.hasSuffix(".csv"),
            !parts.contains(where: { ["__MACOSX", "deleted", "orphaned"].contains($0) })
        else { return nil }
        if parts.dropLast().last?.lowercased() == "lists" { return .list }
        if parts.dropLast().last?.lowercased() == "likes" { return name == "films.csv" ? .likes : nil }
        return switch name {
        case "watched.csv": .watched
        case "diary.csv": .diary
        case "ratings.csv": .ratings
        case "watchlist.csv": .watchlist
        case "reviews.csv": .reviews
        default: nil
        }
    }

    public static func read(_ data: Data, as file: File, named name: String) throws(ImportRefused) -> ImportRead {
        var reader = try Reader(data, as: file, named: name)
        return try ImportRead.all(&reader)
    }

    /// A file's rows, a part at a time (`next(max:)`).
    public struct Reader: ImportPartReader {
        let file: File
        let name: String
        let listName: String?
        var csv: NamedCSV

        public init(_ data: Data, as file: File, named name: String) throws(ImportRefused) {
            self.file = file
            self.name = name
            listName = file == .list ? try LetterboxdFiles.listHeader(data) : nil
            csv = try NamedCSV(data, startingAfterBlankLine: file == .list)
            guard csv.has("Name") else {
                throw ImportRefused(message: "\(name) is not a Letterboxd export file: it has no Name column.")
            }
        }

        public mutating func next(max: Int) throws(ImportRefused) -> ImportRead? {
            var read = ImportRead()
            while read.rows.count + read.problems.count < max, let (line, fields) = try csv.next() {
                guard let title = csv.value("Name", in: fields) else {
                    read.problems.append(ImportProblem(file: name, line: line, step: "read", reason: "The row has no film name."))
                    continue
                }
                var row = ImportRow(file: name, line: line, kind: .movie, title: title, year: csv.value("Year", in: fields).flatMap { Int($0) })
                if file != .diary && file != .reviews { row.letterboxdURI = csv.value("Letterboxd URI", in: fields) ?? csv.value("URL", in: fields) }
                if let stars = csv.value("Rating", in: fields) {
                    guard let rating = LetterboxdFiles.rating(stars) else {
                        read.problems.append(
                            ImportProblem(file: name, line: line, step: "read", reason: "“\(stars)” is not a rating from ½ to 5 stars."))
                        continue
                    }
                    row.rating = rating
                }
                row.rewatch = csv.value("Rewatch", in: fields)?.lowercased() == "yes"
                row.tags =
                    csv.value("Tags", in: fields)?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                    .filter { !$0.isEmpty } ?? []
                row.review = csv.value("Review", in: fields)
                switch file {
                case .watched:
                    row.watched = true
                    // The day it was marked watched: a diary entry when the diary has none of the film
                    // (a date that is not a day is only not used).
                    row.markedWatchedOn = csv.value("Date", in: fields).flatMap { try? DiaryService.validatedDay($0, now: .distantFuture) }
                case .diary, .reviews:
                    row.watched = true
                    if let raw = csv.value("Watched Date", in: fields) {
                        do { row.watchedOn = try DiaryService.validatedDay(raw, now: .distantFuture) } catch {
                            read.problems.append(ImportProblem(file: name, line: line, step: "read", reason: error.message))
                            continue
                        }
                    }
                case .ratings: break
                case .watchlist: row.watchlist = true
                case .likes: row.liked = true
                case .list:
                    row.list = listName
                    row.listPosition = csv.value("Position", in: fields).flatMap { Int($0) }
                    row.review = csv.value("Description", in: fields)
                }
                read.rows.append(row)
            }
            return read.rows.isEmpty && read.problems.isEmpty ? nil : read
        }
    }

    /// The list's name from the block before the blank line: a `Letterboxd list export v7` line,
    /// then `Date,Name,Tags,URL,Description` and the list's row.
    static func listHeader(_ data: Data) throws(ImportRefused) -> String {
        let text = String(decoding: data.prefix(64 * 1024), as: UTF8.self)
        let block = text.components(separatedBy: "\n").prefix { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
            .drop { !$0.lowercased().split(separator: ",").contains { $0.trimmingCharacters(in: .whitespacesAndNewlines) == "name" } }
        var header = try NamedCSV(Data(block.joined(separator: "\n").utf8))
        guard let first = try header.next(), let name = header.value("Name", in: first.fields) else {
            throw ImportRefused(message: "The list file has no list name before its titles.")
        }
        return name
    }

    /// "3.5" → 7; nil outside ½–5 or not a half step.
    static func rating(_ stars: String) -> Int? {
        guard let value = Double(stars), value >= 0.5, value <= 5, (value * 2).rounded() == value * 2 else { return nil }
        return Int(value * 2)
    }
}

/// IMDb's ratings and list (or watchlist) exports, old headers and the 2024+ ones with
/// `Original Title`, read by column name; `Title Type` in either spelling.
public enum IMDbFile {
    public static func read(_ data: Data, named name: String) throws(ImportRefused) -> ImportRead {
        var reader = try Reader(data, named: name)
        return try ImportRead.all(&reader)
    }

    /// A file's rows, a part at a time (`next(max:)`).
    public struct Reader: ImportPartReader {
        let name: String
        let isList: Bool
        let listName: String
        var csv: NamedCSV

        public init(_ data: Data, named name: String) throws(ImportRefused) {
            self.name = name
            csv = try NamedCSV(data)
            guard csv.has("Const"), csv.has("Title") else {
                throw ImportRefused(message: "\(name) is not an IMDb export: it has no Const and Title columns.")
            }
            isList = csv.has("Position")
            let base = (name.split(separator: "/").last.map(String.init) ?? name)
            listName = base.lowercased().hasSuffix(".csv") ? String(base.dropLast(4)) : base
        }

        public mutating func next(max: Int) throws(ImportRefused) -> ImportRead? {
            var read = ImportRead()
            while read.rows.count + read.problems.count < max, let (line, fields) = try csv.next() {
                guard let id = csv.value("Const", in: fields), id.hasPrefix("tt"), let title = csv.value("Title", in: fields) else {
                    read.problems.append(ImportProblem(file: name, line: line, step: "read", reason: "The row has no IMDb id (tt…) or no title."))
                    continue
                }
                let type = csv.value("Title Type", in: fields) ?? "movie"
                guard let kind = IMDbFile.kind(type) else {
                    read.problems.append(
                        ImportProblem(file: name, line: line, step: "read", reason: "“\(type)” titles are not kept: only films and series."))
                    continue
                }
                var row = ImportRow(file: name, line: line, kind: kind, title: title, year: csv.value("Year", in: fields).flatMap { Int($0) })
                row.imdbID = id
                row.originalTitle = csv.value("Original Title", in: fields)
                if let raw = csv.value("Your Rating", in: fields) {
                    guard let rating = Int(raw), Rating.range.contains(rating) else {
                        read.problems.append(ImportProblem(file: name, line: line, step: "read", reason: "“\(raw)” is not a rating from 1 to 10."))
                        continue
                    }
                    row.rating = rating
                }
                if isList {
                    // The watchlist's export is named so; another list's file is named after the list.
                    if listName.lowercased().contains("watchlist") {
                        row.watchlist = true
                    } else {
                        row.list = listName
                        row.listPosition = csv.value("Position", in: fields).flatMap { Int($0) }
                    }
                }
                read.rows.append(row)
            }
            return read.rows.isEmpty && read.problems.isEmpty ? nil : read
        }
    }

    /// movie, tvMovie, video, short (and "Movie", "TV Movie"…) are films; series and mini-series are shows; episodes and games are not kept.
    static func kind(_ type: String) -> MediaKind? {
        let key = type.lowercased().replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "-", with: "")
        switch key {
        case "movie", "tvmovie", "video", "short", "tvshort", "tvspecial", "musicvideo": return .movie
        case "tvseries", "tvminiseries": return .show
        default: return nil
        }
    }
}
