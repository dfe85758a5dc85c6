import FluentKit
import Foundation
import SQLKit

/// Custom lists. Every read and write names the person (`profile_id`), so another person's list
/// id finds nothing; the one read without a person is a shared list, by its link's token.
public final class CustomListService: Sendable {
    let database: AppDatabase
    let clock: any AppClock

    init(database: AppDatabase, clock: any AppClock) {
        self.database = database
        self.clock = clock
    }

    /// The person's lists, by name.
    public func lists(profile: UUID?) async throws -> [CustomList] {
        guard let profile else { return [] }
        return try await Self.listSelect(database.sql).where("profile_id", .equal, SQLBind(profile))
            .orderBy(SQLFunction("LOWER", args: SQLIdentifier("name"))).orderBy("created_at")
            .limit(CustomListError.listLimit + 10).all(decoding: ListRow.self).map(\.list)
    }

    public func list(profile: UUID?, id: UUID) async throws -> CustomList? {
        guard let profile else { return nil }
        return try await Self.listSelect(database.sql).where("profile_id", .equal, SQLBind(profile)).where("id", .equal, SQLBind(id))
            .first(decoding: ListRow.self)?.list
    }

    /// One page of the person's own list; nil when it is not theirs.
    public func page(profile: UUID?, id: UUID, page: Int) async throws -> CustomListPage? {
        guard let list = try await list(profile: profile, id: id) else { return nil }
        return try await items(of: list, page: page)
    }

    /// One page of a shared list; nil for a token that is not live.
    public func sharedPage(token: String, page: Int) async throws -> CustomListPage? {
        guard RandomToken.isWellFormed(token),
            let list = try await Self.listSelect(database.sql).where("share_token", .equal, SQLBind(token)).first(decoding: ListRow.self)?.list
        else { return nil }
        return try await items(of: list, page: page)
    }

    /// The person's lists by name (as `lists(profile:)` orders them) and which of them hold a title:
    /// one query, without counting any list's titles (a title's page shows names only).
    public func titleLists(profile: UUID?, kind: MediaKind, itemID: String) async throws -> (lists: [ListName], holding: Set<UUID>) {
        guard let profile else { return ([], []) }
        struct Row: Decodable {
            var id: UUID
            var name: String
            var holds: Bool
        }
        let holds = SQLList(
            [
                SQLRaw(
                    "EXISTS (SELECT 1 FROM custom_list_items WHERE custom_list_items.list_id = custom_lists.id AND custom_list_items.media_kind = "),
                SQLBind(kind.rawValue), SQLRaw(" AND custom_list_items.item_id = "), SQLBind(itemID), SQLRaw(")"),
            ], separator: SQLRaw(""))
        let rows = try await database.sql.select().columns("id", "name").column(holds, as: "holds")
            .from("custom_lists").where("profile_id", .equal, SQLBind(profile))
            .orderBy(SQLFunction("LOWER", args: SQLIdentifier("name"))).orderBy("created_at")
            .limit(CustomListError.listLimit + 10).all(decoding: Row.self)
        return (rows.map { ListName(id: $0.id, name: $0.name) }, Set(rows.filter(\.holds).map(\.id)))
    }

    /// Every title of the person's list, in its order (at most `CustomListError.itemLimit`); nil
    /// when it is not theirs.
    func allItems(profile: UUID, id: UUID) async throws -> (CustomList, [CustomListItem])? {
        guard let list = try await list(profile: profile, id: id) else { return nil }
        let rows = try await database.sql.select().columns(ItemRow.columns.map { SQLIdentifier($0) }).from("custom_list_items")
            .where("list_id", .equal, SQLBind(list.id)).orderBy("position").limit(CustomListError.itemLimit)
            .all(decoding: ItemRow.self)
        return (list, rows.map(\.item))
    }

    private func items(of list: CustomList, page: Int) async throws -> CustomListPage {
        let number = max(1, page)
        let rows = try await database.sql.select().columns(ItemRow.columns.map { SQLIdentifier($0) }).from("custom_list_items")
            .where("list_id", .equal, SQLBind(list.id)).orderBy("position")
            .limit(CustomListPage.pageSize).offset((number - 1) * CustomListPage.pageSize)
            .all(decoding: ItemRow.self)
        return CustomListPage(list: list, items: rows.map(\.item), page: number)
    }

    // MARK: - Writes

    public func create(profile: UUID, name: String?, description: String?) async throws(CustomListError) -> CustomList {
        let now = clock.now()
        let list = CustomList(
            id: UUID(), name: try CustomListError.validatedName(name), description: try CustomListError.validatedDescription(description),
            shareToken: nil, itemCount: 0, createdAt: now, updatedAt: now)
        try await write(profile) { sql in
            let count =
                try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("custom_lists")
                .where("profile_id", .equal, SQLBind(profile)).first(decodingColumn: "n", as: Int.self) ?? 0
            guard count < CustomListError.listLimit else { throw CustomListError.tooManyLists }
            try await sql.insert(into: "custom_lists").columns("id", "profile_id", "name", "description", "created_at", "updated_at")
                .values(SQLBind(list.id), SQLBind(profile), SQLBind(list.name), SQLBind(list.description), SQLBind(now), SQLBind(now)).run()
            return true
        }
        return list
    }

