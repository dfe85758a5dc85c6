import Foundation
import Hummingbird

/// Recent searches: each answered search of a person with a profile joins them; each can be run
/// again (a link) or removed (a form).
extension SearchController {
    struct RemoveRecentForm: Decodable {
        var return_to: String?
    }

    /// The person's recent searches; a failed read lists none (the rest of the page still works).
    func recent(_ context: AppRequestContext) async -> [SearchHistoryEntry] {
        do {
            return try await search.recentSearches(profile: context.profileID)
        } catch {
            logger.error("reading recent searches failed", metadata: ["error": "\(error)"])
            return []
        }
    }

    /// Records the search and returns the recent searches after it. A failed write loses only this
    /// entry of the history; the search itself was answered.
    func record(_ query: SearchQuery, profile: UUID, _ context: AppRequestContext) async -> [SearchHistoryEntry] {
        do {
            return try await search.recordInHistory(query, profile: profile)
        } catch {
            logger.error("recording the search in the history failed", metadata: ["error": "\(error)"])
            return await recent(context)
        }
    }

    func removeRecent(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let form = try await FormInput.decode(RemoveRecentForm.self, request, context)
        let returnTo = Route.safeReturnPath(form.return_to, fallback: Route.search.path)
        let wantsJSON = FormInput.wantsJSON(request)
        guard let raw = context.parameters.get("id"), let id = UUID(uuidString: raw) else {
            return try notRecent(wantsJSON)
        }
        if context.profileID == nil {
            // A visitor without a profile: the list is their cookie.
            let entries = VisitorSearches.read(request, context)
            guard entries.contains(where: { $0.id == id }) else { return try notRecent(wantsJSON) }
            var response: Response = wantsJSON ? .init(status: .noContent) : .redirect(to: returnTo, type: .normal)
            response.setCookie(VisitorSearches.cookie(entries.filter { $0.id != id }, context))
            return response
        }
        guard try await search.removeFromHistory(id, profile: context.profileID) else { return try notRecent(wantsJSON) }
        return wantsJSON ? .init(status: .noContent) : .redirect(to: returnTo, type: .normal)
    }

    private func notRecent(_ wantsJSON: Bool) throws -> Response {
        let message = "That search is not among your recent searches (it may have been removed already)."
        if wantsJSON { return try JSONAnswer.error(.notFound, message) }
        return try ErrorPages.notFound(renderer, message)
    }
}
