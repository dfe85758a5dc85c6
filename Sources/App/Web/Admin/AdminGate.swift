import Foundation
import Hummingbird

/// The `/admin` group's middleware: every console route is denied unless the caller is a
/// signed-in account with the admin role (the first one is made with `popcornswirl create-admin`).
/// Anyone else gets the sign-in form (401) or a refusal (403), with no console data on either,
/// and no handler (nor the body reader behind it) runs. Forms are CSRF-checked before this.
struct AdminGate: RouterMiddleware {
    let accounts: AccountService
    let renderer: PageRenderer

    func handle(
        _ request: Request, context: AppRequestContext,
        next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        if let refusal = try await refusal(request, context) { return refusal }
        return try await next(request, context)
    }

    /// nil for a signed-in administrator; otherwise the page that refuses the request.
    func refusal(_ request: Request, _ context: AppRequestContext) async throws -> Response? {
        guard context.isAccount, let account = try await accounts.account(context.profileID) else {
            let next =
                request.method == .get
                ? Route.safeReturnPath(request.uri.description, fallback: AdminRoute.offers.path) : AdminRoute.offers.path
            let page = CredentialsPage(
                mode: .signIn, next: next, username: "", errors: ["form": "Sign in with an administrator’s account to use the advertiser console."]
            )
            return try renderer.for(context).response(page, status: .unauthorized)
        }
        guard account.isAdmin else {
            let page = MessagePage(
                chrome: Chrome("Advertiser console", tab: nil), heading: "Administrators only",
                message: "You are signed in as \(account.username), which is not an administrator account. "
                    + "An administrator is made on the server with `popcornswirl create-admin --username NAME`.",
                retryURL: nil, backURL: Route.home.path
            )
            return try renderer.for(context).response(page, status: .forbidden)
        }
        return nil
    }
}
