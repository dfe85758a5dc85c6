import FluentKit
import Foundation
import SQLKit

/// A person's lists, a page at a time.
extension LibraryService {
    /// One page of a list, most recently changed first.
    public func list(profile: UUID?, list: LibraryList, page: Int, kind: MediaKind? = nil) async throws -> LibraryPage {
        try await self.list(profile: profile, list: list, page: page, filter: LibraryFilter(kind: kind))
    }

    /// One page of a list, filtered and sorted (`LibraryFilter`).
    public func list(profile: UUID?, list: LibraryList, page: Int, filter: LibraryFilter) async throws -> LibraryPage {
        guard let profile else { return LibraryPage(items: [], total: 0, page: 1) }
        let sql = try database.sql
        // Two indexed queries; a COUNT(*) OVER () window made SQLite materialise every row (measured slower).
        let total =
            try await Self.filtered(sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n"), profile, list, filter)
            .first(decodingColumn: "n", as: Int.self) ?? 0
        let pageNumber = max(1, page)
        let rows = try await EntryRow.rows(
            Self.pageRows(sql, profile, list, filter).limit(LibraryPage.pageSize).offset((pageNumber - 1) * LibraryPage.pageSize))
        return LibraryPage(items: rows.map(\.item), total: total, page: pageNumber)
    }

    /// A list's rows in the page's order (`LibraryFilter.order`), before the page's limit.
    static func pageRows(_ sql: any SQLDatabase, _ profile: UUID, _ list: LibraryList, _ filter: LibraryFilter) -> SQLSelectBuilder {
        filter.order(filtered(sql.select().columns(EntryRow.columns.map { SQLIdentifier($0) }), profile, list, filter))
    }

    private static func filtered(_ query: SQLSelectBuilder, _ profile: UUID, _ list: LibraryList, _ filter: LibraryFilter) -> SQLSelectBuilder {
        let query = filter.apply(to: query.from(LibraryEntryModel.schema).where("profile_id", .equal, SQLBind(profile)))
        return switch list {
        case .favorites: query.where("favorite", .equal, SQLLiteral.boolean(true))
        case .watched: query.where("watched", .equal, SQLLiteral.boolean(true))
        case .all: query
        }
    }
}
