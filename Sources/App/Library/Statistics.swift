import Foundation
import SQLKit

/// A person's watching in numbers, from the diary: all time, or one year ("year in review").
public struct WatchStatistics: Sendable, Equatable {
    /// Watches in a month (`2026-11`) or a year (`2026`).
    public struct Period: Sendable, Equatable {
        public var key: String
        public var films: Int
        /// Watches of shows: of a whole show, or of one episode.
        public var shows: Int
        public var minutes: Int
        /// Of the shows' watches, those of one episode.
        public var episodes = 0
        public var watches: Int { films + shows }
    }

    public struct Genre: Sendable, Equatable {
        public var name: String
        public var watches: Int
    }

    public struct Rewatched: Sendable, Equatable {
        public var kind: MediaKind
        public var itemID: String
        public var title: String
        public var watches: Int
    }

    /// nil: all time.
    public var year: Int?
    public var films: Int
    public var shows: Int
    /// Different titles watched.
    public var titles: Int
    /// Watches of a title watched before (ever, not only in the period).
    public var rewatches: Int
    /// From each watch's runtime: a film's length, one episode of a show.
    public var filmMinutes: Int
    public var showMinutes: Int
    /// The year's twelve months; all time, the last twelve up to this month. Oldest first.
    public var months: [Period]
    /// Every year with a watch, oldest first (within the period).
    public var years: [Period]
    /// How many titles have each rating, index 0 for 1 (½ ★) … 9 for 10 (5 ★): all rated titles,
    /// or for a year the rated titles watched that year.
    public var ratings: [Int]
    public var genres: [Genre]
    public var rewatched: [Rewatched]
    /// Every year with a watch, newest first: the years in review there are.
    public var reviewYears: [Int]
    /// Films marked Watched with no watch in the diary (all time only): the figures, made of the
    /// diary, do not count them, and the page says so.
    public var undatedWatched = 0
    /// Of the shows' watches, those of one episode.
    public var episodes = 0
    /// Shows ended and seen to the last episode (in the year: finished that year).
    public var showsFinished = 0

    public var watches: Int { films + shows }
}
