import Foundation
import SQLKit

/// A saved title's row of `library_entries` as the cards and the API show it (without the
/// snapshot), read and written with SQLKit. Fluent's model walked its property wrappers by
/// reflection on every read and save: 19 % of the CPU of `PUT /api/v1/library` (scripts/bench).
struct EntryRow {
    static let table = "library_entries"
    static let columns = [
        "media_kind", "item_id", "title", "genre", "release_date", "artwork_url", "favorite", "watched", "note", "rating", "updated_at",
        "title_state",
    ]
    var media_kind: String
    var item_id: String
    var title: String
    var genre: String?
    var release_date: Date?
    var artwork_url: String?
    var favorite: Bool
    var watched: Bool
    var note: String?
    var rating: Int?
    var updated_at: Date
    var title_state: String?

    /// Read column by column: Codable's keyed containers over `SQLRowDecoder` were 16 % of
    /// `GET /api/v1/library`'s CPU (60 rows of 11 columns a page; `scripts/bench --perf`).
    init(row: some SQLRow) throws {
        func optional<T: Decodable>(_ column: String, _ type: T.Type) throws -> T? {
            try row.decodeNil(column: column) ? nil : row.decode(column: column, as: type)
        }
        media_kind = try row.decode(column: "media_kind", as: String.self)
        item_id = try row.decode(column: "item_id", as: String.self)
        title = try row.decode(column: "title", as: String.self)
        genre = try optional("genre", String.self)
        release_date = try optional("release_date", Date.self)
        artwork_url = try optional("artwork_url", String.self)
        favorite = try row.decode(column: "favorite", as: Bool.self)
        watched = try row.decode(column: "watched", as: Bool.self)
        note = try optional("note", String.self)
        rating = try optional("rating", Int.self)
        updated_at = try row.decode(column: "updated_at", as: Date.self)
        title_state = try optional("title_state", String.self)
    }

    /// Every row of a select of `columns`.
    static func rows(_ query: SQLSelectBuilder) async throws -> [EntryRow] {
        try await query.all().map { try EntryRow(row: $0) }
    }

    var item: LibraryItem {
        LibraryItem(
            kind: MediaKind(rawValue: media_kind) ?? .movie, itemID: item_id, title: title, genre: genre, releaseDate: release_date,
            artworkURL: artwork_url, favorite: favorite, watched: watched, note: note, rating: rating, updatedAt: updated_at,
            titleState: title_state.flatMap(TitleState.init(rawValue:))
        )
    }

    /// A select of these columns (and `extra` ones) from the table.
    static func select(_ sql: any SQLDatabase, adding extra: [String] = []) -> SQLSelectBuilder {
        sql.select().columns((columns + extra).map { SQLIdentifier($0) }).from(table)
    }

    /// The person's titles of one kind with these ids.
    static func all(_ sql: any SQLDatabase, profile: UUID, kind: MediaKind, itemIDs: [String]) async throws -> [EntryRow] {
        try await rows(keyed(select(sql), profile, kind).where("item_id", .in, SQLBind.group(itemIDs)))
    }

    /// The person's title, when saved. A save's statements are written as text with their binds:
    /// SQLKit's builders serialized them anew on every save, quoting each identifier (12 % of
    /// `PUT /api/v1/library`'s CPU, `scripts/bench --only put --perf`).
    static func find(_ sql: any SQLDatabase, profile: UUID, kind: MediaKind, itemID: String) async throws -> EntryRow? {
        try await sql.raw(
            """
            SELECT \(unsafeRaw: columnList) FROM library_entries \
            WHERE profile_id = \(bind: profile) AND media_kind = \(bind: kind.rawValue) AND item_id = \(bind: itemID)
            """
        ).first().map { try EntryRow(row: $0) }
    }

    /// `columns` as a select list (plain lowercase names: nothing to quote).
    static let columnList = columns.joined(separator: ", ")

    /// The saved copy of the title (a film's or show's JSON) and when it was saved.
    static func snapshot(_ sql: any SQLDatabase, profile: UUID, kind: MediaKind, itemID: String) async throws -> (Data, Date)? {
        struct Row: Decodable {
            var snapshot: Data
            var updated_at: Date
        }
        return try await keyed(sql.select().columns("snapshot", "updated_at").from(table), profile, kind, itemID)
            .first(decoding: Row.self).map { ($0.snapshot, $0.updated_at) }
    }

    static func delete(_ sql: any SQLDatabase, profile: UUID, kind: MediaKind, itemID: String) async throws {
        try await keyed(sql.delete(from: table), profile, kind, itemID).run()
    }

    /// Writes the person's title with these flags, note and rating, and a fresh copy of the title:
    /// an update of the row there is, or a new row.
    static func write(
        _ sql: any SQLDatabase, profile: UUID, title: SavedTitle, item: LibraryItem, exists: Bool, now: Date
    ) async throws {
        if exists {
            try await sql.raw(
                """
                UPDATE library_entries SET title = \(bind: title.title), genre = \(bind: title.genre), \
                release_date = \(bind: title.releaseDate), artwork_url = \(bind: title.artworkURL), \
                favorite = \(bind: item.favorite), watched = \(bind: item.watched), note = \(bind: item.note), \
                rating = \(bind: item.rating.map(Int16.init)), snapshot = \(bind: title.snapshot), updated_at = \(bind: item.updatedAt), \
                title_state = \(bind: title.state?.rawValue) \
                WHERE profile_id = \(bind: profile) AND media_kind = \(bind: title.kind.rawValue) AND item_id = \(bind: title.itemID)
                """
            ).run()
        } else {
            let values: [(String, any Encodable & Sendable)] = [
                ("title", title.title), ("genre", title.genre), ("release_date", title.releaseDate), ("artwork_url", title.artworkURL),
                ("favorite", item.favorite), ("watched", item.watched), ("note", item.note), ("rating", item.rating.map(Int16.init)),
                ("snapshot", title.snapshot), ("updated_at", item.updatedAt), ("title_state", title.state?.rawValue),
            ]
            let key: [(String, any Encodable & Sendable)] = [
                ("id", UUID()), ("profile_id", profile), ("media_kind", title.kind.rawValue), ("item_id", title.itemID), ("created_at", now),
            ]
            try await sql.insert(into: table).columns((key + values).map(\.0)).values((key + values).map { SQLBind($0.1) }).run()
        }
    }

    private static func keyed<Builder: SQLPredicateBuilder>(_ builder: Builder, _ profile: UUID, _ kind: MediaKind, _ itemID: String? = nil)
        -> Builder
    {
        let builder = builder.where("profile_id", .equal, SQLBind(profile)).where("media_kind", .equal, SQLBind(kind.rawValue))
        return itemID.map { builder.where("item_id", .equal, SQLBind($0)) } ?? builder
    }
}
