import Foundation
import SQLKit

/// Titles in a custom list: added at the end or at a place, moved, removed. Positions stay
/// 1…count with no gaps, so "move to 3" means the same on every page and in the API.
extension CustomListService {
    /// What an add or a move came to.
    public enum ItemResult: Sendable, Equatable {
        case added(CustomListItem)
        /// The title was already in the list; it is where it is now (moved, when a place was given).
        case kept(CustomListItem)
        /// The list is not the person's.
        case noList
        /// A move of a title the list does not hold.
        case notInList
    }

    /// Adds a title to the person's list at `position` (the end when nil; clamped to 1…count+1),
    /// or moves it there when it is already in. A note given replaces the item's note.
    public func add(
        profile: UUID, id: UUID, title: SavedTitle, position: Int? = nil, note: String?? = nil
    ) async throws(CustomListError) -> ItemResult {
        let note: String?? = try note.map { raw throws(CustomListError) in try Self.validatedNote(raw) }
        let year = title.releaseDate.map { Calendar.utc.component(.year, from: $0) }
        let now = clock.now()
        return try await write(profile) { sql in
            guard try await Self.owned(sql, profile: profile, id: id) else { return .noList }
            if try await Self.item(sql, list: id, kind: title.kind, itemID: title.itemID) != nil {
                if let position { try await Self.move(sql, list: id, kind: title.kind, itemID: title.itemID, to: position) }
                if case .some(let note) = note {
                    try await Self.whereItem(sql.update("custom_list_items").set("note", to: SQLBind(note)), id, title.kind, title.itemID).run()
                }
                try await Self.touch(sql, id, now)
                return .kept(try await Self.item(sql, list: id, kind: title.kind, itemID: title.itemID)!)
            }
            let count = try await Self.count(sql, list: id)
            guard count < CustomListError.itemLimit else { throw CustomListError.listFull }
            let place = min(max(1, position ?? count + 1), count + 1)
            try await sql.update("custom_list_items").set("position", to: SQLRaw("position + 1"))
                .where("list_id", .equal, SQLBind(id)).where("position", .greaterThanOrEqual, SQLBind(place)).run()
            let item = CustomListItem(
                kind: title.kind, itemID: title.itemID, title: title.title, year: year, artworkURL: title.artworkURL, position: place,
                note: note ?? nil, addedAt: now)
            try await sql.insert(into: "custom_list_items")
                .columns("list_id", "media_kind", "item_id", "title", "year", "artwork_url", "position", "note", "added_at")
                .values(
                    SQLBind(id), SQLBind(item.kind.rawValue), SQLBind(item.itemID), SQLBind(item.title), SQLBind(item.year),
                    SQLBind(item.artworkURL), SQLBind(place), SQLBind(item.note), SQLBind(now)
                ).run()
            try await Self.touch(sql, id, now)
            return .added(item)
        }
    }

    /// Moves a title already in the person's list to `position` (clamped to 1…count).
    public func move(profile: UUID, id: UUID, kind: MediaKind, itemID: String, to position: Int) async throws(CustomListError) -> ItemResult {
        let now = clock.now()
        return try await write(profile) { sql in
            guard try await Self.owned(sql, profile: profile, id: id) else { return .noList }
            guard try await Self.item(sql, list: id, kind: kind, itemID: itemID) != nil else { return .notInList }
            try await Self.move(sql, list: id, kind: kind, itemID: itemID, to: position)
            try await Self.touch(sql, id, now)
            return .kept(try await Self.item(sql, list: id, kind: kind, itemID: itemID)!)
        }
    }

    /// Takes a title out of the person's list; false when the list is not theirs or does not hold it.
    public func remove(profile: UUID, id: UUID, kind: MediaKind, itemID: String) async throws(CustomListError) -> Bool {
        let now = clock.now()
        return try await write(profile) { sql in
            guard try await Self.owned(sql, profile: profile, id: id),
                let item = try await Self.item(sql, list: id, kind: kind, itemID: itemID)
            else { return false }
            try await Self.whereItem(sql.delete(from: "custom_list_items"), id, kind, itemID).run()
            try await sql.update("custom_list_items").set("position", to: SQLRaw("position - 1"))
                .where("list_id", .equal, SQLBind(id)).where("position", .greaterThan, SQLBind(item.position)).run()
            try await Self.touch(sql, id, now)
            return true
        }
    }

    static func validatedNote(_ raw: String?) throws(CustomListError) -> String? {
        do { return try LibraryService.validatedNote(raw) } catch { throw .noteTooLong(TextRules.length(raw ?? "")) }
    }

    private static func move(_ sql: any SQLDatabase, list: UUID, kind: MediaKind, itemID: String, to position: Int) async throws {
        guard let current = try await item(sql, list: list, kind: kind, itemID: itemID)?.position else { return }
        let target = min(max(1, position), try await count(sql, list: list))
        guard target != current else { return }
        let shift = sql.update("custom_list_items").where("list_id", .equal, SQLBind(list))
        if target < current {
            try await shift.set("position", to: SQLRaw("position + 1"))
                .where("position", .greaterThanOrEqual, SQLBind(target)).where("position", .lessThan, SQLBind(current)).run()
        } else {
            try await shift.set("position", to: SQLRaw("position - 1"))
                .where("position", .greaterThan, SQLBind(current)).where("position", .lessThanOrEqual, SQLBind(target)).run()
        }
        try await whereItem(sql.update("custom_list_items").set("position", to: SQLBind(target)), list, kind, itemID).run()
    }

    private static func item(_ sql: any SQLDatabase, list: UUID, kind: MediaKind, itemID: String) async throws -> CustomListItem? {
        try await whereItem(sql.select().columns(ItemRow.columns.map { SQLIdentifier($0) }).from("custom_list_items"), list, kind, itemID)
            .first(decoding: ItemRow.self)?.item
    }

    private static func count(_ sql: any SQLDatabase, list: UUID) async throws -> Int {
        try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("custom_list_items")
            .where("list_id", .equal, SQLBind(list)).first(decodingColumn: "n", as: Int.self) ?? 0
    }

    private static func touch(_ sql: any SQLDatabase, _ list: UUID, _ now: Date) async throws {
        try await sql.update("custom_lists").set("updated_at", to: SQLBind(now)).where("id", .equal, SQLBind(list)).run()
    }

    private static func whereItem<B: SQLPredicateBuilder>(_ builder: B, _ list: UUID, _ kind: MediaKind, _ itemID: String) -> B {
        builder.where("list_id", .equal, SQLBind(list)).where("media_kind", .equal, SQLBind(kind.rawValue))
            .where("item_id", .equal, SQLBind(itemID))
    }
}
