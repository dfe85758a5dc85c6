import Foundation
import Hummingbird

/// Sign-up, sign-in, sign-out and the account page (password change, account deletion).
struct AccountController {
    let accounts: AccountService
    let tokens: APITokenService
    let renderer: PageRenderer

    func register(on router: RouterGroup<AppRequestContext>) {
        router.on(Route.signUpForm) { request, _ in try credentialsPage(.signUp, next: nextPath(request)) }
        router.on(Route.signInForm) { request, _ in try credentialsPage(.signIn, next: nextPath(request)) }
        router.on(Route.signUp) { request, context in try await submit(.signUp, request, context) }
        router.on(Route.signIn) { request, context in try await submit(.signIn, request, context) }
        router.on(Route.signOut) { _, context in try await signOut(context) }
        router.on(Route.account) { request, context in
            let notice: String? =
                switch request.uri.queryParameters["done"] {
                case "password": "Password changed. You were signed out everywhere else."
                case "revoked": "Token revoked: calls made with it are refused from now on."
                default: nil
                }
            return try await accountPage(context, notice: notice, failure: nil)
        }
        router.on(Route.changePassword) { request, context in try await changePassword(request, context) }
        router.on(Route.createToken) { request, context in try await createToken(request, context) }
        router.on(Route.revokeToken) { request, context in try await revokeToken(request, context) }
        router.on(Route.deleteAccountForm) { _, context in try await deletePage(context, error: nil) }
        router.on(Route.deleteAccount) { request, context in try await deleteAccount(request, context) }
    }

    struct Form: Decodable {
        var username: String?
        var password: String?
        var current: String?
        var next: String?
        var name: String?
    }

    func nextPath(_ request: Request) -> String {
        Route.safeReturnPath(request.uri.queryParameters["next"].map(String.init), fallback: Route.libraryList(.all))
    }

    func credentialsPage(
        _ mode: CredentialsPage.Mode, next: String, username: String = "", errors: [String: String] = [:], status: HTTPResponse.Status = .ok
    ) throws -> Response {
        try renderer.response(CredentialsPage(mode: mode, next: next, username: username, errors: errors), status: status)
    }

    func submit(_ mode: CredentialsPage.Mode, _ request: Request, _ context: AppRequestContext) async throws -> Response {
        let form = try await FormInput.decode(Form.self, request, context)
        let next = Route.safeReturnPath(form.next, fallback: Route.libraryList(.all))
        let username = form.username ?? ""
        let password = form.password ?? ""
        let visitorToken = context.sessionToken
        do {
            let result =
                mode == .signUp
                ? try await accounts.signUp(username: username, password: password, visitor: context.profileID, visitorToken: visitorToken)
                : try await accounts.signIn(
                    username: username, password: password, visitor: context.profileID, visitorToken: visitorToken,
                    address: context.clientAddress ?? "unknown"
                )
            var response = Response.redirect(to: next, type: .normal)
            response.setCookie(context.cookies.session(result.token))
            return response
        } catch let failure as AccountService.Failure {
            switch failure {
            case .invalid(let errors):
                return try credentialsPage(mode, next: next, username: username, errors: errors, status: .unprocessableContent)
            case .wrongCredentials:
                return try credentialsPage(mode, next: next, username: username, errors: ["form": failure.description], status: .unauthorized)
            case .throttled(let seconds):
                return try await throttled(seconds) {
                    try credentialsPage(mode, next: next, username: username, errors: ["form": failure.description])
                }
            }
        }
    }

    func signOut(_ context: AppRequestContext) async throws -> Response {
        if let token = context.sessionToken { try await accounts.signOut(token: token) }
        var response = Response.redirect(to: Route.signIn.path + "?signed_out=1", type: .normal)
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

    func accountPage(
        _ context: AppRequestContext, notice: String?, failure: [String: String]?, newToken: AccountPage.NewToken? = nil
    ) async throws -> Response {
        guard let account = try await signedIn(context) else {
            return try signInRequired(Route.account.path)
        }
        let tokens = try await tokens.list(profile: account.id)
        let page = AccountPage(account: account, tokens: tokens, newToken: newToken, notice: notice, errors: failure ?? [:])
        var response = try renderer.response(page, status: failure == nil ? .ok : .unprocessableContent)
        // The page can hold a token shown once: no cache keeps it.
        response.headers[.cacheControl] = "no-store"
        return response
    }

    func createToken(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let account = try await signedIn(context) else { return try signInRequired(Route.account.path) }
        let form = try await FormInput.decode(Form.self, request, context)
        do {
            let made = try await tokens.create(profile: account.id, name: form.name ?? "")
            return try await accountPage(context, notice: nil, failure: nil, newToken: .init(name: made.record.name, token: made.token))
        } catch let failure as APITokenService.Failure {
            return try await accountPage(context, notice: nil, failure: ["name": failure.description])
        }
    }

    func revokeToken(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let account = try await signedIn(context) else { return try signInRequired(Route.account.path) }
        // Another account's token is as unknown as one that never existed.
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)),
            try await tokens.revoke(profile: account.id, id: id)
        else {
            return try ErrorPages.notFound(renderer, "You have no such API token. It may have been revoked already.")
        }
        return Response.redirect(to: Route.account.path + "?done=revoked#tokens", type: .normal)
    }

    func changePassword(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let account = try await signedIn(context) else { return try signInRequired(Route.account.path) }
        let form = try await FormInput.decode(Form.self, request, context)
        do {
            let token = try await accounts.changePassword(
                account: account.id, current: form.current ?? "", new: form.password ?? "", address: context.clientAddress ?? "unknown"
            )
            // A new page, not this answer: its forms must carry the new session's token.
            var response = Response.redirect(to: Route.account.path + "?done=password", type: .normal)
            response.setCookie(context.cookies.session(token))
            return response
        } catch let failure as AccountService.Failure {
            switch failure {
            case .invalid(let errors): return try await accountPage(context, notice: nil, failure: errors)
            case .throttled(let seconds):
                return try await throttled(seconds) { try await accountPage(context, notice: nil, failure: ["current": failure.description]) }
            case .wrongCredentials: return try signInRequired(Route.account.path)
            }
        }
    }

    /// 429 with Retry-After around the page that says so.
    func throttled(_ seconds: Int, _ page: () async throws -> Response) async throws -> Response {
        var response = try await page()
        response.status = .tooManyRequests
        response.headers[.retryAfter] = String(seconds)
        return response
    }

    func deletePage(_ context: AppRequestContext, error: String?) async throws -> Response {
        guard let account = try await signedIn(context) else { return try signInRequired(Route.deleteAccount.path) }
        return try renderer.response(DeleteAccountPage(username: account.username, error: error), status: error == nil ? .ok : .unprocessableContent)
    }

    func deleteAccount(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let account = try await signedIn(context) else { return try signInRequired(Route.deleteAccount.path) }
        let form = try await FormInput.decode(Form.self, request, context)
        do {
            try await accounts.deleteAccount(account: account.id, password: form.password ?? "", address: context.clientAddress ?? "unknown")
        } catch let failure as AccountService.Failure {
            switch failure {
            case .invalid(let errors): return try await deletePage(context, error: errors.values.first)
            case .throttled(let seconds): return try await throttled(seconds) { try await deletePage(context, error: failure.description) }
            case .wrongCredentials: return try signInRequired(Route.account.path)
            }
        }
        var response = Response.redirect(to: Route.home.path, type: .normal)
        response.setCookie(context.cookies.clearedSession)
        return response
    }
}
