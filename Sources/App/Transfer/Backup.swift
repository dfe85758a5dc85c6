import Foundation

/// A person's whole PopcornSwirl data in one versioned JSON document: saved titles (flags, note,
/// rating and the saved copy of the film or show), every watch of the diary, custom lists with
/// their items, and recent searches. The importer restores it exactly; share links are left out
/// (a backup may be handed around; a restored list is private until shared again).
///
/// Version 1. A later version only adds fields; readers ignore fields they do not know.
public struct Backup: Codable, Sendable, Equatable {
    public static let formatName = "popcornswirl-backup"
    public static let currentVersion = 1

    public var format = Self.formatName
    public var version = Self.currentVersion
    public var exportedAt: Date
    public var titles: [Title]
    public var watches: [Watch]
    public var lists: [List]
    public var searches: [Search]
    /// A person's episodes beyond their dated watches (which are `watches` naming their episode):
    /// the watches on no known day and the ratings. Nil in backups made before episodes.
    public var episodes: [EpisodeMark]? = nil
    /// The shows a person began: Stopped, specials counted, when last watched.
    public var shows: [ShowProgressEntry]? = nil
    /// Ratings of whole seasons. Nil in backups made before them.
    public var seasonRatings: [SeasonRatingEntry]? = nil

    public struct Title: Codable, Sendable, Equatable {
        public var kind: MediaKind
        public var id: String
        public var title: String
        public var genre: String?
        public var releaseDate: Date?
        public var artworkURL: String?
        public var favorite: Bool
        public var watched: Bool
        public var note: String?
        /// 1–10 half stars.
        public var rating: Int?
        public var addedAt: Date
        public var changedAt: Date
        /// The saved copy a title's page falls back to (exactly one, by `kind`).
        public var movie: Movie?
        public var show: Show?
    }

    public struct Watch: Codable, Sendable, Equatable {
        public var kind: MediaKind
        public var id: String
        public var title: String
        public var artworkURL: String?
        /// `yyyy-MM-dd`.
        public var day: String
        public var rating: Int?
        public var note: String?
        public var genre: String?
        public var runtimeMinutes: Int?
        public var loggedAt: Date
        /// The episode watched, for a watch of one episode of a show.
        public var episode: EpisodeRef? = nil
    }

    /// An episode as a watch names it (TVMaze's id, season, number: nil for a special, name).
    public struct EpisodeRef: Codable, Sendable, Equatable {
        public var id: Int
        public var season: Int
        public var number: Int?
        public var name: String
    }

    public struct EpisodeMark: Codable, Sendable, Equatable {
        public var showID: Int
        public var episodeID: Int
        /// Watches on no known day.
        public var undatedWatches: Int
        public var rating: Int?
        public var changedAt: Date
    }

    public struct SeasonRatingEntry: Codable, Sendable, Equatable {
        public var showID: Int
        public var season: Int
        public var rating: Int
        public var changedAt: Date
    }

    public struct ShowProgressEntry: Codable, Sendable, Equatable {
        public var showID: Int
        public var title: String
        public var artworkURL: String?
        public var stopped: Bool
        public var includeSpecials: Bool
        public var lastWatchedAt: Date?
        public var changedAt: Date
    }

    public struct List: Codable, Sendable, Equatable {
        public var name: String
        public var description: String?
        public var createdAt: Date
        public var changedAt: Date
        /// In the list's order.
        public var items: [Item]

        public struct Item: Codable, Sendable, Equatable {
            public var kind: MediaKind
            public var id: String
            public var title: String
            public var year: Int?
            public var artworkURL: String?
            public var note: String?
            public var addedAt: Date
        }
    }

    public struct Search: Codable, Sendable, Equatable {
        public var query: String
        public var searchedAt: Date
    }

    /// ISO 8601 with milliseconds, as the document is written and read everywhere.
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(Self.timestamp))
        }
        return encoder
    }()

    public static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            if let date = try? Date(text, strategy: Self.timestamp) { return date }
            if let date = try? Date(text, strategy: .iso8601) { return date }
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "“\(text)” is not an ISO 8601 date and time.")
        }
        return decoder
    }()

    static let timestamp = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}

extension MediaKind: Codable {}
