import Foundation
import SQLKit

/// Titles saved by id before their details were known (`TitleState`): the catalogue worker fills
/// them in for everyone who saved them, or marks them unknown.
extension LibraryService {
    /// Writes the catalogue's copy of a title over every saved row still waiting for it (or marked
    /// unknown), and over its diary's watches; each person whose lists changed sees it on their next page.
    func fillDetails(_ title: SavedTitle) async throws {
        let profiles = try await database.writeSQL { sql in
            let rows = try await sql.raw(
                """
                UPDATE library_entries SET title = \(bind: title.title), genre = \(bind: title.genre), \
                release_date = \(bind: title.releaseDate), artwork_url = \(bind: title.artworkURL), snapshot = \(bind: title.snapshot), \
                title_state = NULL \
                WHERE media_kind = \(bind: title.kind.rawValue) AND item_id = \(bind: title.itemID) AND title_state IS NOT NULL \
                RETURNING profile_id
                """
            ).all()
            try await sql.raw(
                """
                UPDATE watches SET title = \(bind: title.title), artwork_url = \(bind: title.artworkURL), genre = \(bind: title.genre), \
                runtime_minutes = \(bind: title.runtimeMinutes.map(Int32.init)) \
                WHERE media_kind = \(bind: title.kind.rawValue) AND item_id = \(bind: title.itemID) AND title <> \(bind: title.title)
                """
            ).run()
            return try rows.map { try $0.decode(column: "profile_id", as: UUID.self) }
        }
    }

    /// The catalogue answered that it has no such title: every row still waiting for it says so.
    func markUnknown(_ kind: MediaKind, _ itemID: String) async throws {
        let profiles = try await database.writeSQL { sql in
            try await sql.raw(
                """
                UPDATE library_entries SET title_state = \(bind: TitleState.unknown.rawValue) \
                WHERE media_kind = \(bind: kind.rawValue) AND item_id = \(bind: itemID) AND title_state = \(bind: TitleState.pending.rawValue) \
                RETURNING profile_id
                """
            ).all().map { try $0.decode(column: "profile_id", as: UUID.self) }
        }
    }
}
