import Foundation
import Hummingbird

/// Sign-up, sign-in, sign-out and the account page (sessions, password change, API tokens, account
/// deletion).
struct AccountController {
    let accounts: AccountService
    let tokens: APITokenService
    let calendar: CalendarService
    let calendarFeeds: CalendarFeeds
    let publicURL: String?
    let renderer: PageRenderer

    func register(on router: RouterGroup<AppRequestContext>) {
        router.on(Route.signUpForm) { request, context in try credentialsPage(.signUp, next: nextPath(request), context: context) }
        router.on(Route.signInForm) { request, context in
            try credentialsPage(
                .signIn, next: nextPath(request), notice: CredentialsPage.notice(request.uri.queryParameters["done"]), context: context)
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
                case "feed-off": "Calendar feed turned off: its address answers nothing from now on."
                case "zone": "Time zone saved: the Calendar’s days and your feed follow it."
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
        router.on(Route.renewCalendarFeed) { request, context in try await renewCalendarFeed(request, context) }
        router.on(Route.revokeCalendarFeed) { _, context in try await revokeCalendarFeed(context) }
        router.on(Route.saveTimeZone) { request, context in try await saveTimeZone(request, context) }
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
        notice: String? = nil, status: HTTPResponse.Status = .ok, context: AppRequestContext
    ) throws -> Response {
        let page = CredentialsPage(mode: mode, next: next, username: username, remember: remember, errors: errors, notice: notice)
        return try renderer.for(context).response(page, status: status)
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
                try credentialsPage(mode, next: next, username: username, remember: remember, errors: errors, status: status, context: context)
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
    func signInRequired(_ next: String, _ context: AppRequestContext) throws -> Response {
        try credentialsPage(.signIn, next: next, status: .unauthorized, context: context)
    }

    /// The signed-in account behind the request's session, if any.
    func signedIn(_ context: AppRequestContext) async throws -> AccountService.Account? {
        try await accounts.account(context.profileID)
    }
}

/// The account page and its forms: sessions, password, API tokens, deletion.
extension AccountController {
    func accountPage(
        _ context: AppRequestContext, notice: String?, failure: [String: String]?, newToken: AccountPage.NewToken? = nil,
        newFeedURL: String? = nil, status: HTTPResponse.Status? = nil
    ) async throws -> Response {
        guard let account = try await signedIn(context) else {
            return try signInRequired(Route.account.path, context)
        }
        let tokens = try await tokens.list(profile: account.id)
        let sessions = try await accounts.sessions.active(profile: account.id, current: context.sessionToken)
        let feed = AccountPage.CalendarSettings(
            feedSince: try await calendarFeeds.createdAt(profile: account.id), newFeedURL: newFeedURL,
            zone: try await calendar.timeZone(profile: account.id))
        let page = AccountPage(
            account: account, sessions: sessions, tokens: tokens, newToken: newToken, calendar: feed, notice: notice, errors: failure ?? [:]
        )
        var response = try renderer.for(context).response(page, status: status ?? (failure == nil ? .ok : .unprocessableContent))
        // The page can hold a token shown once: no cache keeps it.
        response.headers[.cacheControl] = "no-store"
        return response
    }

    func createToken(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let account = try await signedIn(context) else { return try signInRequired(Route.account.path, context) }
        let form = try await FormInput.decode(Form.self, request, context)
        do {
            let made = try await accounts.createToken(
                account: account.id, password: form.password ?? "", name: form.name ?? "", address: context.clientAddress ?? "unknown"
            )
            return try await accountPage(context, notice: nil, failure: nil, newToken: .init(name: made.record.name, token: made.token))
        } catch let failure as APITokenService.Failure {
            return try await accountPage(context, notice: nil, failure: ["name": failure.description])
        } catch let failure as AccountService.Failure {
            return try await settingsFailure(failure, context, field: "token_password")
        }
    }

    func revokeToken(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let account = try await signedIn(context) else { return try signInRequired(Route.account.path, context) }
        // Another account's token is as unknown as one that never existed.
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)),
            try await tokens.revoke(profile: account.id, id: id)
        else {
            return try ErrorPages.notFound(renderer.for(context), "You have no such API token. It may have been revoked already.")
        }
        return Response.redirect(to: Route.account.link(query: ["done": "revoked"]) + "#tokens", type: .normal)
    }

