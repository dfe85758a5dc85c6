/// What a search's answer means for the person, in the words the search page and the API both give.
/// Never the services' names: a person does not know or need them.
enum SearchTexts {
    /// A search that failed: why, and that the last search is kept.
    static func failure(_ error: UpstreamError) -> String {
        let reason =
            switch error {
            case .rateLimited, .throttled: "The film catalogue is busy right now (too many searches in a minute)."
            case .badStatus: "The film catalogue answered with an error."
            case .refused(let text): "The film catalogue refused the search (“\(text.prefix(120))”)."
            default: "The film catalogue sent an answer we couldn’t read."
            }
        return "\(reason) \(ErrorTexts.fetchFailed) Your last search is kept as it was."
    }

    /// What a missing extra-details lookup means for the person: less to see (the search is still
    /// their last one). Nil when there is nothing to say.
    static func omdb(_ status: OMDbStatus?) -> String? {
        switch status {
        case .failed:
            "The film’s extra details (such as the cast and the IMDb rating) can’t be loaded right now, so some are missing below. Search again later to see them."
        case .limitReached:
            "Extra details such as the cast and the IMDb rating are unavailable until tomorrow. Everything else works."
        case .notFound:
            "There are no extra details (such as the cast and the IMDb rating) for this film, so some are missing below."
        case .disabled, .found, nil:
            nil
        }
    }
}
