import FluentKit
import Foundation
import SQLKit

/// Favorites, watched and notes for one profile. Business rules live here, not in controllers.
public final class LibraryService: Sendable {
    public static let noteLimit = 2000
    let database: AppDatabase
    let clock: any AppClock

    public init(database: AppDatabase, clock: any AppClock) {
        self.database = database
        self.clock = clock
    }

    /// Checks a note before anything is written; returns the normalised text (nil = no note).
    public static func validatedNote(_ raw: String?) throws(LibraryError) -> String? {
        guard let raw else { return nil }
        let text = raw.replacingOccurrences(of: "\r\n", with: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        let length = TextRules.length(text)
        guard length <= noteLimit else { throw .noteTooLong(limit: noteLimit, actual: length) }
        return text.isEmpty ? nil : text
    }

    /// Checks a rating before anything is written: nil (no rating) or 1–10.
    public static func validatedRating(_ value: Int?) throws(LibraryError) -> Int? {
        guard let value else { return nil }
        guard Rating.range.contains(value) else { throw .invalidRating(value) }
        return value
    }

    /// Flags for the given movies (for Favorite/Watched buttons on grids).
    public func states(profile: UUID?, movieIDs: [Int], kind: MediaKind = .movie) async throws -> [Int: LibraryItem] {
        guard let profile, !movieIDs.isEmpty else { return [:] }
        let rows = try await EntryRow.all(database.sql, profile: profile, kind: kind, itemIDs: movieIDs.map(String.init))
        return Dictionary(rows.compactMap { row in Int(row.item_id).map { ($0, row.item) } }, uniquingKeysWith: { a, _ in a })
    }

    public func item(profile: UUID?, movieID: Int, kind: MediaKind = .movie) async throws -> LibraryItem? {
        guard let profile else { return nil }
        return try await EntryRow.find(database.sql, profile: profile, kind: kind, itemID: String(movieID))?.item
    }

    /// The saved snapshot of a film, for when iTunes cannot be reached.
    public func snapshot(profile: UUID?, movieID: Int) async throws -> (movie: Movie, savedAt: Date)? {
        guard let profile, let (data, savedAt) = try await EntryRow.snapshot(database.sql, profile: profile, kind: .movie, itemID: String(movieID)),
            let movie = try? JSONDecoder().decode(Movie.self, from: data)
        else { return nil }
        return (movie, savedAt)
    }

    /// The saved snapshot of a show, for when TVMaze cannot be reached.
    public func showSnapshot(profile: UUID?, showID: Int) async throws -> (show: Show, savedAt: Date)? {
        guard let profile, let (data, savedAt) = try await EntryRow.snapshot(database.sql, profile: profile, kind: .show, itemID: String(showID)),
            let show = try? JSONDecoder().decode(Show.self, from: data)
        else { return nil }
        return (show, savedAt)
    }

    /// Applies a change and refreshes the snapshot. Returns nil when the title ends up in no list
    /// and unrated (both flags off, no rating), in which case its row is removed.
    @discardableResult
    public func update(profile: UUID, movie: Movie, state: TitleState? = nil, change: LibraryChange) async throws(LibraryError) -> LibraryItem? {
        var title: SavedTitle
        do { title = try movie.savedTitle() } catch { throw .storageFailed("\(error)") }
        title.state = state
        return try await save(profile: profile, title: title, change: change)
    }

    /// Saves or removes a TV show in the favorites, or rates it (shows have no watched list or notes).
    @discardableResult
    public func update(
        profile: UUID, show: Show, state: TitleState? = nil, favorite: Bool?, rating: Int?? = nil, madeAt: Date? = nil
    ) async throws(LibraryError) -> LibraryItem? {
        var title: SavedTitle
        do { title = try show.savedTitle() } catch { throw .storageFailed("\(error)") }
        title.state = state
        return try await save(profile: profile, title: title, change: LibraryChange(favorite: favorite, rating: rating, madeAt: madeAt))
    }

    /// `logsWatch`: false when the caller records the watches itself (an import knows their days,
    /// or that a title was watched on a day nobody knows).
    func save(profile: UUID, title: SavedTitle, change: LibraryChange, logsWatch: Bool = true) async throws(LibraryError) -> LibraryItem? {
        let note: String?? = if let requested = change.note { .some(try Self.validatedNote(requested)) } else { nil }
        let rating: Int?? = if let requested = change.rating { .some(try Self.validatedRating(requested)) } else { nil }
        let now = clock.now()
        let madeAt = min(change.madeAt ?? now, now)
        // The calendar shows saved shows and films (`Caches.calendarFeeds`).
        defer { database.changes.publish(.person(profile)) }
        // Only marking Watched can log a watch here.
        do {
            return try await database.write(serializedBy: "\(title.kind.rawValue)|\(title.itemID)", within: profile.uuidString) { db in
                let sql = db as! any SQLDatabase
                let existing = try await EntryRow.find(sql, profile: profile, kind: title.kind, itemID: title.itemID)
                // A change made now is the newest whatever its place in the queue (two made at once
                // raced: the one that took its time first was refused); a change made earlier (offline,
                // then synced) loses to a newer one.
                if change.madeAt != nil, let existing, existing.updated_at > madeAt { throw Superseded(kept: existing.updated_at) }
                let madeAt = change.madeAt == nil ? max(madeAt, existing?.updated_at ?? madeAt) : madeAt
                let wasWatched = existing?.watched == true
                let item = LibraryItem(
                    kind: title.kind, itemID: title.itemID, title: title.title, genre: title.genre, releaseDate: title.releaseDate,
                    artworkURL: title.artworkURL, favorite: change.favorite ?? existing?.favorite ?? false,
                    watched: change.watched ?? existing?.watched ?? false, note: note ?? existing?.note, rating: rating ?? existing?.rating,
                    updatedAt: madeAt, titleState: title.state)
                // A rated title stays saved (in All saved) even when it is in neither list.
                guard item.favorite || item.watched || item.rating != nil else {
                    if existing != nil { try await EntryRow.delete(sql, profile: profile, kind: title.kind, itemID: title.itemID) }
                    return nil
                }
                try await EntryRow.write(sql, profile: profile, title: title, item: item, exists: existing != nil, now: now)
                if logsWatch, item.watched, !wasWatched {
                    // Marking Watched logs a watch in the diary, today, with the title's note (`WatchNotes`).
                    let watch = Watch(
                        id: UUID(), kind: title.kind, itemID: title.itemID, title: title.title, artworkURL: title.artworkURL,
                        day: DiaryService.today(madeAt), rating: item.rating, note: item.note, isRewatch: false, genre: title.genre,
                        runtimeMinutes: title.runtimeMinutes)
                    try await DiaryService.insert(watch, profile: profile, at: now, on: sql)
                }
                try await WatchNotes.titleChanged(
                    sql, profile: profile, kind: title.kind, itemID: title.itemID,
                    note: note == nil ? nil : .init(old: existing?.note, new: item.note),
                    rating: rating == nil ? nil : .init(old: existing?.rating, new: item.rating))
                return item
            }
        } catch let error as LibraryError {
            throw error
        } catch let superseded as Superseded {
            throw .superseded(superseded.kept)
        } catch {
            throw .storageFailed("\(error)")
        }
    }

    /// A change made before the title's last one (a refusal, not a failure: not logged as one).
    private struct Superseded: DomainFailure {
        let kept: Date
    }

    /// Removes a title from every list. Returns false when it was not saved.
    @discardableResult
    public func remove(profile: UUID, movieID: Int, kind: MediaKind = .movie, madeAt: Date? = nil) async throws(LibraryError) -> Bool {
        let explicit = madeAt != nil
        let madeAt = min(madeAt ?? clock.now(), clock.now())
        defer { database.changes.publish(.person(profile)) }
        do {
            return try await database.write(serializedBy: "\(kind.rawValue)|\(movieID)", within: profile.uuidString) { db in
                let sql = db as! any SQLDatabase
                guard let row = try await EntryRow.find(sql, profile: profile, kind: kind, itemID: String(movieID)) else { return false }
                if explicit, row.updated_at > madeAt { throw Superseded(kept: row.updated_at) }
                try await EntryRow.delete(sql, profile: profile, kind: kind, itemID: String(movieID))
                return true
            }
        } catch let superseded as Superseded {
            throw .superseded(superseded.kept)
        } catch {
            throw .storageFailed("\(error)")
        }
    }

    /// The genres of a person's saved titles, A to Z (the genre filter's choices).
    public func genres(profile: UUID?) async throws -> [String] {
        guard let profile else { return [] }
        return try await database.sql.select().distinct().column("genre").from(LibraryEntryModel.schema)
            .where("profile_id", .equal, SQLBind(profile)).where(SQLIdentifier("genre"), .isNot, SQLLiteral.null)
            .orderBy("genre").limit(200)
            .all(decodingColumn: "genre", as: String.self)
    }
}

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
