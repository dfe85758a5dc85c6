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
