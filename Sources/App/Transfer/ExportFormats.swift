import Foundation

/// The CSV files made from a backup.
public enum ExportFormats {
    public static let letterboxdHeader = ["Title", "Year", "imdbID", "WatchedDate", "Rating10", "Rewatch", "Tags", "Review"]
    public static let listHeader = ["Position", "Kind", "Title", "Year", "Note", "Added"]

    /// The films of a backup as a file Letterboxd's importer reads: one row per watch in the diary
    /// (oldest first; `Rewatch` true from a film's second watch on; the watch's rating, else on
    /// its latest watch the film's own rating; the watch's note as the review), then one row
    /// without a date for each film marked Watched but never logged (its rating and note); a
    /// favorite not watched is left out (Letterboxd would count it as seen). Shows are left out:
    /// Letterboxd has films only. `imdbID` is filled for films kept by their IMDb id (`KeptFilms`);
    /// iTunes films have none, and Letterboxd matches them on title and year.
    public static func letterboxdCSV(_ backup: Backup) -> String {
        let films = backup.titles.filter { $0.kind == .movie }
        let saved = Dictionary(films.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let watches = backup.watches.filter { $0.kind == .movie }
        let latest = Dictionary(watches.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { _, last in last })
        var seen = Set<String>()
        var csv = CSV.line(letterboxdHeader)
        for (index, watch) in watches.enumerated() {
            let film = saved[watch.id]
            let rating = watch.rating ?? (latest[watch.id] == index ? film?.rating : nil)
            let rewatch = !seen.insert(watch.id).inserted
            csv += CSV.line([
                watch.title, year(film?.releaseDate), imdbID(watch.id), watch.day, rating.map(String.init) ?? "", rewatch ? "true" : "false", "",
                watch.note ?? "",
            ])
        }
        for film in films where film.watched && !seen.contains(film.id) {
            csv += CSV.line([
                film.title, year(film.releaseDate), imdbID(film.id), "", film.rating.map(String.init) ?? "", "false", "", film.note ?? "",
            ])
        }
        return csv
    }

    /// A custom list in its order: position, kind, title, year, the item's note and when it was added (UTC day).
    public static func listCSV(_ list: Backup.List) -> String {
        var csv = CSV.line(listHeader)
        for (offset, item) in list.items.enumerated() {
            csv += CSV.line([
                String(offset + 1), item.kind == .movie ? "film" : "show", item.title, item.year.map(String.init) ?? "", item.note ?? "",
                item.addedAt.formatted(UTCFormatters.dayStyle),
            ])
        }
        return csv
    }

    /// A file name part from a list's name: letters and digits, dashes between words, at most 60 characters.
    public static func slug(_ name: String) -> String {
        let words = name.lowercased().split { !($0.isLetter || $0.isNumber) || !$0.isASCII }
        let slug = String(words.joined(separator: "-").prefix(60))
        return slug.isEmpty ? "list" : slug
    }

    static func imdbID(_ itemID: String) -> String { Int(itemID).flatMap(KeptFilms.imdbID(of:)) ?? "" }

    static func year(_ date: Date?) -> String {
        date.map { String(Calendar.utc.component(.year, from: $0)) } ?? ""
    }
}
