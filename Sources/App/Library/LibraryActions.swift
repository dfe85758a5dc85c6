import Foundation
import Logging

/// What a library action came to. The pages, `app.js`'s JSON answers and the JSON API each turn
/// it into their own answer with one switch.
enum LibraryOutcome: Sendable {
    /// The entry after the change (nil when no flag is left), and before it (a film's, when the
    /// change marks it Watched; nil otherwise).
    case saved(LibraryItem?, before: LibraryItem?)
    case removed
    /// The title is not in the caller's lists (a removal, or another person's entry).
    case notInLists
    /// The catalogue has no such title.
    case titleNotFound
    /// The note is too long; nothing was written. `title` names the film for the note form.
    case invalidNote(String, title: String)
    /// The rating is not 1–10; nothing was written.
    case invalidRating(String)
    /// Nothing was saved: the write would have started a visitor, and the client's address has
    /// started too many lately (`VisitorThrottle`).
    case tooManyNewVisitors(retryAfter: Int)
    /// Nothing was written: the title was changed again after this change was made (offline).
    case superseded(String)
    case storageFailed
}

/// The library's write rules, shared by the pages and the API: which title a write is for
/// (catalogue, else the saved snapshot), notes checked before anything is written, a caller's
/// profile made only for a write that can happen, only the caller's own entries removed, and a
/// saved show's posters fetched for offline use.
struct LibraryActions: Sendable {
    let titles: TitleLookup
    let library: LibraryService
    let diary: DiaryService
    let lists: CustomListService
    let statistics: StatisticsService
    let posters: PosterService
    let logger: Logger

    /// Sets a film's flags and note. `writer` gives the caller's profile, making a visitor if needed.
    func saveMovie(
        _ id: Int, change: LibraryChange, profile: UUID?, writer: () async throws -> UUID
    ) async -> LibraryOutcome {
        // Never waits on iTunes: a film known nowhere is saved with its details to come.
        let movie: Movie
        var state: TitleState?
        switch await titles.movieForSave(id, profile: profile) {
        case .found(let found): movie = found
        case .pending(let standIn): (movie, state) = (standIn, .pending)
        case .notFound: return .titleNotFound
        }
        if case .some(let note) = change.note {
            do { _ = try LibraryService.validatedNote(note) } catch { return .invalidNote(error.message, title: movie.title) }
        }
        if case .some(let rating) = change.rating {
            do { _ = try LibraryService.validatedRating(rating) } catch { return .invalidRating(error.message) }
        }
        // Read only for a change that marks Watched: the one question asked of it (was it watched
        // already?). Read for every change, it was a fifth of the API's rating change's statements.
        let before = change.watched == true ? ((try? await library.item(profile: profile, movieID: id)) ?? nil) : nil
        do {
            let owner = try await writer()
            return .saved(try await library.update(profile: owner, movie: movie, state: state, change: change), before: before)
        } catch let error as LibraryError {
            if case .noteTooLong = error { return .invalidNote(error.message, title: movie.title) }
            if case .superseded = error { return .superseded(error.message) }
            logger.error("library write failed", metadata: ["error": "\(error)"])
            return .storageFailed
        } catch let refused as VisitorThrottle.Refused {
            return .tooManyNewVisitors(retryAfter: refused.retryAfter)
        } catch {
            logger.error("visitor creation failed", metadata: ["error": "\(error)"])
            return .storageFailed
        }
    }

