import Foundation
import SQLKit

/// One note and one rating, wherever they show: what a person writes for a title ("Your note",
/// the note dialog after Watched, "Your rating") is also its latest watch's in the diary while the
/// two say the same (the watch that marking Watched logged has none of its own yet), and editing
/// that watch's edits the title's. A watch with its own (a rewatch logged with a note or a rating)
/// keeps it. A show's episodes' watches are theirs alone: they never follow the show's.
enum WatchNotes {
    /// A change of a title's or a watch's note or rating: what it was, what it is now.
    struct Change<Value: Equatable & Sendable> {
        var old: Value?
        var new: Value?
        var changed: Bool { old != new }
    }

    /// The title's latest watch (latest day, then latest logged) with its note and rating, read once.
    private struct Latest {
        var id: UUID
        var note: String?
        var rating: Int?
    }

    private static func latest(_ sql: any SQLDatabase, profile: UUID, kind: MediaKind, itemID: String) async throws -> Latest? {
        guard
            let row = try await sql.select().column("id").column("note").column("rating").from("watches")
                .where("profile_id", .equal, SQLBind(profile)).where("media_kind", .equal, SQLBind(kind.rawValue))
                .where("item_id", .equal, SQLBind(itemID)).where(SQLIdentifier("episode_id"), .is, SQLLiteral.null)
                .orderBy("watched_on", .descending).orderBy("created_at", .descending).limit(1).first()
        else { return nil }
        return Latest(
            id: try row.decode(column: "id", as: UUID.self),
            note: try row.decodeNil(column: "note") ? nil : try row.decode(column: "note", as: String.self),
            rating: try row.decodeNil(column: "rating") ? nil : try row.decode(column: "rating", as: Int.self))
    }

    /// `value` follows a change when it held nothing or what the other side held before.
    private static func follows<Value>(_ value: Value?, _ change: Change<Value>?) -> Bool {
        guard let change, change.changed else { return false }
        return value == nil || value == change.old
    }

    /// The title's note or rating changed: its latest watch follows each when it had none or the old one.
    static func titleChanged(
        _ sql: any SQLDatabase, profile: UUID, kind: MediaKind, itemID: String, note: Change<String>?, rating: Change<Int>?
    ) async throws {
        guard note?.changed == true || rating?.changed == true,
            let watch = try await latest(sql, profile: profile, kind: kind, itemID: itemID)
        else { return }
        let setsNote = follows(watch.note, note)
        let setsRating = follows(watch.rating, rating)
        guard setsNote || setsRating else { return }
        let update = sql.update("watches")
        if setsNote { update.set("note", to: SQLBind(note?.new)) }
        if setsRating { update.set("rating", to: SQLBind(rating?.new)) }
        try await update.where("id", .equal, SQLBind(watch.id)).run()
    }

    /// A watch's note or rating changed: when it is the title's latest watch, the title follows
    /// each it held the old one of (or none of). `entry` is the title's row as it is now.
    static func watchChanged(
        _ sql: any SQLDatabase, profile: UUID, watchID: UUID, entry: EntryRow, note: Change<String>, rating: Change<Int>
    ) async throws {
        let setsNote = follows(entry.note, note)
        let setsRating = follows(entry.rating, rating)
        guard setsNote || setsRating,
            try await latest(sql, profile: profile, kind: MediaKind(rawValue: entry.media_kind) ?? .movie, itemID: entry.item_id)?.id
                == watchID
        else { return }
        let update = sql.update(EntryRow.table)
        if setsNote { update.set("note", to: SQLBind(note.new)) }
        if setsRating { update.set("rating", to: SQLBind(rating.new)) }
        try await update.where("profile_id", .equal, SQLBind(profile)).where("media_kind", .equal, SQLBind(entry.media_kind))
            .where("item_id", .equal, SQLBind(entry.item_id)).run()
    }
}
