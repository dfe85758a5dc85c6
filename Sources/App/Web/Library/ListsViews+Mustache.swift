import Mustache

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
