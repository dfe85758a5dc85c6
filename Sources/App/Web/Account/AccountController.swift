import Foundation
import Hummingbird

/// Sign-up, sign-in, sign-out and the account page (password change, account deletion).
struct AccountController {
    let services: AppServices
    let renderer: PageRenderer
    var accounts: AccountService { services.accounts }

    func register(on router: Router<AppRequestContext>) {
        router.get(RouterPath(Paths.signUp)) { request, _ in try credentialsPage(.signUp, next: nextPath(request)) }
        router.get(RouterPath(Paths.signIn)) { request, _ in try credentialsPage(.signIn, next: nextPath(request)) }
        router.post(RouterPath(Paths.signUp)) { request, context in try await submit(.signUp, request, context) }
        router.post(RouterPath(Paths.signIn)) { request, context in try await submit(.signIn, request, context) }
        router.post(RouterPath(Paths.signOut)) { request, _ in try await signOut(request) }
        router.get(RouterPath(Paths.account)) { _, context in try await accountPage(context, notice: nil, failure: nil) }
        router.post(RouterPath(Paths.accountPassword)) { request, context in try await changePassword(request, context) }
        router.get(RouterPath(Paths.accountDelete)) { _, context in try await deletePage(context, error: nil) }
        router.post(RouterPath(Paths.accountDelete)) { request, context in try await deleteAccount(request, context) }
    }

    struct Form: Decodable {
        var username: String?
        var password: String?
        var current: String?
        var next: String?
    }

    func nextPath(_ request: Request) -> String {
        Paths.safeReturnPath(request.uri.queryParameters["next"].map(String.init), fallback: Paths.library(.all))
    }

    func credentialsPage(_ mode: CredentialsPage.Mode, next: String, username: String = "", errors: [String: String] = [:], status: HTTPResponse.Status = .ok) throws -> Response {
        try renderer.response("account_credentials", CredentialsPage(mode: mode, next: next, username: username, errors: errors), status: status)
    }

    func submit(_ mode: CredentialsPage.Mode, _ request: Request, _ context: AppRequestContext) async throws -> Response {
        let form = try await FormInput.decode(Form.self, request, context)
        let next = Paths.safeReturnPath(form.next, fallback: Paths.library(.all))
        let username = form.username ?? "", password = form.password ?? ""
        let visitorToken = request.cookies[SessionService.cookieName]?.value
        do {
            let result = mode == .signUp
                ? try await accounts.signUp(username: username, password: password, visitor: context.profileID, visitorToken: visitorToken)
                : try await accounts.signIn(
                    username: username, password: password, visitor: context.profileID, visitorToken: visitorToken,
                    address: context.clientAddress ?? "unknown"
                )
            var response = Response.redirect(to: next, type: .normal)
            response.setCookie(SessionCookie.make(result.token))
            return response
        } catch let failure as AccountService.Failure {
            switch failure {
            case .invalid(let errors):
                return try credentialsPage(mode, next: next, username: username, errors: errors, status: .unprocessableContent)
            case .wrongCredentials:
                return try credentialsPage(mode, next: next, username: username, errors: ["form": failure.description], status: .unauthorized)
            case .throttled(let seconds):
                var response = try credentialsPage(mode, next: next, username: username, errors: ["form": failure.description], status: .tooManyRequests)
                response.headers[.retryAfter] = String(seconds)
                return response
            }
        }
    }

    func signOut(_ request: Request) async throws -> Response {
        if let token = request.cookies[SessionService.cookieName]?.value { try await accounts.signOut(token: token) }
        var response = Response.redirect(to: Paths.signIn + "?signed_out=1", type: .normal)
        response.setCookie(SessionCookie.cleared)
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

    func accountPage(_ context: AppRequestContext, notice: String?, failure: [String: String]?) async throws -> Response {
        guard let account = try await signedIn(context) else {
            return try signInRequired(Paths.account)
        }
        let page = AccountPage(account: account, notice: notice, errors: failure ?? [:])
        return try renderer.response("account", page, status: failure == nil ? .ok : .unprocessableContent)
    }

    func changePassword(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let account = try await signedIn(context) else { return try signInRequired(Paths.account) }
        let form = try await FormInput.decode(Form.self, request, context)
        do {
            let token = try await accounts.changePassword(
                account: account.id, current: form.current ?? "", new: form.password ?? "",
                token: request.cookies[SessionService.cookieName]?.value
            )
            var response = try await accountPage(context, notice: "Password changed. You were signed out everywhere else.", failure: nil)
            response.setCookie(SessionCookie.make(token))
            return response
        } catch let failure as AccountService.Failure {
            if case .invalid(let errors) = failure { return try await accountPage(context, notice: nil, failure: errors) }
            return try signInRequired(Paths.account)
        }
    }

    func deletePage(_ context: AppRequestContext, error: String?) async throws -> Response {
        guard let account = try await signedIn(context) else { return try signInRequired(Paths.accountDelete) }
        return try renderer.response("account_delete", DeleteAccountPage(username: account.username, error: error), status: error == nil ? .ok : .unprocessableContent)
    }

    func deleteAccount(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let account = try await signedIn(context) else { return try signInRequired(Paths.accountDelete) }
        let form = try await FormInput.decode(Form.self, request, context)
        do {
            try await accounts.deleteAccount(account: account.id, password: form.password ?? "")
        } catch let failure as AccountService.Failure {
            if case .invalid(let errors) = failure { return try await deletePage(context, error: errors.values.first) }
            return try signInRequired(Paths.account)
        }
        var response = Response.redirect(to: Paths.home, type: .normal)
        response.setCookie(SessionCookie.cleared)
        return response
    }
}

struct CredentialsPage {
    enum Mode { case signUp, signIn }

    let chrome: Chrome
    let isSignUp: Bool
    let heading: String
    let action: String
    let submitLabel: String
    let otherURL: String
    let otherLabel: String
    let next: String
    let username: String
    let errors: [String: String]
    let minimum = PasswordPolicy.minimum
    let maximum = PasswordPolicy.maximum

    init(mode: Mode, next: String, username: String, errors: [String: String]) {
        isSignUp = mode == .signUp
        heading = isSignUp ? "Create your account" : "Sign in"
        chrome = Chrome(heading, tab: .library)
        action = isSignUp ? Paths.signUp : Paths.signIn
        submitLabel = isSignUp ? "Create account" : "Sign in"
        otherURL = (isSignUp ? Paths.signIn : Paths.signUp) + "?next=\(Paths.query(next))"
        otherLabel = isSignUp ? "Already have an account? Sign in" : "New here? Create an account"
        self.next = next
        self.username = username
        self.errors = errors
    }
}

struct AccountPage {
    let chrome = Chrome("Your account", tab: .library)
    let username: String
    let notice: String?
    let errors: [String: String]
    let minimum = PasswordPolicy.minimum
    let maximum = PasswordPolicy.maximum
    let signOutURL = Paths.signOut
    let passwordURL = Paths.accountPassword
    let deleteURL = Paths.accountDelete

    init(account: AccountService.Account, notice: String?, errors: [String: String]) {
        username = account.username
        self.notice = notice
        self.errors = errors
    }
}

struct DeleteAccountPage {
    let chrome = Chrome("Delete your account", tab: .library)
    let username: String
    let error: String?
    let action = Paths.accountDelete
    let cancelURL = Paths.account
}
