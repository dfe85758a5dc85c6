import Foundation
import Hummingbird

/// Who may use the console: checks the admin cookie (and, on forms, the CSRF token) and serves the
/// login form. A refused request gets a page with no console data on it.
struct AdminGate {
    let auth: AdminAuth
    let renderer: PageRenderer

    /// A signed-in console request: the cookie's CSRF token goes into every form.
    struct Session {
        let csrf: String
    }

    enum Outcome {
        case allowed(Session)
        case refused(Response)
    }

    func check(_ request: Request) throws -> Outcome {
        guard auth.isEnabled else { return .refused(try disabled()) }
        let cookie = request.cookies[AdminAuth.cookieName]?.value
        guard let cookie, auth.isValid(cookie: cookie) else {
            let next = Paths.safeReturnPath(request.uri.path.hasPrefix("/admin") ? request.uri.description : nil, fallback: Paths.adminOffers)
            return .refused(try renderer.response("admin_login", AdminLoginPage(next: request.method == .get ? next : Paths.adminOffers, error: nil), status: .unauthorized))
        }
        return .allowed(Session(csrf: auth.csrfToken(cookie: cookie)))
    }

    /// For forms of a signed-in session: nil when the form's CSRF token matches the cookie, else the refusal page.
    func csrfRefusal(_ request: Request, _ form: MultipartForm) throws -> Response? {
        guard !auth.isValid(csrf: form.value("csrf"), cookie: request.cookies[AdminAuth.cookieName]?.value ?? "") else { return nil }
        let page = MessagePage(
            chrome: Chrome("Form expired", tab: nil), heading: "This form has expired",
            message: "Open the page again and resubmit. (The form did not carry this console session’s security token.)",
            retryURL: nil, backURL: Paths.adminOffers
        )
        return try renderer.response("message", page, status: .forbidden)
    }

    func disabled() throws -> Response {
        let page = MessagePage(
            chrome: Chrome("Advertiser console", tab: nil), heading: "The advertiser console is switched off",
            message: "Start the server with ADMIN_TOKEN set (at least \(AppConfig.adminTokenMinimum) characters) to manage partner offers.",
            retryURL: nil, backURL: Paths.home
        )
        return try renderer.response("message", page, status: .forbidden)
    }

    func register(on router: Router<AppRequestContext>) {
        router.get("/admin") { _, _ in Response.redirect(to: Paths.adminOffers, type: .normal) }
        router.get("/admin/login") { request, _ in
            guard auth.isEnabled else { return try disabled() }
            let next = Paths.safeReturnPath(request.uri.queryParameters["next"].map(String.init), fallback: Paths.adminOffers)
            return try renderer.response("admin_login", AdminLoginPage(next: next, error: nil))
        }
        router.post("/admin/login") { request, context in try await login(request, context) }
        router.post("/admin/logout") { _, _ in
            var response = Response.redirect(to: Paths.adminLogin, type: .normal)
            response.setCookie(Cookie(name: AdminAuth.cookieName, value: "", maxAge: 0, path: "/admin", httpOnly: true, sameSite: .strict))
            return response
        }
    }

    private func login(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard auth.isEnabled else { return try disabled() }
        let form = try await MultipartForm.read(request, context)
        let next = Paths.safeReturnPath(form.value("next"), fallback: Paths.adminOffers)
        guard next.hasPrefix("/admin"), auth.accepts(token: form.value("token")) else {
            let page = AdminLoginPage(next: next.hasPrefix("/admin") ? next : Paths.adminOffers, error: "That token is not the console’s ADMIN_TOKEN.")
            return try renderer.response("admin_login", page, status: .unauthorized)
        }
        var response = Response.redirect(to: next, type: .normal)
        // Strict: the console's cookie is never sent with a request started on another site.
        response.setCookie(Cookie(
            name: AdminAuth.cookieName, value: auth.newCookieValue(), maxAge: Int(AdminAuth.lifetime), path: "/admin", httpOnly: true, sameSite: .strict
        ))
        return response
    }
}

struct AdminLoginPage {
    let chrome = Chrome("Advertiser console sign-in", tab: nil)
    let next: String
    let error: String?
}
