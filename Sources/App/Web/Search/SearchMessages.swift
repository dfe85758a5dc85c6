/// What the search page tells a person about its answer: nothing found (and where it looked), and
/// OMDb's extra details missing.
extension SearchController {
    /// The heading of a missing extra-details lookup's message.
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

    /// OMDb's answer as the page says it (`SearchTexts.omdb`): a missing lookup is an error with its heading.
    static func omdbMessage(_ status: OMDbStatus?) -> SearchMessage? {
        guard let text = SearchTexts.omdb(status) else { return nil }
        return status == .limitReached ? SearchMessage(.info, text) : SearchMessage(.error, text, heading: detailsMissing)
    }
}
