import CSV
import Foundation

/// One row of another tracker's export as read, before it is matched to a film or show: what it
/// says about a title, and where it came from (file and row, for the report).
public struct ImportRow: Codable, Sendable, Equatable {
    public var file: String
    /// The record's number in its file, counting every CSV record from the first as 1 (the header,
    /// or a list file's header block): what a spreadsheet shows. A JSON file's entries count from 1.
    public var line: Int
    /// nil: the file does not say (Letterboxd's are all films).
    public var kind: MediaKind?
    public var title: String
    public var originalTitle: String?
    public var year: Int?
    public var imdbID: String?
    /// TheTVDB's and TMDB's ids (Trakt gives them; TVMaze looks shows up by TheTVDB's).
    public var tvdbID: Int?
    public var tmdbID: Int?
    public var letterboxdURI: String?
    /// A dated watch (`yyyy-MM-dd`), or nil.
    public var watchedOn: String?
    /// Watched, with or without a date.
    public var watched = false
    /// The day the tracker recorded the title as watched, outside its diary (Letterboxd's
    /// watched.csv `Date`): a watch on that day when the diary has none of the title.
    public var markedWatchedOn: String?
    /// 1–10 (half stars × 2).
    public var rating: Int?
    public var rewatch = false
    public var tags: [String] = []
    public var review: String?
    public var liked = false
    public var watchlist = false
    /// A custom list the title is in, and its place there.
    public var list: String?
    public var listPosition: Int?
    /// The episode of the show the row is about (a watch or rating of it, not of the whole show).
    public var episode: ImportedEpisode?
    /// The season of the show the row's rating is of (Trakt's `ratings-seasons.json`), not the whole show's.
    public var ratedSeason: Int?
    /// The moment of the watch when the tracker keeps one (ISO 8601), for Up Next's order.
    public var watchedAt: String?
    /// What the tracker says of a show as a whole: followed (in the person's shows, for Up Next and
    /// the calendar) or stopped (TV Time's archived, Simkl's dropped).
    public var following: ImportedFollowing?
    /// Every regular episode up to and including this one watched: a tracker that keeps only how far
    /// the person got (Simkl's CSV, a completed show in Simkl's backup). The last one takes
    /// `watchedOn`/`watchedAt` when the row has them; the rest are watched on no known day.
    public var watchedThrough: ImportedEpisode?

    public init(file: String, line: Int, kind: MediaKind? = nil, title: String, year: Int? = nil) {
        self.file = file
        self.line = line
        self.kind = kind
        self.title = title
        self.year = year
    }
}

/// A show followed, or stopped (hidden from Up Next).
public enum ImportedFollowing: String, Codable, Sendable, Equatable {
    case following, stopped
}

/// An episode as another tracker names it: its season and number (season 0 for specials, which
/// TVMaze numbers apart and are found by name), and its name.
public struct ImportedEpisode: Codable, Sendable, Equatable {
    public var season: Int
    public var number: Int
    public var name: String?

    public init(season: Int, number: Int, name: String? = nil) {
        self.season = season
        self.number = number
        self.name = name
    }

    /// S01E02, as the report shows it.
    public var code: String { "S" + Episode.twoDigits(season) + "E" + Episode.twoDigits(number) }
}

extension ImportRow {
    /// A text of the row holds a control character other than tab and line breaks (`TextRules`):
    /// PostgreSQL would refuse the row's write (one such row failed a whole import there), so it
    /// is skipped and reported, alike on both databases.
    var hasControlCharacter: Bool {
        ([title, originalTitle, imdbID, letterboxdURI, watchedOn, markedWatchedOn, review, list, watchedAt, episode?.name].compactMap { $0 } + tags)
            .contains(where: TextRules.hasControlCharacter)
    }

    /// Watched at `moment` (nil: on no known day): its UTC day for the diary, and the moment
    /// itself for Up Next's order.
    mutating func markWatched(at moment: Date?) {
        watchedOn = moment?.formatted(UTCFormatters.dayStyle)
        watchedAt = moment?.ISO8601Format()
    }

