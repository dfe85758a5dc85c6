import Foundation
import Hummingbird
import Mustache

struct MessagePage: Page {
    static let template = "shared/message"

    let chrome: Chrome
    let heading: String
    let message: String
    let retryURL: String?
    let backURL: String
    let backLabel: String
    let retryForm: RetryForm?

    init(chrome: Chrome, heading: String, message: String, retryURL: String?, backURL: String, retryForm: RetryForm? = nil) {
        self.chrome = chrome
        self.heading = heading
        self.message = message
        self.retryURL = retryURL
        self.backURL = backURL
        self.retryForm = retryForm
        backLabel =
            switch Route.tab(of: backURL) {
            case .shows: "Back to TV Shows"
            case .library: "Back to My Lists"
            case .movies: "Back to Movies"
            case .search, .account, nil: "Go back"
            }
    }
}

enum ErrorPages {
    static func notFound(_ renderer: PageResponder, _ message: String) throws -> Response {
        let page = MessagePage(chrome: Chrome("Not found", tab: nil), heading: "Not found", message: message, retryURL: nil, backURL: Route.home.path)
        return try renderer.response(page, status: .notFound)
    }

    static func badRequest(
        _ renderer: PageResponder, _ message: String, backURL: String = Route.home.path, status: HTTPResponse.Status = .badRequest
    ) throws -> Response {
        let page = MessagePage(
            chrome: Chrome("Check your request", tab: nil), heading: "Check your request", message: message, retryURL: nil, backURL: backURL)
        return try renderer.response(page, status: status)
    }

    /// An action failed: the retry dialog as a page, whose Retry posts the same action again.
    static func retry(_ renderer: PageResponder, message: String, form: RetryForm) throws -> Response {
        let page = MessagePage(
            chrome: Chrome(ErrorTexts.title, tab: nil), heading: ErrorTexts.title, message: message, retryURL: nil,
            backURL: Route.safeReturnPath(form.fields.first { $0.name == "return_to" }?.value, fallback: Route.home.path), retryForm: form
        )
        return try renderer.response(page, status: .serviceUnavailable)
    }

    /// Upstream failed and nothing is known: the retry page (503, so nobody caches it).
    static func fetchFailed(_ renderer: PageResponder, retryURL: String) throws -> Response {
        let page = MessagePage(
            chrome: Chrome(ErrorTexts.title, tab: nil), heading: ErrorTexts.title, message: ErrorTexts.fetchFailed, retryURL: retryURL,
            backURL: Route.home.path)
        return try renderer.response(page, status: .serviceUnavailable)
    }
}

/// Error pages of every section: answered by a switch, as the pages they stand in for are.
extension MessagePage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": chrome
        case "heading": heading
        case "message": message
        case "retryURL": retryURL
        case "backURL": backURL
        case "backLabel": backLabel
        case "retryForm": retryForm
        default: nil
        }
    }
}
