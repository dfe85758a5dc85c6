import Foundation

/// The spec's error texts, used for pages and dialogs alike.
enum ErrorTexts {
    static let title = "Oops, something went wrong"
    static let fetchFailed = "An error occurred while fetching data. Do you want to try again?"
    static let saveFailed = "There was a problem saving/deleting this movie. Do you want to try again?"
    static let saveShowFailed = "There was a problem saving/deleting this TV Show. Do you want to try again?"
}
