import Foundation
import Mustache

/// A list as the index of lists shows it.
struct ListSummaryView {
    let name: String
    let url: String
    let countText: String
    let isShared: Bool
    let description: String?

    init(_ list: CustomList) {
        name = list.name
        url = Route.customListPage(list.id)
        countText = ListsText.count(list.itemCount)
        isShared = list.isShared
        description = list.description
    }
}

enum ListsText {
    static func count(_ n: Int) -> String {
        n == 1 ? "1 title" : "\(Formats.number(n)) titles"
    }
}

/// The list's name and description fields, as the new-list form and the edit form draw them.
struct ListFormFields {
    let name: String
    let description: String
    let nameError: String?
    let descriptionError: String?
    let errorSummary: ErrorSummary?
    let nameLimit = CustomListError.nameLimit
    let descriptionLimit = CustomListError.descriptionLimit

    init(name: String = "", description: String = "", error: CustomListError? = nil) {
        self.name = name
        self.description = description
        var errors: [String: String] = [:]
        switch error {
        case .nameMissing, .nameTooLong, .nameHasDirectionControl: errors["name"] = error?.message
        case .descriptionTooLong: errors["description"] = error?.message
        case .some(let other): errors["form"] = other.message
        case nil: break
        }
        nameError = errors["name"]
        descriptionError = errors["description"]
        errorSummary = ErrorSummary(errors, fields: [("name", "list-name"), ("description", "list-description")])
    }
}

struct ListsIndexPage: Page {
    static let template = "lists/index"

    let chrome = Chrome("Your lists", tab: .library)
    let lists: [ListSummaryView]
    let hasLists: Bool
    let countText: String
    let form: ListFormFields
    let createURL = Route.createList.path
    let libraryURL = Route.libraryList(.all)
    let diaryURL = Route.diary.path
    let exportLinks = ExportLinks()

    init(_ lists: [CustomList], form: ListFormFields = ListFormFields()) {
        self.lists = lists.map(ListSummaryView.init)
        hasLists = !lists.isEmpty
        countText = lists.count == 1 ? "1 list" : "\(lists.count) lists"
        self.form = form
    }
}

/// A title in a list, with its place and (on the owner's page) the forms that move or remove it.
struct ListItemView {
    let title: String
    let detailURL: String
    let posterURL: String
    let year: String?
    let note: String?
    let position: Int
    let kind: String
    let itemID: String
    let anchor: String
    let upTo: Int?
    let downTo: Int?

    init(_ item: CustomListItem, count: Int) {
        title = item.title
        detailURL = Route.titlePage(item.kind, item.itemID)
        posterURL = Route.posterImage(source: item.artworkURL, seed: Int(item.itemID) ?? 0, title: item.title)
        year = item.year.map(String.init)
        note = item.note
        position = item.position
        kind = item.kind.rawValue
        itemID = item.itemID
        anchor = "item-\(item.kind.rawValue)-\(item.itemID)"
        upTo = item.position > 1 ? item.position - 1 : nil
        downTo = item.position < count ? item.position + 1 : nil
    }
}

/// Newer/older page links of a paged list.
struct PagerView {
    let previousURL: String?
    let nextURL: String?
    let label: String

    init?(page: Int, pageCount: Int, link: (Int) -> String) {
        guard pageCount > 1 else { return nil }
        previousURL = page > 1 ? link(page - 1) : nil
        nextURL = page < pageCount ? link(page + 1) : nil
        label = "Page \(page) of \(pageCount)"
    }
}

/// What the owner's page and the shared page both show of a list: its name, description, count,
/// one page of titles and the pager.
struct ListContent {
    let name: String
    let description: String?
    let countText: String
    let items: [ListItemView]
    let hasItems: Bool
    let pager: PagerView?

    init(_ page: CustomListPage, link: (Int) -> String) {
        name = page.list.name
        description = page.list.description
        countText = ListsText.count(page.list.itemCount)
        items = page.items.map { ListItemView($0, count: page.list.itemCount) }
        hasItems = !items.isEmpty
        pager = PagerView(page: page.page, pageCount: page.pageCount, link: link)
    }
}

struct CustomListPageView: Page {
    static let template = "lists/list"

    let chrome: Chrome
    let listContent: ListContent
    /// The item forms (`lists/items`) are drawn for the owner only.
    let owner = true
    let returnTo: String
    let form: ListFormFields
    let editOpen: Bool
    let saveURL: String
    let deleteURL: String
    let shareURL: String
    let unshareURL: String
    let moveURL: String
    let removeURL: String
    let sharedPath: String?
    let listsURL = Route.lists.path
    let exportURL: String

