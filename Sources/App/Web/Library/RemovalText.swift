import Foundation

/// What Remove takes away, said exactly: the lists the film leaves, its note and rating when it
/// has them, and that the diary keeps its watches (Remove never touches the diary). The remove
/// dialog, the no-JavaScript confirmation page and the cards all say it with these words.
enum RemovalText {
    /// `watches`: how many watches the diary holds of the film, when the page knows (a card and a
    /// JSON answer do not, and go by Watched).
    static func movie(title: String, item: LibraryItem, watches: Int? = nil) -> String {
        let lists =
            switch (item.favorite, item.watched) {
            case (true, true): "your Favorites and Watched lists"
            case (true, false): "your Favorites"
            case (false, true): "your Watched list"
            case (false, false): "All saved"
            }
        var kept: [String] = []
        if let note = item.note, !note.isEmpty { kept.append("your note") }
        if let rating = item.rating { kept.append("your rating (\(Rating.words(rating)))") }
        let with = kept.isEmpty ? "" : ", with " + kept.joined(separator: " and ")
        return "“\(title)” leaves \(lists)\(with)." + diary(watches: watches, watched: item.watched)
    }

    /// Un-marking Watched on a film that is not a favorite and has a note removes it.
    static func unwatching(title: String, item: LibraryItem) -> String {
        "“\(title)” isn’t a favorite, so un-marking Watched removes it from My Lists, with your note. "
            + "Keep it by marking it as a favorite instead." + diary(watches: nil, watched: true)
    }

    /// A show leaves the TV Favorites (the seeds' Delete), with its rating when it has one.
    static func show(title: String, rating: Int?) -> String {
        "“\(title)” will be removed from your TV Favorites" + (rating.map { ", with your rating (\(Rating.words($0)))" } ?? "") + "."
    }

    /// Remove never touches the diary: said whenever the film has watches there (or may have: Watched).
    private static func diary(watches: Int?, watched: Bool) -> String {
        (watches ?? 0) > 0 || watched ? " Your diary isn’t changed." : ""
    }
}
