import Foundation
import SQLKit

/// How a list is ordered. Each has the direction people expect: newest first, A to Z, best first.
public enum LibrarySort: String, Sendable, CaseIterable {
    /// Most recently changed first (the default).
    case changed
    case added
    /// Latest watch in the diary first; titles never logged last.
    case watched
    case title
    /// Newest release first.
    case released
    /// Highest rating first; unrated last.
    case rating

    public var label: String {
        switch self {
        case .changed: "Recently changed"
        case .added: "Date added"
        case .watched: "Date watched"
        case .title: "Title"
        case .released: "Release date"
        case .rating: "Your rating"
        }
    }
}

/// What a list shows and in which order: films or shows, a genre, a release year, rated or not,
/// words in the title or note. Everything nil is everything.
public struct LibraryFilter: Sendable, Equatable {
    public static let textLimit = 100
    public var kind: MediaKind?
    public var sort: LibrarySort = .changed
    public var genre: String?
    public var year: Int?
    public var rated: Bool?
    public var text: String?

    public init(
        kind: MediaKind? = nil, sort: LibrarySort = .changed, genre: String? = nil, year: Int? = nil, rated: Bool? = nil, text: String? = nil
    ) {
        self.kind = kind
        self.sort = sort
        self.genre = genre
        self.year = year
        self.rated = rated
        self.text = text
    }

    public struct Invalid: Error, Sendable {
        public let message: String
    }

    /// A filter from what a person or client asked for: empty strings are "any"; a genre over 60
    /// characters, a year outside 1888–2100 or words over 100 characters say what to change.
    public static func checked(
        kind: MediaKind?, sort: LibrarySort, genre: String?, year: Int?, rated: Bool?, text: String?
    ) throws(Invalid) -> LibraryFilter {
        let genre = genre.flatMap { $0.isEmpty ? nil : $0 }
        let text = text?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let genre, TextRules.length(genre) > 60 { throw Invalid(message: "A genre has at most 60 characters.") }
        if let year, !(1888...2100).contains(year) { throw Invalid(message: "\(year) is not a release year: use one from 1888 to 2100.") }
        if let text, TextRules.length(text) > textLimit { throw Invalid(message: "Search your lists with at most \(textLimit) characters.") }
        return LibraryFilter(kind: kind, sort: sort, genre: genre, year: year, rated: rated, text: text.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// Only sort and kind: no title is left out.
    public var narrows: Bool { genre != nil || year != nil || rated != nil || text != nil }

    func apply(to query: SQLSelectBuilder) -> SQLSelectBuilder {
        var query = query
        if let kind { query = query.where("media_kind", .equal, SQLBind(kind.rawValue)) }
        if let genre { query = query.where("genre", .equal, SQLBind(genre)) }
        if let year, let start = Calendar.newYear(year), let end = Calendar.newYear(year + 1) {
            query = query.where("release_date", .greaterThanOrEqual, SQLBind(start)).where("release_date", .lessThan, SQLBind(end))
        }
        if let rated { query = query.where(SQLIdentifier("rating"), rated ? .isNot : .is, SQLLiteral.null) }
        if let text {
            // Case-insensitive for ASCII on SQLite (its LOWER), for every script on PostgreSQL.
            let pattern =
                "%"
                + text.lowercased().replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
            query = query.where(
                SQLQueryString("(LOWER(title) LIKE \(bind: pattern) ESCAPE '\\' OR LOWER(COALESCE(note, '')) LIKE \(bind: pattern) ESCAPE '\\')"))
        }
        return query
    }

    func order(_ query: SQLSelectBuilder) -> SQLSelectBuilder {
        let ordered: SQLSelectBuilder =
            switch sort {
            case .changed: query
            case .added: query.orderBy("created_at", .descending)
            case .watched:
                query.orderBy(
                    SQLQueryString(
                        """
                        COALESCE((SELECT MAX(w.watched_on) FROM watches w WHERE w.profile_id = library_entries.profile_id \
                        AND w.media_kind = library_entries.media_kind AND w.item_id = library_entries.item_id), '') DESC
                        """))
            case .title: query.orderBy(SQLOrderBy(expression: SQLQueryString("LOWER(title)"), direction: SQLDirection.ascending))
            // NULLS LAST: what SQLite does for DESC anyway (so its index serves the order), said for PostgreSQL.
            case .released: query.orderBy(SQLQueryString("release_date DESC NULLS LAST"))
            case .rating: query.orderBy(SQLQueryString("rating DESC NULLS LAST"))
            }
        return ordered.orderBy("updated_at", .descending).orderBy("item_id")
    }
}
