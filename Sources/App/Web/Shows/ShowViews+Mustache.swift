import Mustache

// A card's or a section's missing name is looked up again in every view around it, up to the page:
// the show pages answer by a switch, not reflection (`PageViewLookupTests` keeps them equal).

extension ShowsPage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": chrome
        case "groups": groups
        case "hasCards": hasCards
        case "query": query
        case "heading": heading
        case "emptyMessage": emptyMessage
        case "previousURL": previousURL
        case "nextURL": nextURL
        case "pageText": pageText
        case "browseURL": browseURL
        case "favoritesURL": favoritesURL
        case "onFavorites": onFavorites
        case "formURL": formURL
        default: nil
        }
    }
}

extension ShowFavoritesPage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": chrome
        case "browseURL": browseURL
        case "favoritesURL": favoritesURL
        case "onFavorites": onFavorites
        case "groups": groups
        case "hasCards": hasCards
        case "countText": countText
        case "total": total
        case "previousURL": previousURL
        case "nextURL": nextURL
        default: nil
        }
    }
}

extension ShowDetailPage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": chrome
        case "id": id
        case "name": self.name
        case "posterURL": posterURL
        case "summaryHTML": summaryHTML
        case "imdbURL": imdbURL
        case "officialSite": officialSite
        case "tvmazeURL": tvmazeURL
        case "facts": facts
        case "saved": saved
        case "actionURL": actionURL
        case "removeActionURL": removeActionURL
        case "removeURL": removeURL
        case "returnTo": returnTo
        case "ratingPicker": ratingPicker
        case "titleDiary": titleDiary
        case "titleLists": titleLists
        default: nil
        }
    }
}

extension ShowDetailPage.Fact: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "label": label
        case "value": value
        default: nil
        }
    }
}
