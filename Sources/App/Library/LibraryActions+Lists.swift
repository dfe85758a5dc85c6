import Foundation

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