    func endSession(_ context: AppRequestContext) async throws -> Response {
        guard let account = try await signedIn(context) else { return try signInRequired(Route.account.path, context) }
        // Another account's session is as unknown as one that never existed.
        guard let handle = context.parameters.get("id"), try await accounts.sessions.end(profile: account.id, handle: handle) else {
            return try ErrorPages.notFound(renderer.for(context), "You have no such session. It may have ended already.")
        }
        return Response.redirect(to: Route.account.link(query: ["done": "session"]) + "#sessions", type: .normal)
    }

    func endOtherSessions(_ context: AppRequestContext) async throws -> Response {
        guard let account = try await signedIn(context), let token = context.sessionToken else {
            return try signInRequired(Route.account.path, context)
        }
        try await accounts.sessions.endAll(profile: account.id, keeping: token)
        return Response.redirect(to: Route.account.link(query: ["done": "others"]) + "#sessions", type: .normal)
    }

    func changePassword(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let account = try await signedIn(context) else { return try signInRequired(Route.account.path, context) }
        let form = try await FormInput.decode(Form.self, request, context)
        let keepTokens = (try? FormInput.flag(form.keepTokens, "keep_tokens")) == true
        do {
            let renewed = try await accounts.changePassword(
                account: account.id, current: form.current ?? "", new: form.password ?? "", keepTokens: keepTokens,
                session: context.sessionToken, address: context.clientAddress ?? "unknown"
            )
            // A new page, not this answer: its forms must carry the new session's token.
            var response = Response.redirect(to: Route.account.link(query: ["done": keepTokens ? "password" : "password-tokens"]), type: .normal)
            response.setCookie(context.cookies.session(renewed.token, maxAge: renewed.cookieMaxAge))
            return response
        } catch let failure as AccountService.Failure {
            return try await settingsFailure(failure, context, field: "current")
        }
    }

    /// A password form's failure on the account page: its fields' errors (422), or "not now"
    /// (429/503 with Retry-After) beside `field`; a vanished account is asked to sign in.
    func settingsFailure(_ failure: AccountService.Failure, _ context: AppRequestContext, field: String) async throws -> Response {
        if failure == .wrongCredentials { return try signInRequired(Route.account.path, context) }
        return try await answer(failure) { failure in
            if case .invalid(let errors) = failure { return try await accountPage(context, notice: nil, failure: errors) }
            return try await accountPage(context, notice: nil, failure: [field: failure.description])
        }
    }

    func deletePage(_ context: AppRequestContext, error: String?) async throws -> Response {
        guard let account = try await signedIn(context) else { return try signInRequired(Route.deleteAccount.path, context) }
        return try renderer.for(context).response(
            DeleteAccountPage(username: account.username, error: error), status: error == nil ? .ok : .unprocessableContent)
    }

    func deleteAccount(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let account = try await signedIn(context) else { return try signInRequired(Route.deleteAccount.path, context) }
        let form = try await FormInput.decode(Form.self, request, context)
        do {
            try await accounts.deleteAccount(account: account.id, password: form.password ?? "", address: context.clientAddress ?? "unknown")
        } catch let failure as AccountService.Failure {
            if failure == .wrongCredentials { return try signInRequired(Route.account.path, context) }
            return try await answer(failure) { failure in
                if case .invalid(let errors) = failure { return try await deletePage(context, error: errors.values.first) }
                return try await deletePage(context, error: failure.description)
            }
        }
        var response = Response.redirect(to: Route.signIn.link(query: ["done": "deleted"]), type: .normal)
        response.setCookie(context.cookies.clearedSession)
        return response
    }
}
