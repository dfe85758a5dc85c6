import HTTPTypes

/// A library action's outcome as HTTP, shared by the pages and the API.
extension LibraryOutcome {
    /// A failed action's status and words (nil for success): the one mapping behind the pages'
    /// JSON answers, their pages, and the API's problems.
    func problem(_ kind: MediaKind, _ id: Int) -> (status: HTTPResponse.Status, detail: String)? {
        switch self {
        case .saved, .removed: nil
        case .notInLists: (.notFound, Self.notInListsText(kind))
        case .titleNotFound: (.notFound, Self.titleNotFoundText(kind, id))
        case .invalidNote(let message, _), .invalidRating(let message): (.unprocessableContent, message)
        case .storageFailed: (.serviceUnavailable, Self.saveFailedText(kind))
        case .tooManyNewVisitors(let wait): (.tooManyRequests, VisitorThrottle.Refused(retryAfter: wait).message)
        case .superseded(let message): (.conflict, message)
        }
    }

    /// Seconds the client should wait before trying again (`Retry-After`), when that is the problem.
    var retryAfter: Int? {
        if case .tooManyNewVisitors(let wait) = self { wait } else { nil }
    }
}
