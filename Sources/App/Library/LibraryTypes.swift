import Foundation

public enum LibraryList: String, Sendable, CaseIterable {
    case favorites, watched, all
}

public enum MediaKind: String, Sendable, CaseIterable {
    case movie
    case show
}

/// What a saved title keeps: the card columns, plus the whole object as JSON for offline use.
public struct SavedTitle: Sendable {
    public var kind: MediaKind
    public var itemID: String
    public var title: String
    public var genre: String?
    public var releaseDate: Date?
    public var artworkURL: String?
    /// A film's length, or a show's episode length: the statistics' hours watched.
    public var runtimeMinutes: Int? = nil
    public var snapshot: Data
    /// Set while the details are still to come, or when the catalogue does not know the title.
    public var state: TitleState? = nil
}

/// A saved title whose details are not (yet) the catalogue's: saved by id before PopcornSwirl had
/// them (`pending`: the catalogue worker is asking), or an id the catalogue answered it does not
/// know (`unknown`: shown as such, for the person to remove).
public enum TitleState: String, Sendable, Equatable {
    case pending
    case unknown
}

extension Movie {
    func savedTitle() throws -> SavedTitle {
        SavedTitle(
            kind: .movie, itemID: String(id), title: title, genre: genre, releaseDate: releaseDate, artworkURL: artworkURL,
            runtimeMinutes: runtimeMinutes, snapshot: try JSONEncoder().encode(self)
        )
    }
}

extension Show {
    func savedTitle() throws -> SavedTitle {
        SavedTitle(
            kind: .show, itemID: String(id), title: name, genre: genres.first, releaseDate: premiered.flatMap(ITunesDates.parse),
            artworkURL: imageMedium, runtimeMinutes: runtimeMinutes, snapshot: try JSONEncoder().encode(self)
        )
    }
}

/// A saved title as list pages show it (no snapshot decoding needed).
public struct LibraryItem: Sendable, Equatable {
    public var kind: MediaKind
    public var itemID: String
    public var title: String
    public var genre: String?
    public var releaseDate: Date?
    public var artworkURL: String?
    public var favorite: Bool
    public var watched: Bool
    public var note: String?
    /// 1–10 half stars (`Rating`); nil when not rated.
    public var rating: Int?
    public var updatedAt: Date
    /// nil once the catalogue's details are in.
    public var titleState: TitleState? = nil

    public var year: Int? { releaseDate.map { Calendar.utc.component(.year, from: $0) } }
}

public struct LibraryPage: Sendable {
    public static let pageSize = 60
    public var items: [LibraryItem]
    public var total: Int
    public var page: Int
    public var pageCount: Int { Self.pageCount(total: total, pageSize: Self.pageSize) }

    /// Pages needed for `total` rows, `pageSize` a page; an empty list still has its page 1.
    static func pageCount(total: Int, pageSize: Int) -> Int { max(1, (total + pageSize - 1) / pageSize) }
}

/// The flags, note and rating a person wants for a title; nil leaves a field as it is.
public struct LibraryChange: Sendable, Equatable {
    public var favorite: Bool?
    public var watched: Bool?
    /// `.some(nil)` or an empty string clears the note.
    public var note: String??
    /// `.some(nil)` clears the rating; otherwise 1–10 (`Rating`).
    public var rating: Int??
    /// When the person made the change, when it was made earlier than it is sent (offline, then
    /// synced). The newer change by this time wins: a title changed after it (on another device)
    /// is left as it is (`LibraryError.superseded`). Nil: now. A time ahead of the server's is now.
    public var madeAt: Date?

    public init(favorite: Bool? = nil, watched: Bool? = nil, note: String?? = nil, rating: Int?? = nil, madeAt: Date? = nil) {
        self.favorite = favorite
        self.watched = watched
        self.note = note
        self.rating = rating
        self.madeAt = madeAt
    }
}

/// A rating: 1 to 10 steps of half a star (1 = ½ ★ … 10 = 5 ★). IMDb's and Trakt's 1–10 are the
/// same numbers; Letterboxd's ½–5 stars are twice theirs.
public enum Rating {
    public static let range = 1...10

    /// "★★★½" for 7.
    public static func stars(_ value: Int) -> String {
        String(repeating: "★", count: value / 2) + (value % 2 == 1 ? "½" : "")
    }

    /// "3½ stars", "½ star", "5 stars": how a page and a screen reader say it.
    public static func words(_ value: Int) -> String {
        let whole = value / 2
        let number = whole == 0 ? "½" : "\(whole)\(value % 2 == 1 ? "½" : "")"
        return number + (value == 2 ? " star" : value == 1 ? " star" : " stars")
    }
}

public enum LibraryError: Error, Sendable, Equatable {
    case noteTooLong(limit: Int, actual: Int)
    case invalidRating(Int)
    /// A watch's day that is not a date, or in the future.
    case invalidDay(String)
    /// The database refused or failed the write (busy past its timeout, connection lost…).
    case storageFailed(String)
    /// A change made (offline) before the title's last change, which was kept: the date of that one.
    case superseded(Date)

    public var message: String {
        switch self {
        case .noteTooLong(let limit, let actual):
            "Your note is \(actual) characters long; notes can be at most \(limit) characters. Shorten it and save again."
        case .invalidRating(let value):
            "A rating goes from 1 (½ star) to 10 (5 stars); \(value) is not one. Choose a rating between ½ and 5 stars."
        case .invalidDay(let message): message
        case .storageFailed:
            "There was a problem saving your change. Please try again."
        case .superseded(let kept):
            "This title was changed again at \(kept.formatted(.iso8601)), after you made this change, so the newer change was kept "
                + "and this one was not applied."
        }
    }
}
