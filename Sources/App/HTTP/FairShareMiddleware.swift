import Foundation
import Hummingbird

/// Upstream calls made while answering a request count against its client's share
/// (`ClientShare`): the signed-in account (a page session or an API token), else the client
/// address. A client past its share is never refused: the call is not made, and the page or API
/// answer is made from what is kept or the local title index, marked as such.
struct FairShareMiddleware: RouterMiddleware {
    /// The account an API token names, once the API's groups have found it (none on the pages).
    var tokenAccount: @Sendable () -> UUID? = { nil }

    func handle(
        _ request: Request, context: AppRequestContext,
        next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        // An account by its session or its API token (tokens are accounts'); a visitor's profile is
        // not a client of its own (a new cookie would be a new share): it counts by address.
        let token = request.headers.value(.authorization) != nil ? tokenAccount() : nil
        let account = token ?? (context.isAccount ? context.profileID : nil)
        let client = UpstreamClient(account: account, address: context.clientAddress)
        return try await UpstreamClient.$current.withValue(client) { try await next(request, context) }
    }
}
