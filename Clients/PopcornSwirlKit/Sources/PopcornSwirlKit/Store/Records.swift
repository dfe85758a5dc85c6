import Foundation
import GRDB

/// A film or a TV show.
public enum TitleKind: String, Codable, Sendable, CaseIterable {
    case movie, show
}

/// A title the person saved (Favorites, Watched, TV Favorites) or rated, with their note.
public struct SavedTitle: Codable, Sendable, Equatable, Identifiable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "title"
    public var kind: TitleKind
    public var id: Int64
    public var title: String
    public var genre: String?
    public var year: Int?
    public var posterURL: String?
    public var favorite: Bool
    public var watched: Bool
    public var note: String?
    /// Half stars, 1 = ½ ★ … 10 = 5 ★.
    public var rating: Int?
    public var updatedAt: Date?

    public init(
        kind: TitleKind, id: Int64, title: String, genre: String? = nil, year: Int? = nil, posterURL: String? = nil, favorite: Bool = false,
        watched: Bool = false, note: String? = nil, rating: Int? = nil, updatedAt: Date? = nil
    ) {
        self.kind = kind
        self.id = id
        self.title = title
        self.genre = genre
        self.year = year
        self.posterURL = posterURL
        self.favorite = favorite
        self.watched = watched
        self.note = note
        self.rating = rating
        self.updatedAt = updatedAt
    }

    /// The key the change feed and the outbox name it by: `movie:123`.
    public var key: String { "\(kind.rawValue):\(id)" }
}

/// What a screen knows of a title when the person saves it, so the saved copy has a name offline.
public struct TitleCard: Codable, Sendable, Equatable {
    public var kind: TitleKind
    public var id: Int64
    public var title: String
    public var genre: String?
    public var year: Int?
    public var posterURL: String?

    public init(kind: TitleKind, id: Int64, title: String, genre: String? = nil, year: Int? = nil, posterURL: String? = nil) {
        self.kind = kind
        self.id = id
        self.title = title
        self.genre = genre
        self.year = year
        self.posterURL = posterURL
    }
}

/// One watch of the diary.
public struct DiaryWatch: Codable, Sendable, Equatable, Identifiable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "watch"
    public var id: String
    public var kind: TitleKind
    public var titleId: Int64
    public var title: String
    /// The day, `yyyy-MM-dd`.
    public var date: String
    public var rating: Int?
    public var note: String?
    public var rewatch: Bool
    public var episodeId: Int64?
    public var season: Int?
    public var number: Int?
    public var episodeName: String?
}

/// A custom list (its titles are ``ListItemCopy`` rows).
public struct CustomListCopy: Codable, Sendable, Equatable, Identifiable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "customList"
    public var id: String
    public var name: String
    public var description: String?
    public var updatedAt: Date
}

public struct ListItemCopy: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "listItem"
    public var listId: String
    public var position: Int
    public var kind: TitleKind
    public var titleId: Int64
    public var title: String
    public var year: Int?
    public var note: String?
}

/// An episode the person watched (any number of times) or rated.
public struct EpisodeCopy: Codable, Sendable, Equatable, Identifiable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "episode"
    public var id: Int64
    public var showId: Int64
    public var watchCount: Int
    public var rating: Int?
}

/// A show the person began: Stopped, specials counted, when an episode was last watched.
public struct ShowCopy: Codable, Sendable, Equatable, Identifiable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "show"
    public var id: Int64
    public var title: String
    public var posterURL: String?
    public var stopped: Bool
    public var includeSpecials: Bool
    public var lastWatchedAt: Date?
}

public struct SeasonRatingCopy: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "seasonRating"
    public var showId: Int64
    public var season: Int
    public var rating: Int
}