    /// Renames and describes a list; false when it is not the person's.
    public func update(profile: UUID, id: UUID, name: String?, description: String?) async throws(CustomListError) -> Bool {
        let name = try CustomListError.validatedName(name)
        let description = try CustomListError.validatedDescription(description)
        return try await change(profile, id) { sql, _ in
            try await sql.update("custom_lists").set("name", to: SQLBind(name)).set("description", to: SQLBind(description))
                .where("id", .equal, SQLBind(id)).run()
        }
    }

    /// Deletes a list and its items; false when it is not the person's.
    public func delete(profile: UUID, id: UUID) async throws(CustomListError) -> Bool {
        try await change(profile, id) { sql, _ in
            try await sql.delete(from: "custom_list_items").where("list_id", .equal, SQLBind(id)).run()
            try await sql.delete(from: "custom_lists").where("id", .equal, SQLBind(id)).run()
        }
    }

    /// The list's share token, made on first share (a list shared again after a revoke gets a new
    /// one, so the old link stays dead); nil when the list is not the person's.
    public func share(profile: UUID, id: UUID) async throws(CustomListError) -> String? {
        let fresh = SessionService.newToken()
        let now = clock.now()
        return try await write(profile) { sql in
            struct Row: Decodable { var share_token: String? }
            guard
                let row = try await sql.select().column("share_token").from("custom_lists").where("id", .equal, SQLBind(id))
                    .where("profile_id", .equal, SQLBind(profile)).first(decoding: Row.self)
            else { return nil }
            if let token = row.share_token { return token }
            try await sql.update("custom_lists").set("share_token", to: SQLBind(fresh)).set("updated_at", to: SQLBind(now))
                .where("id", .equal, SQLBind(id)).run()
            return fresh
        }
    }

    /// Makes the list private again: its link stops working at once. False when it is not the person's.
    public func unshare(profile: UUID, id: UUID) async throws(CustomListError) -> Bool {
        try await change(profile, id) { sql, _ in
            try await sql.update("custom_lists").set("share_token", to: SQLLiteral.null).where("id", .equal, SQLBind(id)).run()
        }
    }

    /// Runs `body` in a write when list `id` is the person's, stamping its `updated_at`; false when it is not.
    func change(
        _ profile: UUID, _ id: UUID, _ body: @escaping @Sendable (any SQLDatabase, Date) async throws -> Void
    ) async throws(CustomListError) -> Bool {
        let now = clock.now()
        return try await write(profile) { sql in
            guard try await Self.owned(sql, profile: profile, id: id) else { return false }
            try await body(sql, now)
            try await sql.update("custom_lists").set("updated_at", to: SQLBind(now)).where("id", .equal, SQLBind(id)).run()
            return true
        }
    }

    /// One transaction per person (see `AppDatabase.write`), its failures as `CustomListError`.
    func write<T: Sendable>(_ profile: UUID, _ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws(CustomListError) -> T {
        do {
            return try await database.write(serializedBy: profile.uuidString) { db in try await body(db as! any SQLDatabase) }
        } catch let error as CustomListError {
            throw error
        } catch {
            throw .storageFailed("\(error)")
        }
    }

    static func owned(_ sql: any SQLDatabase, profile: UUID, id: UUID) async throws -> Bool {
        try await sql.select().column("id").from("custom_lists").where("id", .equal, SQLBind(id))
            .where("profile_id", .equal, SQLBind(profile)).first() != nil
    }

    private static func listSelect(_ sql: any SQLDatabase) -> SQLSelectBuilder {
        sql.select().columns("id", "name", "description", "share_token", "created_at", "updated_at")
            .column(
                SQLRaw("(SELECT COUNT(*) FROM custom_list_items WHERE custom_list_items.list_id = custom_lists.id)"), as: "item_count"
            )
            .from("custom_lists")
    }

    private struct ListRow: Decodable {
        var id: UUID
        var name: String
        var description: String?
        var share_token: String?
        var item_count: Int
        var created_at: Date
        var updated_at: Date

        var list: CustomList {
            CustomList(
                id: id, name: name, description: description, shareToken: share_token, itemCount: item_count, createdAt: created_at,
                updatedAt: updated_at)
        }
    }

    struct ItemRow: Decodable {
        static let columns = ["media_kind", "item_id", "title", "year", "artwork_url", "position", "note", "added_at"]
        var media_kind: String
        var item_id: String
        var title: String
        var year: Int?
        var artwork_url: String?
        var position: Int
        var note: String?
        var added_at: Date

        var item: CustomListItem {
            CustomListItem(
                kind: MediaKind(rawValue: media_kind) ?? .movie, itemID: item_id, title: title, year: year, artworkURL: artwork_url,
                position: position, note: note, addedAt: added_at)
        }
    }
}

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
