import Foundation
import SQLKit

/// One note and one rating, wherever they show: what a person writes for a title ("Your note",
/// the note dialog after Watched, "Your rating") is also its latest watch's in the diary while the
/// two say the same (the watch that marking Watched logged has none of its own yet), and editing
/// that watch's edits the title's. A watch with its own (a rewatch logged with a note or a rating)
/// keeps it.
enum WatchNotes {
    /// A value a title and its watches both hold: the column's name in `watches` and `library_entries`.
    enum Field: String {
        case note, rating
    }

    /// The title's latest watch (latest day, then latest logged) and its value of `field`, if any.
    static func latest<Value: Decodable & Sendable>(
        _ sql: any SQLDatabase, _ field: Field, as: Value.Type, profile: UUID, kind: MediaKind, itemID: String
    ) async throws -> (id: UUID, value: Value?)? {
        guard
            let row = try await sql.select().column("id").column(field.rawValue).from("watches")
                .where("profile_id", .equal, SQLBind(profile)).where("media_kind", .equal, SQLBind(kind.rawValue))
                .where("item_id", .equal, SQLBind(itemID))
                .orderBy("watched_on", .descending).orderBy("created_at", .descending).limit(1).first()
        else { return nil }
        let value = try row.decodeNil(column: field.rawValue) ? nil : try row.decode(column: field.rawValue, as: Value.self)
        return (try row.decode(column: "id", as: UUID.self), value)
    }

    /// The title's `field` changed from `old` to `new`: the latest watch follows when it had none or the old one.
    static func titleChanged<Value: Codable & Equatable & Sendable>(
        _ sql: any SQLDatabase, _ field: Field, profile: UUID, kind: MediaKind, itemID: String, old: Value?, new: Value?
    ) async throws {
        guard old != new, let watch = try await latest(sql, field, as: Value.self, profile: profile, kind: kind, itemID: itemID),
            watch.value == nil || watch.value == old
        else { return }
        try await sql.update("watches").set(SQLIdentifier(field.rawValue), to: SQLBind(new)).where("id", .equal, SQLBind(watch.id)).run()
    }

    /// A watch's `field` changed from `old` to `new`: the title's follows when this is its latest
    /// watch and the title held the old one (or none).
    static func watchChanged<Value: Codable & Equatable & Sendable>(
        _ sql: any SQLDatabase, _ field: Field, profile: UUID, watchID: UUID, kind: MediaKind, itemID: String, old: Value?, new: Value?,
        current: Value?
    ) async throws {
        guard old != new, current == nil || current == old,
            try await latest(sql, field, as: Value.self, profile: profile, kind: kind, itemID: itemID)?.id == watchID
        else { return }
        try await sql.update(EntryRow.table).set(SQLIdentifier(field.rawValue), to: SQLBind(new))
            .where("profile_id", .equal, SQLBind(profile)).where("media_kind", .equal, SQLBind(kind.rawValue))
            .where("item_id", .equal, SQLBind(itemID)).run()
    }
}
