import Foundation
import Hummingbird

/// Sign-up, sign-in, sign-out and the account page (sessions, password change, API tokens, account
/// deletion: AccountController+Settings).
struct AccountController {
    let accounts: AccountService
    let tokens: APITokenService
    let renderer: PageRenderer

    func register(on router: RouterGroup<AppRequestContext>) {
        router.on(Route.signUpForm) { request, _ in try credentialsPage(.signUp, next: nextPath(request)) }
        router.on(Route.signInForm) { request, _ in
            try credentialsPage(.signIn, next: nextPath(request), notice: CredentialsPage.notice(request.uri.queryParameters["done"]))
        }
        router.on(Route.signUp) { request, context in try await submit(.signUp, request, context) }
        router.on(Route.signIn) { request, context in try await submit(.signIn, request, context) }
        router.on(Route.signOut) { _, context in try await signOut(context) }
        router.on(Route.account) { request, context in
            let notice: String? =
                switch request.uri.queryParameters["done"] {
                case "password": "Password changed. You were signed out everywhere else."
                case "password-tokens": "Password changed. You were signed out everywhere else, and your API tokens were revoked."
                case "revoked": "Token revoked: calls made with it are refused from now on."
                case "session": "That device was signed out."
                case "others": "Every other device was signed out."
                default: nil
                }
            return try await accountPage(context, notice: notice, failure: nil)
        }
        router.on(Route.changePassword) { request, context in try await changePassword(request, context) }
        router.on(Route.createToken) { request, context in try await createToken(request, context) }
        router.on(Route.revokeToken) { request, context in try await revokeToken(request, context) }
        router.on(Route.endSession) { _, context in try await endSession(context) }
        router.on(Route.endOtherSessions) { _, context in try await endOtherSessions(context) }
        router.on(Route.deleteAccountForm) { _, context in try await deletePage(context, error: nil) }
        router.on(Route.deleteAccount) { request, context in try await deleteAccount(request, context) }
    }

    struct Form: Decodable {
        var username: String?
        var password: String?
        var current: String?
        var next: String?
        var name: String?
        /// The "remember me" checkbox: present when ticked.
        var remember: String?
        /// The "keep my API tokens" checkbox of the password form.
        var keepTokens: String?

        enum CodingKeys: String, CodingKey {
            case username, password, current, next, name, remember
            case keepTokens = "keep_tokens"
        }
    }

    func nextPath(_ request: Request) -> String {
        Route.safeReturnPath(request.uri.queryParameters["next"].map(String.init), fallback: Route.libraryList(.all))
    }

    func credentialsPage(
        _ mode: CredentialsPage.Mode, next: String, username: String = "", remember: Bool = false, errors: [String: String] = [:],
        notice: String? = nil, status: HTTPResponse.Status = .ok
    ) throws -> Response {
        let page = CredentialsPage(mode: mode, next: next, username: username, remember: remember, errors: errors, notice: notice)
        return try renderer.response(page, status: status)
    }

    func submit(_ mode: CredentialsPage.Mode, _ request: Request, _ context: AppRequestContext) async throws -> Response {
        let form = try await FormInput.decode(Form.self, request, context)
        let next = Route.safeReturnPath(form.next, fallback: Route.libraryList(.all))
        let username = form.username ?? ""
        let password = form.password ?? ""
        let remember = (try? FormInput.flag(form.remember, "remember")) == true
        let client = AccountService.Client(
            address: context.clientAddress ?? "unknown", device: DeviceLabel.from(userAgent: request.headers[.userAgent]), remember: remember
        )
        do {
            let result =
                mode == .signUp
                ? try await accounts.signUp(
                    username: username, password: password, visitor: context.profileID, visitorToken: context.sessionToken, client: client)
                : try await accounts.signIn(
                    username: username, password: password, visitor: context.profileID, visitorToken: context.sessionToken, client: client)
            var response = Response.redirect(to: next, type: .normal)
            response.setCookie(context.cookies.session(result.token, maxAge: result.cookieMaxAge))
            return response
        } catch let failure as AccountService.Failure {
            let page = { (status: HTTPResponse.Status, errors: [String: String]) in
                try credentialsPage(mode, next: next, username: username, remember: remember, errors: errors, status: status)
            }
            return try await answer(failure) { failure in
                switch failure {
                case .invalid(let errors): try page(.unprocessableContent, errors)
                default: try page(failure == .wrongCredentials ? .unauthorized : .ok, ["form": failure.description])
                }
            }
        }
    }

    /// The page for a failure, as 429 (throttled) or 503 (busy) with Retry-After when it says "not now".
    func answer(_ failure: AccountService.Failure, _ page: (AccountService.Failure) async throws -> Response) async throws -> Response {
        var response = try await page(failure)
        guard let seconds = failure.retryAfter else { return response }
        if case .busy = failure { response.status = .serviceUnavailable } else { response.status = .tooManyRequests }
        response.headers[.retryAfter] = String(seconds)
        return response
    }

    func signOut(_ context: AppRequestContext) async throws -> Response {
        if let token = context.sessionToken { try await accounts.signOut(token: token) }
        var response = Response.redirect(to: Route.signIn.link(query: ["done": "signed-out"]), type: .normal)
        response.setCookie(context.cookies.clearedSession)
        return response
    }

    /// The sign-in form (401) for an account page asked for without an account's session.
    func signInRequired(_ next: String) throws -> Response {
        try credentialsPage(.signIn, next: next, status: .unauthorized)
    }

    /// The signed-in account behind the request's session, if any.
    func signedIn(_ context: AppRequestContext) async throws -> AccountService.Account? {
        try await accounts.account(context.profileID)
    }
}