    static let controlCharacterReason = "The row holds a control character (such as NUL), which no text can hold: it was skipped."
}

/// A row that could not be read: reported with its file, row, the step and why.
public struct ImportProblem: Sendable, Equatable, Error {
    public var file: String
    public var line: Int
    public var step: String
    public var reason: String
    /// Nothing to import, rather than a row that could not be read (a tracker's running total, the
    /// same watch twice in one file): reported as skipped, not failed.
    public var skipped = false
}

/// A whole file refused, saying why (not a CSV, not UTF-8, an unknown layout, too many rows).
public struct ImportRefused: Error, Sendable, Equatable {
    public let message: String
    /// Set when the upload is fine but cannot be taken now (the deployment holds as many import rows
    /// as it may): the seconds until it is worth trying again.
    public var retryAfter: Int? = nil
}

/// What a file yielded: rows, and the rows it could not read.
public struct ImportRead: Sendable, Equatable {
    public var rows: [ImportRow] = []
    public var problems: [ImportProblem] = []
}

/// A reader of one export file that hands its rows on a part at a time.
public protocol ImportPartReader {
    /// Up to `max` rows (and rows that could not be read); nil once the file is read.
    mutating func next(max: Int) throws(ImportRefused) -> ImportRead?
}

extension ImportRead {
    /// Every part of a file, together (for a small file, or a test).
    static func all(_ reader: inout some ImportPartReader) throws(ImportRefused) -> ImportRead {
        var whole = ImportRead()
        while let part = try reader.next(max: .max) {
            whole.rows += part.rows
            whole.problems += part.problems
        }
        return whole
    }
}

/// A CSV file read by column names (any case, the UTF-8 byte-order mark and surrounding spaces
/// ignored), ragged rows tolerated: a missing column is an empty value. Rows after a header; the
/// Letterboxd list format's header block before a blank line is skipped by `startingAfterBlankLine`.
/// The lines an upload may still have read, blank ones included, shared by every file of it (a
/// ZIP's members): set by `ImportReader.read` for the task reading the upload.
final class LineBudget: @unchecked Sendable {
    @TaskLocal static var current: LineBudget?
    /// Only the task reading the upload touches it, one line at a time.
    private var left: Int

    init(_ lines: Int) { left = lines }

    /// One more line read; refused past the budget.
    static func spend() throws(ImportRefused) {
        guard let budget = current else { return }
        budget.left -= 1
        guard budget.left >= 0 else {
            throw ImportRefused(
                message: "The upload has more than \(NamedCSV.maxRows) lines (blank lines count too): export less at a time.")
        }
    }
}

struct NamedCSV {
    let header: [String]
    /// Each column's place, the first of a name winning: found once, not per row and column.
    let columns: [String: Int]
    /// Read as asked for (`next()`): a file's rows are never all held at once.
    private let reader: CSVReader
    private var line: Int
    private var count = 0

    static let maxRows = 200_000
    /// Lines an upload may hold besides its rows: headers, a watchlist's preamble, a few blank lines.
    static let headerSlack = 1000
    /// Exports have 4 to 20 columns; a header of thousands would make every lookup costly.
    static let maxColumns = 100

    /// `delimiter`: a comma, or a tab for a file whose header holds tabs and no comma (`delimiter(of:)`).
    init(_ data: Data, startingAfterBlankLine: Bool = false, delimiter: UnicodeScalar = ",") throws(ImportRefused) {
        guard String(data: data, encoding: .utf8) != nil else {
            throw ImportRefused(message: "The file is not UTF-8 text: export it again as CSV (UTF-8).")
        }
        do { reader = try CSVReader(stream: InputStream(data: data), hasHeaderRow: false, delimiter: delimiter) } catch {
            throw ImportRefused(message: "The file could not be read as CSV.")
        }
        var line = 0
        var waitingForBlank = startingAfterBlankLine
        var found: [String]?
        while found == nil, let fields = reader.next() {
            line += 1
            try LineBudget.spend()
            let blank = fields.allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty }
            if waitingForBlank {
                if blank { waitingForBlank = false }
                continue
            }
            if blank { continue }
            guard fields.count <= Self.maxColumns else {
                throw ImportRefused(message: "The file’s header has more than \(Self.maxColumns) columns: this is not an export PopcornSwirl reads.")
            }
            found = fields.map(Self.columnName)
        }
        if reader.error != nil { throw Self.unreadable }
        guard let found else { throw ImportRefused(message: "The file is empty: it has no header row.") }
        header = found
        columns = Dictionary(found.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        self.line = line
    }

