import Foundation

/// One of a person's own lists: a name, an optional description, and a read-only share link
/// while it is shared (`shareToken`, the link's unguessable part; nil when private).
public struct CustomList: Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var description: String?
    public var shareToken: String?
    public var itemCount: Int
    public var createdAt: Date
    public var updatedAt: Date

    public var isShared: Bool { shareToken != nil }
}

/// A list as a title's page names it (no count of its titles).
public struct ListName: Sendable, Equatable {
    public var id: UUID
    public var name: String
}

/// A title in a custom list, at its place in the person's order (1 is first).
public struct CustomListItem: Sendable, Equatable {
    public var kind: MediaKind
    public var itemID: String
    public var title: String
    public var year: Int?
    public var artworkURL: String?
    public var position: Int
    public var note: String?
    public var addedAt: Date
}

/// One page of a list's titles, in the person's order.
public struct CustomListPage: Sendable {
    public static let pageSize = 60
    public var list: CustomList
    public var items: [CustomListItem]
    public var page: Int
    public var pageCount: Int { LibraryPage.pageCount(total: list.itemCount, pageSize: Self.pageSize) }
}

/// Why a list change was refused; nothing was written.
public enum CustomListError: Error, Sendable, Equatable, DomainFailure {
    case nameMissing
    case nameTooLong(Int)
    /// Text-direction controls (U+202A–U+202E, U+2066–U+2069) make a name read as something else.
    case nameHasDirectionControl
    case descriptionTooLong(Int)
    case tooManyLists
    case listFull
    case noteTooLong(Int)
    case storageFailed(String)

    public static let nameLimit = 100
    public static let descriptionLimit = 2000
    /// Per person and per list: far past any real library (Letterboxd's largest lists have a few
    /// thousand films), and a bound on what one account can make the database hold.
    public static let listLimit = 1000
    public static let itemLimit = 10000

    public var message: String {
        switch self {
        case .nameMissing: "Give the list a name."
        case .nameTooLong(let count):
            "The name is \(count) characters long; a list’s name can be at most \(Self.nameLimit) characters."
        case .nameHasDirectionControl:
            "A list’s name can’t hold text-direction control characters (U+202A–U+202E, U+2066–U+2069): type the name again without them."
        case .descriptionTooLong(let count):
            "The description is \(count) characters long; it can be at most \(Self.descriptionLimit) characters."
        case .tooManyLists: "You have \(Self.listLimit) lists, the most there can be. Delete one you no longer need first."
        case .listFull: "This list has \(Self.itemLimit) titles, the most a list can hold. Start another list for more."
        case .noteTooLong(let count):
            "The note is \(count) characters long; notes can be at most \(LibraryService.noteLimit) characters."
        case .storageFailed: "There was a problem saving your change. Please try again."
        }
    }

    /// The database failed, rather than the change being refused.
    var isStorage: Bool {
        if case .storageFailed = self { return true }
        return false
    }

    /// The words for a list that is not there (its reads answer nil rather than throw): one of the
    /// person's own, and one followed by its shared link.
    public static let notFoundMessage = "That list is not one of yours (it may have been deleted on another device)."
    public static let sharedNotFoundMessage = "This link does not lead to a list any more: its owner stopped sharing it, or deleted it."

    /// A list's name, trimmed and checked.
    public static func validatedName(_ raw: String?) throws(CustomListError) -> String {
        let name = (raw ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw .nameMissing }
        guard TextRules.length(name) <= nameLimit else { throw .nameTooLong(TextRules.length(name)) }
        guard !TextRules.hasBidiControl(name) else { throw .nameHasDirectionControl }
        return name
    }

    /// A list's description, trimmed and checked (nil: none).
    public static func validatedDescription(_ raw: String?) throws(CustomListError) -> String? {
        guard let raw else { return nil }
        let text = raw.replacingOccurrences(of: "\r\n", with: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        guard TextRules.length(text) <= descriptionLimit else { throw .descriptionTooLong(TextRules.length(text)) }
        return text.isEmpty ? nil : text
    }
}
