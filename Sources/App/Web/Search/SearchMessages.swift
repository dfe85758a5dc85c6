/// What the search page tells a person about its answer: nothing found (and where it looked), and
/// OMDb's extra details missing.
extension SearchController {
    /// What a missing extra-details lookup means for the person: less on the page (the search is
    /// still their last one). Never the services' names: a person does not know or need them.
    static let detailsMissing = "Some film details are missing"

    /// Why no film is listed: offline, PopcornSwirl's own catalogue while iTunes is asked later, or iTunes' answer.
    static func noFilmsMessage(_ result: SearchResult) -> SearchMessage {
        switch result.source {
        case .offlineCatalogue:
            SearchMessage(
                .error,
                "You’re offline and no film in PopcornSwirl’s built-in catalogue matches “\(result.query)”. Searching iTunes needs a connection.")
        case .local:
            SearchMessage(
                .info, "No film in PopcornSwirl’s own catalogue matches “\(result.query)” yet. iTunes will be asked in a moment: try again shortly.")
        default:
            SearchMessage(
                .info, "No films match “\(result.query)” on iTunes." + (result.shows.isEmpty ? " Check the spelling, or try fewer words." : ""))
        }
    }

    static func omdbMessage(_ status: OMDbStatus?) -> SearchMessage? {
        switch status {
        case .failed:
            return SearchMessage(
                .error,
                "The film’s extra details (such as the cast and the IMDb rating) can’t be loaded right now, so some are missing below. Search again later to see them.",
                heading: detailsMissing)
        case .limitReached:
            return SearchMessage(
                .info, "Extra details such as the cast and the IMDb rating are unavailable until tomorrow. Everything else works.")
        case .notFound:
            return SearchMessage(
                .error,
                "There are no extra details (such as the cast and the IMDb rating) for this film, so some are missing below.",
                heading: detailsMissing)
        case .disabled, .found, nil:
            return nil
        }
    }
}
