import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// Cross-site request forgery protection for the pages: the middleware of the pages' router group
/// (the JSON API's group has its own rule, see `APISessionMiddleware.crossSiteWriteRefusal`).
///
/// Every browser gets a random secret in the `ps_csrf` cookie (HttpOnly, so no script can read
/// it). A form's token is a hash of that secret and, for a signed-in account, of the session token,
/// so a token stops working when the account signs in, out or changes its password (the session is
/// rotated). A visitor's first save starts a visitor session without changing the token, so their
/// other open tabs keep working. Every state-changing request to a page must carry the token (form
/// field `csrf`, or header `X-CSRF-Token` from app.js); it is compared in constant time. A missing
/// or wrong token gets 403 and nothing changes.
struct CSRFMiddleware: RouterMiddleware {
    static let field = "csrf"
    static let header = HTTPField.Name("X-CSRF-Token")!
    let renderer: PageRenderer

    func handle(
        _ request: Request, context: AppRequestContext,
        next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        var request = request
        let cookieSecret = context.cookies.value(CookieJar.csrf, in: request).flatMap { RandomToken.isWellFormed($0) ? $0 : nil }
        let secret = cookieSecret ?? SessionService.newToken()
        let token = CSRFToken(secret: secret, accountSession: context.isAccount ? context.sessionToken : nil)
        context.pageVisitor.csrf = token
        if ![.get, .head, .options].contains(request.method) {
            // Without the cookie no token can fit: refused before a byte of the body is read.
            guard cookieSecret != nil else { return try refusal(request, context) }
            let submitted: String?
            (request, submitted) = try await Self.submittedToken(request, context)
            guard let submitted, ConstantTime.equal(submitted, token.value) else {
                // The refusal page's own forms (the layout's) carry this browser's token. An upload
                // refused unread is not waited for: the connection closes after the answer.
                var response = try refusal(request, context)
                if Route.startImport.matches(Substring(request.uri.path)) { response.headers[.connection] = "close" }
                return response
            }
        }
        var response = try await next(request, context)
        // Only pages carry forms: static files and JSON answers stay free of Set-Cookie.
        if cookieSecret == nil, !response.isPublic, response.headers.value(.contentType)?.hasPrefix("text/html") == true {
            response.setCookie(context.cookies.make(CookieJar.csrf, secret, maxAge: 400 * 24 * 3600))
        }
        return response
    }

    /// The token from the header, or else from the form body. The body, once read, is handed on
    /// to the handler unchanged. An import's upload (up to 32 MiB) carries it in its address
    /// (`?csrf=`, the form's action): its body is never read before the token is checked.
    static func submittedToken(_ request: Request, _ context: AppRequestContext) async throws -> (Request, String?) {
        if let header = request.headers[header] { return (request, header) }
        if Route.startImport.matches(Substring(request.uri.path)) {
            return (request, request.uri.queryParameters[Substring(field)].map(String.init))
        }
        // Only the media type is case-insensitive: a multipart boundary must stay as sent.
        let contentType = request.headers[.contentType] ?? ""
        let mediaType = contentType.lowercased()
        guard mediaType.hasPrefix("application/x-www-form-urlencoded") || mediaType.hasPrefix("multipart/form-data") else {
            return (request, nil)
        }
        let body = try await FormInput.body(request, context)
        let form = try? MultipartForm.parse(body, contentType: contentType)
        return (Request(head: request.head, body: RequestBody(buffer: body)), form?.fields[field]?.first)
    }

    func refusal(_ request: Request, _ context: AppRequestContext) throws -> Response {
        let message =
            "This page has expired: you signed in or out since it was opened, or your browser is not keeping "
            + "PopcornSwirl’s cookies. Nothing was changed. Reload the page and try again."
        if FormInput.wantsJSON(request) { return try JSONAnswer.error(.forbidden, message) }
        let referer = request.headers[.referer].flatMap { URLComponents(string: $0) }
        let back = referer.map { components in components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "") }
        let page = MessagePage(
            chrome: Chrome("Page expired", tab: nil), heading: "This page has expired", message: message,
            retryURL: nil, backURL: Route.safeReturnPath(back, fallback: Route.home.path)
        )
        return try renderer.for(context).response(page, status: .forbidden)
    }
}

/// Equal bytes, in a time that depends only on the length: comparing secrets must not leak how
/// many leading characters were right.
enum ConstantTime {
    static func equal(_ x: some StringProtocol, _ y: some StringProtocol) -> Bool {
        let a = Array(x.utf8)
        let b = Array(y.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