    /// Saves (or un-saves) a show, or rates it (nil leaves either as it is); a saved show's posters
    /// are fetched so TV Favorites works offline.
    func saveShow(
        _ id: Int, favorite: Bool?, rating: Int?? = nil, madeAt: Date? = nil, profile: UUID?, writer: () async throws -> UUID
    ) async -> LibraryOutcome {
        if case .some(let rating) = rating {
            do { _ = try LibraryService.validatedRating(rating) } catch { return .invalidRating(error.message) }
        }
        // Never waits on TVMaze: a show known nowhere is saved with its details to come.
        let show: Show
        var state: TitleState?
        switch await titles.showForSave(id, profile: profile) {
        case .found(let found): show = found
        case .pending(let standIn): (show, state) = (standIn, .pending)
        case .notFound: return .titleNotFound
        }
        let item: LibraryItem?
        do {
            item = try await library.update(
                profile: try await writer(), show: show, state: state, favorite: favorite, rating: rating, madeAt: madeAt)
        } catch LibraryError.superseded(let kept) {
            return .superseded(LibraryError.superseded(kept).message)
        } catch let refused as VisitorThrottle.Refused {
            return .tooManyNewVisitors(retryAfter: refused.retryAfter)
        } catch {
            logger.error("show save failed", metadata: ["error": "\(error)"])
            return .storageFailed
        }
        if favorite == true {
            guard item != nil else { return .storageFailed }
            guard state == nil else { return .saved(item, before: nil) }
            await posters.prefetch([show.imageMedium, show.imageOriginal].compactMap { $0 })
        }
        return .saved(item, before: nil)
    }

    /// Removes the caller's own entry; another person's, or none, is `.notInLists`.
    func remove(_ id: Int, kind: MediaKind, profile: UUID?, madeAt: Date? = nil) async -> LibraryOutcome {
        guard let profile else { return .notInLists }
        do {
            return try await library.remove(profile: profile, movieID: id, kind: kind, madeAt: madeAt) ? .removed : .notInLists
        } catch .superseded(let kept) {
            return .superseded(LibraryError.superseded(kept).message)
        } catch {
            logger.error("library remove failed", metadata: ["kind": "\(kind.rawValue)", "error": "\(error)"])
            return .storageFailed
        }
    }
}

/// The words a failed library action is reported with, on pages and in the API alike.
extension LibraryOutcome {
    static func titleNotFoundText(_ kind: MediaKind, _ id: Int) -> String {
        kind == .movie
            ? "This film is no longer in the film catalogue, so it can’t be saved. Search for it by name instead."
            : "This show is no longer in the TV catalogue, so it can’t be saved. Search TV Shows by name instead."
    }

    static func notInListsText(_ kind: MediaKind) -> String {
        kind == .movie
            ? "This film isn’t in your lists (it may have been removed on another device). Reload the page to see your lists as they are."
            : "This show isn’t in your TV Favorites (it may have been removed on another device). Reload the page to see them as they are."
    }

    static func saveFailedText(_ kind: MediaKind) -> String {
        kind == .movie ? ErrorTexts.saveFailed : ErrorTexts.saveShowFailed
    }
}

/// What adding a title to a custom list (or moving it) came to; pages and API answer it with one switch.
enum ListItemOutcome: Sendable {
    case done(CustomListService.ItemResult)
    /// The note or the list's size refuses it: what to change. Nothing was written.
    case invalid(String)
    case titleNotFound
    case storageFailed
}

extension LibraryActions {
    /// Puts a film or show in one of the caller's lists (at `position`, else the end; moved there
    /// when already in). The list is checked to be the caller's before the catalogue is asked.
    func addToList(
        _ listID: UUID, kind: MediaKind, id: Int, position: Int? = nil, note: String?? = nil, profile: UUID?
    ) async -> ListItemOutcome {
        do {
            if case .some(let note) = note { _ = try CustomListService.validatedNote(note) }
            guard let profile, try await lists.list(profile: profile, id: listID) != nil else { return .done(.noList) }
            let title: SavedTitle
            switch await savedTitle(kind, id, profile: profile) {
            case .found(let found): title = found
            case .notFound: return .titleNotFound
            case .failed: return .storageFailed
            }
            return .done(try await lists.add(profile: profile, id: listID, title: title, position: position, note: note))
        } catch let error as CustomListError {
            if case .storageFailed = error {
                logger.error("list write failed", metadata: ["error": "\(error)"])
                return .storageFailed
            }
            return .invalid(error.message)
        } catch {
            logger.error("list read failed", metadata: ["error": "\(error)"])
            return .storageFailed
        }
    }
}

