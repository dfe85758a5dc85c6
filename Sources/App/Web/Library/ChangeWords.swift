import Foundation

/// What a change to a film's flags, note or rating did, in the words every page confirms it with
/// (the toast after a button, the page a form leads to without JavaScript).
enum ChangeWords {
    static func movie(title: String, change: LibraryChange, item: LibraryItem?) -> String {
        guard let item else { return "“\(title)”: removed from My Lists." }
        if change.favorite != nil, change.watched != nil {
            return "“\(title)”: " + (item.watched ? "moved to Watched." : "moved to Favorites.")
        }
        if change.favorite != nil { return "“\(title)”: " + (item.favorite ? "added to Favorites." : "removed from Favorites.") }
        if change.watched != nil {
            return "“\(title)”: " + (item.watched ? "marked as watched, and logged in your diary today." : "no longer marked as watched.")
        }
        if change.note != nil { return "“\(title)”: " + (item.note == nil ? "note removed." : "note saved.") }
        if change.rating != nil { return "“\(title)”: " + (item.rating.map { "rated \(Rating.words($0))." } ?? "rating cleared.") }
        return "“\(title)”: saved."
    }
}
