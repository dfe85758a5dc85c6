import Foundation
import SQLKit

/// One note, wherever it shows: the note a person writes for a title ("Your note", the note dialog
/// after Watched) is the note of the title's latest watch in the diary while the two say the same
/// (the watch that marking Watched logged has none of its own yet), and editing that watch's note
/// edits the title's. A watch with a note of its own (a rewatch logged with one) keeps it.
enum WatchNotes {
    /// The title's latest watch (latest day, then latest logged), if any.
    static func latest(_ sql: any SQLDatabase, profile: UUID, kind: MediaKind, itemID: String) async throws -> (id: UUID, note: String?)? {
        guard
            let row = try await sql.select().column("id").column("note").from("watches")
                .where("profile_id", .equal, SQLBind(profile)).where("media_kind", .equal, SQLBind(kind.rawValue))
                .where("item_id", .equal, SQLBind(itemID))
                .orderBy("watched_on", .descending).orderBy("created_at", .descending).limit(1).first()
        else { return nil }
        let note = try row.decodeNil(column: "note") ? nil : try row.decode(column: "note", as: String.self)
        return (try row.decode(column: "id", as: UUID.self), note)
    }

    /// The title's note changed from `old` to `new`: the latest watch follows when it had no note
    /// or the old one.
    static func titleNoteChanged(_ sql: any SQLDatabase, profile: UUID, kind: MediaKind, itemID: String, old: String?, new: String?)
        async throws
    {
        guard old != new, let watch = try await latest(sql, profile: profile, kind: kind, itemID: itemID),
            watch.note == nil || watch.note == old
        else { return }
        try await sql.update("watches").set("note", to: SQLBind(new)).where("id", .equal, SQLBind(watch.id)).run()
    }

    /// A watch's note changed from `old` to `new`: the title's note follows when this is its latest
    /// watch and the title's note was the old one (or there was none).
    static func watchNoteChanged(_ sql: any SQLDatabase, profile: UUID, watchID: UUID, kind: MediaKind, itemID: String, old: String?, new: String?)
        async throws
    {
        guard old != new, try await latest(sql, profile: profile, kind: kind, itemID: itemID)?.id == watchID,
            let entry = try await EntryRow.find(sql, profile: profile, kind: kind, itemID: itemID), entry.note == nil || entry.note == old
        else { return }
        try await sql.update(EntryRow.table).set("note", to: SQLBind(new))
            .where("profile_id", .equal, SQLBind(profile)).where("media_kind", .equal, SQLBind(kind.rawValue))
            .where("item_id", .equal, SQLBind(itemID)).run()
    }
}
