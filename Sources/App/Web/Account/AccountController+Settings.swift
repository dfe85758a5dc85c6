import Foundation
import Hummingbird

/// The account page and its forms: sessions, password, API tokens, deletion.
extension AccountController {
    func accountPage(
        _ context: AppRequestContext, notice: String?, failure: [String: String]?, newToken: AccountPage.NewToken? = nil,
        status: HTTPResponse.Status? = nil
    ) async throws -> Response {
        guard let account = try await signedIn(context) else {
            return try signInRequired(Route.account.path)
        }
        let tokens = try await tokens.list(profile: account.id)
        let sessions = try await accounts.sessions.active(profile: account.id, current: context.sessionToken)
        let page = AccountPage(
            account: account, sessions: sessions, tokens: tokens, newToken: newToken, notice: notice, errors: failure ?? [:]
        )
        var response = try renderer.response(page, status: status ?? (failure == nil ? .ok : .unprocessableContent))
        // The page can hold a token shown once: no cache keeps it.
        response.headers[.cacheControl] = "no-store"
        return response
    }

    func createToken(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let account = try await signedIn(context) else { return try signInRequired(Route.account.path) }
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
        guard let account = try await signedIn(context) else { return try signInRequired(Route.account.path) }
        // Another account's token is as unknown as one that never existed.
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)),
            try await tokens.revoke(profile: account.id, id: id)
        else {
            return try ErrorPages.notFound(renderer, "You have no such API token. It may have been revoked already.")
        }
        return Response.redirect(to: Route.account.link(query: ["done": "revoked"]) + "#tokens", type: .normal)
    }

    func endSession(_ context: AppRequestContext) async throws -> Response {
        guard let account = try await signedIn(context) else { return try signInRequired(Route.account.path) }
        // Another account's session is as unknown as one that never existed.
        guard let handle = context.parameters.get("id"), try await accounts.sessions.end(profile: account.id, handle: handle) else {
            return try ErrorPages.notFound(renderer, "You have no such session. It may have ended already.")
        }
        return Response.redirect(to: Route.account.link(query: ["done": "session"]) + "#sessions", type: .normal)
    }

    func endOtherSessions(_ context: AppRequestContext) async throws -> Response {
        guard let account = try await signedIn(context), let token = context.sessionToken else {
            return try signInRequired(Route.account.path)
        }
        try await accounts.sessions.endAll(profile: account.id, keeping: token)
        return Response.redirect(to: Route.account.link(query: ["done": "others"]) + "#sessions", type: .normal)
    }

    func changePassword(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let account = try await signedIn(context) else { return try signInRequired(Route.account.path) }
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
        if failure == .wrongCredentials { return try signInRequired(Route.account.path) }
        return try await answer(failure) { failure in
            if case .invalid(let errors) = failure { return try await accountPage(context, notice: nil, failure: errors) }
            return try await accountPage(context, notice: nil, failure: [field: failure.description])
        }
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
            if failure == .wrongCredentials { return try signInRequired(Route.account.path) }
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