    init(_ page: CustomListPage, form: ListFormFields? = nil) {
        let list = page.list
        chrome = Chrome(list.name, tab: .library)
        listContent = ListContent(page) { Route.customListPage(list.id, page: $0) }
        exportURL = Route.listLink(.exportList, list.id)
        returnTo = Route.customListPage(list.id, page: page.page)
        self.form = form ?? ListFormFields(name: list.name, description: list.description ?? "")
        editOpen = form != nil
        saveURL = Route.listLink(.saveList, list.id)
        deleteURL = Route.listLink(.confirmDeleteList, list.id)
        shareURL = Route.listLink(.shareList, list.id)
        unshareURL = Route.listLink(.unshareList, list.id)
        moveURL = Route.listLink(.moveInList, list.id)
        removeURL = Route.listLink(.removeFromList, list.id)
        sharedPath = list.shareToken.map { Route.sharedListPage($0) }
    }
}

struct ConfirmDeleteListPage: Page {
    static let template = "lists/delete"

    let chrome: Chrome
    let name: String
    let countText: String
    let actionURL: String
    let cancelURL: String

    init(_ list: CustomList) {
        chrome = Chrome("Delete \(list.name)?", tab: .library)
        name = list.name
        countText = ListsText.count(list.itemCount)
        actionURL = Route.listLink(.deleteList, list.id)
        cancelURL = Route.customListPage(list.id)
    }
}

/// A shared list as anyone with its link sees it: the list and its titles, nothing of its owner.
struct SharedListPageView: Page {
    static let template = "lists/shared"

    let chrome: Chrome
    let listContent: ListContent

    init(_ page: CustomListPage, token: String) {
        var chrome = Chrome(page.list.name, tab: nil)
        chrome.noindex = true
        self.chrome = chrome
        listContent = ListContent(page) { Route.sharedListPage(token, page: $0) }
    }
}

/// A title's page: the person's lists that hold it, and a form that adds it to another.
struct TitleListsView {
    struct Held {
        let name: String
        let url: String
        /// ", " between names, nothing after the last.
        let separator: String
    }

    let actionURL: String
    let returnTo: String
    let title: String
    let held: [Held]
    let hasHeld: Bool
    let options: [SelectOption]
    let hasOptions: Bool
    let listsURL = Route.lists.path

    init(kind: MediaKind, id: Int, title: String, lists: [ListName], holding: Set<UUID>) {
        actionURL = Route.addToList(kind, id)
        returnTo = Route.titlePage(kind, String(id))
        self.title = title
        let holders = lists.filter { holding.contains($0.id) }
        held = holders.enumerated().map { index, list in
            Held(name: list.name, url: Route.customListPage(list.id), separator: index < holders.count - 1 ? ", " : "")
        }
        hasHeld = !held.isEmpty
        options = lists.filter { !holding.contains($0.id) }
            .map { SelectOption(value: $0.id.uuidString.lowercased(), label: $0.name, selected: false) }
        hasOptions = !options.isEmpty
    }
}

// A list's items and a title page's lists section look names up in themselves and then up the
// stack to the page: every view answers by a switch, not reflection (`PageViewLookupTests` keeps
// the answers equal to reflection's).

extension TitleListsView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "actionURL": actionURL
        case "returnTo": returnTo
        case "title": title
        case "held": held
        case "hasHeld": hasHeld
        case "options": options
        case "hasOptions": hasOptions
        case "listsURL": listsURL
        default: nil
        }
    }
}

extension TitleListsView.Held: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "url": url
        case "separator": separator
        default: nil
        }
    }
}

extension ListsIndexPage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": chrome
        case "lists": lists
        case "hasLists": hasLists
        case "countText": countText
        case "form": form
        case "createURL": createURL
        case "libraryURL": libraryURL
        case "diaryURL": diaryURL
        case "exportLinks": exportLinks
        default: nil
        }
    }
}

extension ListSummaryView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "url": url
        case "countText": countText
        case "isShared": isShared
        case "description": description
        default: nil
        }
    }
}

extension ListFormFields: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "description": description
        case "nameError": nameError
        case "descriptionError": descriptionError
        case "errorSummary": errorSummary
        case "nameLimit": nameLimit
        case "descriptionLimit": descriptionLimit
        default: nil
        }
    }
}

extension CustomListPageView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": chrome
        case "listContent": listContent
        case "owner": owner
        case "returnTo": returnTo
        case "form": form
        case "editOpen": editOpen
        case "saveURL": saveURL
        case "deleteURL": deleteURL
        case "shareURL": shareURL
        case "unshareURL": unshareURL
        case "moveURL": moveURL
        case "removeURL": removeURL
        case "sharedPath": sharedPath
        case "listsURL": listsURL
        case "exportURL": exportURL
        default: nil
        }
    }
}

extension SharedListPageView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": chrome
        case "listContent": listContent
        default: nil
        }
    }
}

extension ListContent: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "description": description
        case "countText": countText
        case "items": items
        case "hasItems": hasItems
        case "pager": pager
        default: nil
        }
    }
}

extension ListItemView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "detailURL": detailURL
        case "posterURL": posterURL
        case "year": year
        case "note": note
        case "position": position
        case "kind": kind
        case "itemID": itemID
        case "anchor": anchor
        case "upTo": upTo
        case "downTo": downTo
        default: nil
        }
    }
}

extension PagerView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "previousURL": previousURL
        case "nextURL": nextURL
        case "label": label
        default: nil
        }
    }
}
