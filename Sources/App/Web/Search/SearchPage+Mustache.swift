import Mustache

// The search page's sections (messages, the best match, recent searches) look names up in
// themselves and then up the stack to the page: every view answers by a switch, not reflection
// (`PageViewLookupTests` keeps the answers equal to reflection's).

extension SearchPage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": chrome
        case "query": query
        case "maxLength": maxLength
        case "messages": messages
        case "bestHeading": bestHeading
        case "best": best
        case "otherGroups": otherGroups
        case "hasOthers": hasOthers
        case "showGroups": showGroups
        case "hasShows": hasShows
        case "flash": flash
        case "history": history
        case "hasHistory": hasHistory
        default: nil
        }
    }
}

extension SearchMessage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "kind": kind
        case "heading": heading
        case "text": text
        case "isAlert": isAlert
        case "cssClass": cssClass
        case "retryURL": retryURL
        case "moment": moment
        default: nil
        }
    }
}

extension BestMatchView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "film": film
        case "year": year
        case "genre": genre
        case "director": director
        case "plot": plot
        case "releaseDate": releaseDate
        case "releaseDateISO": releaseDateISO
        case "runtime": runtime
        case "rated": rated
        case "actors": actors
        case "imdbRating": imdbRating
        case "imdbURL": imdbURL
        case "storeURL": storeURL
        case "collectionValue": collectionValue
        case "collectionLabel": collectionLabel
        case "watchedLabel": watchedLabel
        case "collectionReturnTo": collectionReturnTo
        case "returnTo": returnTo
        default: nil
        }
    }
}

extension RecentSearchView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "query": query
        case "url": url
        case "removeURL": removeURL
        case "when": when
        case "returnTo": returnTo
        default: nil
        }
    }
}