/// What a title's page shows of the person beyond its flags: their watches of it, and their
/// lists with the ones that hold it.
struct PersonalTitleState: Sendable {
    var watches: [Watch] = []
    var lists: [ListName] = []
    var holding: Set<UUID> = []
}

extension LibraryActions {
    func personalState(_ kind: MediaKind, _ id: Int, profile: UUID?) async throws -> PersonalTitleState {
        guard let profile else { return PersonalTitleState() }
        async let watches = diary.watches(profile: profile, kind: kind, itemID: String(id))
        async let mine = lists.titleLists(profile: profile, kind: kind, itemID: String(id))
        let (names, holding) = try await mine
        return PersonalTitleState(watches: try await watches, lists: names, holding: holding)
    }
}

/// What logging a watch came to; the pages and the API each answer it with one switch.
enum DiaryOutcome: Sendable {
    case logged(Watch)
    /// The day, rating or note is not acceptable: what to change. Nothing was written.
    case invalid(String)
    case titleNotFound
    case tooManyNewVisitors(retryAfter: Int)
    case storageFailed
}

/// A film or show as it is kept with a watch or a list item: what PopcornSwirl holds of it, else a
/// stand-in whose details the catalogue worker brings (never waiting on an upstream).
enum TitleResolution: Sendable {
    case found(SavedTitle)
    case notFound
    case failed
}

extension LibraryActions {
    func savedTitle(_ kind: MediaKind, _ id: Int, profile: UUID?) async -> TitleResolution {
        func saved(_ title: MatchedTitle, _ state: TitleState?) -> TitleResolution {
            guard var saved = try? title.savedTitle() else { return .failed }
            saved.state = state
            return .found(saved)
        }
        switch kind {
        case .movie:
            switch await titles.movieForSave(id, profile: profile) {
            case .found(let movie): return saved(.movie(movie), nil)
            case .pending(let movie): return saved(.movie(movie), .pending)
            case .notFound: return .notFound
            }
        case .show:
            switch await titles.showForSave(id, profile: profile) {
            case .found(let show): return saved(.show(show), nil)
            case .pending(let show): return saved(.show(show), .pending)
            case .notFound: return .notFound
            }
        }
    }

    /// Logs a watch of a film or show on `day` (today when nil): the title from the catalogue (or
    /// its saved snapshot), the day, rating and note checked before a profile is made or anything
    /// written.
    func logWatch(
        kind: MediaKind, id: Int, day: String?, rating: Int?, note: String?, profile: UUID?, writer: () async throws -> UUID
    ) async -> DiaryOutcome {
        let now = diary.clock.now()
        do {
            _ = try DiaryService.validatedDay(day ?? DiaryService.today(now), now: now)
            _ = try LibraryService.validatedRating(rating)
            _ = try LibraryService.validatedNote(note)
        } catch {
            return .invalid(error.message)
        }
        let title: SavedTitle
        switch await savedTitle(kind, id, profile: profile) {
        case .found(let found): title = found
        case .notFound: return .titleNotFound
        case .failed: return .storageFailed
        }
        do {
            let owner = try await writer()
            return .logged(try await diary.log(profile: owner, title: title, day: day ?? DiaryService.today(now), rating: rating, note: note))
        } catch let refused as VisitorThrottle.Refused {
            return .tooManyNewVisitors(retryAfter: refused.retryAfter)
        } catch let error as LibraryError {
            if case .storageFailed = error {
                logger.error("diary write failed", metadata: ["error": "\(error)"])
                return .storageFailed
            }
            return .invalid(error.message)
        } catch {
            logger.error("visitor creation failed", metadata: ["error": "\(error)"])
            return .storageFailed
        }
    }
}