    /// A tab when the first line has tabs and no comma (a CSV pasted through a spreadsheet), else a comma.
    static func delimiter(of data: Data) -> UnicodeScalar {
        let first = data.prefix(4096).prefix { $0 != 0x0A }
        return first.contains(0x09) && !first.contains(UInt8(ascii: ",")) ? "\t" : ","
    }

    /// The names of the columns of a file's first line, as `columnName` makes them.
    static func columns(of data: Data) -> Set<String> {
        let header = String(decoding: data.prefix(4096), as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return Set(
            header.split(separator: Character(Unicode.Scalar(delimiter(of: data)))).map {
                columnName($0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
            })
    }

    static let unreadable = ImportRefused(message: "The file could not be read as CSV (a quote is left open, or the text is not UTF-8).")

    /// The next row that is not blank, with its record number; fields past the header's are not kept.
    mutating func next() throws(ImportRefused) -> (line: Int, fields: [String])? {
        while let fields = reader.next() {
            line += 1
            try LineBudget.spend()
            if fields.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }
            guard count < Self.maxRows else {
                throw ImportRefused(message: "The file has more than \(Self.maxRows) rows: split it, or export less at a time.")
            }
            count += 1
            return (line, fields.count > header.count ? Array(fields.prefix(header.count)) : fields)
        }
        if reader.error != nil { throw Self.unreadable }
        return nil
    }

    static func columnName(_ raw: String) -> String {
        raw.replacingOccurrences(of: "\u{FEFF}", with: "").trimmingCharacters(in: .whitespaces).lowercased()
    }

    func has(_ column: String) -> Bool { columns[Self.columnName(column)] != nil }

    /// The value of `column` in `fields`, trimmed; nil when empty or missing.
    func value(_ column: String, in fields: [String]) -> String? {
        guard let index = columns[Self.columnName(column)], index < fields.count else { return nil }
        let value = fields[index].trimmingCharacters(in: .whitespacesAndNewlines)
        return value.isEmpty ? nil : value
    }
}

extension ImportRow {
    /// The row with every text within what is kept of it: a file's name (its folder and name, not
    /// the ZIP member's whole path) of 200 characters, titles of 500, a review of 10,000, 50 tags of 100, a list name of
    /// 100 (the lists' limit); an IMDb id that is not one is dropped.
    func bounded() -> ImportRow {
        var row = self
        row.file = Self.bounded(file: file)
        row.title = String(title.prefix(500))
        row.originalTitle = originalTitle.map { String($0.prefix(500)) }
        row.letterboxdURI = letterboxdURI.map { String($0.prefix(300)) }
        row.imdbID = imdbID.flatMap { OMDbClient.isIMDbID($0) ? $0 : nil }
        row.review = review.map { String($0.prefix(10_000)) }
        row.tags = row.tags.prefix(50).map { String($0.prefix(100)) }
        row.list = list.map { String($0.prefix(CustomListError.nameLimit)) }
        row.watchedOn = watchedOn.map { String($0.prefix(10)) }
        row.watchedAt = watchedAt.map { String($0.prefix(40)) }
        row.episode?.name = episode?.name.map { String($0.prefix(500)) }
        return row
    }

    /// "likes/films.csv" stays as it is; a deeper path keeps its last two parts.
    static func bounded(file: String) -> String {
        TextRules.withoutControls(String(file.split(separator: "/").suffix(2).joined(separator: "/").suffix(200)))
    }
}
