import Foundation
import GRDB

/// A change the person made on the device, waiting for the server.
public enum PendingChange: Codable, Sendable, Equatable {
    /// A film's flags, note or rating; nil fields keep their value. An empty note clears it.
    case movie(id: Int64, favorite: Bool?, watched: Bool?, note: String?, rating: Int?)
    /// A film taken out of every list.
    case removeMovie(id: Int64)
    /// A show added to or taken out of TV Favorites.
    case showFavorite(id: Int64, favorite: Bool)
    /// An episode checked (watched when the change was made) or unchecked.
    case episode(id: Int64, showId: Int64, watched: Bool)

    /// The thing it changes, as the change feed names it: while a change of it waits, the feed's
    /// older copy does not overwrite what the person sees.
    var feedKey: (entity: String, key: String) {
        switch self {
        case .movie(let id, _, _, _, _), .removeMovie(let id): ("title", "movie:\(id)")
        case .showFavorite(let id, _): ("title", "show:\(id)")
        case .episode(let id, let showId, _): ("episode", "\(showId):\(id)")
        }
    }

    /// What the person would read in a list of waiting changes.
    public var summary: String {
        switch self {
        case .movie(_, let favorite, let watched, let note, let rating):
            var parts: [String] = []
            if let favorite { parts.append(favorite ? "add to Favorites" : "remove from Favorites") }
            if let watched { parts.append(watched ? "mark Watched" : "unmark Watched") }
            if let note { parts.append(note.isEmpty ? "clear the note" : "note") }
            if let rating { parts.append(rating == 0 ? "clear the rating" : "rate \(rating)/10") }
            return parts.isEmpty ? "save" : parts.joined(separator: ", ")
        case .removeMovie: return "remove from your lists"
        case .showFavorite(_, let favorite): return favorite ? "add to TV Favorites" : "remove from TV Favorites"
        case .episode(_, _, let watched): return watched ? "mark the episode watched" : "unmark the episode"
        }
    }
}

/// A change in the outbox: sent in order, with the same `Idempotency-Key` on every try.
public struct OutboxEntry: Codable, Sendable, Equatable, Identifiable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "outbox"
    public enum State: String, Codable, Sendable {
        /// Not yet accepted by the server: sent at the next sync.
        case waiting
        /// The server said no (the note too long, the title unknown): kept and shown, never sent again by itself.
        case refused
    }
    public var seq: Int64?
    public var key: String
    public var change: PendingChange
    public var madeAt: Date
    public var state: State
    public var attempts: Int
    /// Why it was refused, or why the last try failed.
    public var message: String?

    public var id: String { key }

    public mutating func didInsert(_ inserted: InsertionSuccess) { seq = inserted.rowID }

    enum CodingKeys: String, CodingKey { case seq, key, change, madeAt, state, attempts, message }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        seq = try container.decodeIfPresent(Int64.self, forKey: .seq)
        key = try container.decode(String.self, forKey: .key)
        // Stored as JSON.
        let json = try container.decode(Data.self, forKey: .change)
        change = try JSONDecoder().decode(PendingChange.self, from: json)
        madeAt = try container.decode(Date.self, forKey: .madeAt)
        state = try container.decode(State.self, forKey: .state)
        attempts = try container.decode(Int.self, forKey: .attempts)
        message = try container.decodeIfPresent(String.self, forKey: .message)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(seq, forKey: .seq)
        try container.encode(key, forKey: .key)
        try container.encode(try JSONEncoder().encode(change), forKey: .change)
        try container.encode(madeAt, forKey: .madeAt)
        try container.encode(state, forKey: .state)
        try container.encode(attempts, forKey: .attempts)
        try container.encodeIfPresent(message, forKey: .message)
    }

    init(change: PendingChange, madeAt: Date) {
        key = UUID().uuidString
        self.change = change
        self.madeAt = madeAt
        state = .waiting
        attempts = 0
    }
}
