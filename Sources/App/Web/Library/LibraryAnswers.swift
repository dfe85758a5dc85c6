import Foundation
import HTTPTypes
import Hummingbird

extension VisitorThrottle.Refused {
    /// The 429 page (or problem+json) of `ErrorPageMiddleware`, with Retry-After.
    var httpError: HTTPError {
        var headers = HTTPFields()
        headers[.retryAfter] = String(retryAfter)
        return HTTPError(.tooManyRequests, headers: headers, message: message)
    }
}

extension PageResponder {
    /// A failed library form as problem+json for `app.js` (which shows the dialog), or as a page:
    /// not found, the note form again, or the retry page (re-posting `retry` when given).
    func libraryFailure(
        _ outcome: LibraryOutcome, kind: MediaKind, id: Int, wantsJSON: Bool, retry: RetryForm?, returnTo: String, note: String?
    ) throws -> Response? {
        guard let (status, detail) = outcome.problem(kind, id) else { return nil }
        if let wait = outcome.retryAfter { throw VisitorThrottle.Refused(retryAfter: wait).httpError }
        if wantsJSON { return try JSONAnswer.error(status, detail) }
        switch outcome {
        case .invalidNote(_, let title):
            let page = NotePage(id: id, title: title, note: note ?? "", returnTo: returnTo, error: detail)
            return try response(page, status: status)
        case .notInLists, .titleNotFound:
            return try ErrorPages.notFound(self, detail)
        case .invalidRating:
            return try ErrorPages.badRequest(self, detail, backURL: returnTo)
        default:
            if let retry { return try ErrorPages.retry(self, message: detail, form: retry) }
            let page = MessagePage(
                chrome: Chrome(ErrorTexts.title, tab: nil), heading: ErrorTexts.title, message: detail,
                retryURL: Route.movie.link(id), backURL: Route.libraryList(.all)
            )
            return try response(page, status: status)
        }
    }
}

extension PageResponder {
    /// A form whose values make no sense (a flag that is not 1 or 0): 400 as problem+json for
    /// `app.js`, or a page leading back to where the form was.
    func unreadableForm(_ message: String, wantsJSON: Bool, backURL: String) throws -> Response {
        if wantsJSON { return try JSONAnswer.error(.badRequest, message) }
        return try ErrorPages.badRequest(self, message, backURL: backURL)
    }
}
