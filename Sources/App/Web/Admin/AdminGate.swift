import Foundation
import Hummingbird

/// Who may use the advertiser console: a signed-in account with the admin role (the first one is
/// made with `popcornswirl create-admin`). Anyone else gets the sign-in form (401) or a refusal
/// (403), with no console data on either. Forms are CSRF-checked by `CSRFMiddleware`.
struct AdminGate {
    let accounts: AccountService
    let renderer: PageRenderer

    /// nil for a signed-in administrator; otherwise the page that refuses the request.
    func refusal(_ request: Request, _ context: AppRequestContext) async throws -> Response? {
        guard context.isAccount, let account = try await accounts.account(context.profileID) else {
            let next = request.method == .get ? Paths.safeReturnPath(request.uri.description, fallback: Paths.adminOffers) : Paths.adminOffers
            let page = CredentialsPage(mode: .signIn, next: next, username: "", errors: ["form": "Sign in with an administrator’s account to use the advertiser console."])
            return try renderer.response("account_credentials", page, status: .unauthorized)
        }
        guard account.isAdmin else {
            let page = MessagePage(
                chrome: Chrome("Advertiser console", tab: nil), heading: "Administrators only",
                message: "You are signed in as \(account.username), which is not an administrator account. "
                    + "An administrator is made on the server with `popcornswirl create-admin --username NAME`.",
                retryURL: nil, backURL: Paths.home
            )
            return try renderer.response("message", page, status: .forbidden)
        }
        return nil
    }

    func register(on router: Router<AppRequestContext>) {
        router.get("/admin") { _, _ in Response.redirect(to: Paths.adminOffers, type: .normal) }
    }
}
