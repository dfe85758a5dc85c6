import Foundation
import Hummingbird

/// Upstream calls made while answering a request count against its client's fair share
/// (`ClientShare`): the signed-in account (a page session or an API token), else the client
/// address. A page or API read that needed a call the client's share refused, with nothing cached
/// to stand in, is answered 429 with Retry-After (a page by `ErrorPageMiddleware`, problem+json by
/// `APIProblemMiddleware`). A write keeps its answer: what it changed is done, whatever it showed.
struct FairShareMiddleware: RouterMiddleware {
    func handle(
        _ request: Request, context: AppRequestContext,
        next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        // An account by its session or its API token (tokens are accounts'); a visitor's profile is
        // not a client of its own (a new cookie would be a new share): it counts by address.
        let token = request.headers.value(.authorization) != nil ? APIScope.session?.existing : nil
        let account = token ?? (context.isAccount ? context.profileID : nil)
        let client = UpstreamClient(account: account, address: context.clientAddress)
        let response = try await UpstreamClient.$current.withValue(client) { try await next(request, context) }
        guard [.get, .head].contains(request.method), let seconds = client.retryAfter else { return response }
        throw Self.refusal(retryAfter: seconds)
    }

    static func refusal(retryAfter seconds: Int) -> HTTPError {
        var headers = HTTPFields()
        headers[.retryAfter] = String(seconds)
        let wait = seconds < 90 ? "\(seconds) second\(seconds == 1 ? "" : "s")" : "\((seconds + 59) / 60) minutes"
        return HTTPError(
            .tooManyRequests, headers: headers,
            message: "You’ve looked up more new titles in a short time than one person’s share of what iTunes and TVMaze allow us, "
                + "so others can keep searching too. Try again in \(wait); titles already looked up still open."
        )
    }
}
