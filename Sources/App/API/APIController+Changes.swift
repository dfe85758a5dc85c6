import Foundation
import OpenAPIRuntime
import PopcornAPI

/// `GET /api/v1/changes`: what changed in the caller's data since a device last asked (`SyncFeed`).
extension APIController {
    func listChanges(_ input: Operations.ListChanges.Input) async throws -> Operations.ListChanges.Output {
        guard let since = Int64(input.query.since ?? "0"), since >= 0 else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("since must be the cursor of a page, or 0."))))
        }
        let limit = input.query.limit ?? SyncFeed.defaultLimit
        guard (1...SyncFeed.maxLimit).contains(limit) else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("limit must be between 1 and \(SyncFeed.maxLimit)."))))
        }
        guard let profile = APIScope.session?.existing else { return .unauthorized(APIRefusal.signInResponse) }
        let page: SyncPage
        do { page = try await sync.changes(profile: profile, since: since, limit: limit) } catch {
            return .serviceUnavailable(.init(body: .applicationProblemJson(.unavailable(ErrorTexts.fetchFailed))))
        }
        return .ok(.init(body: .json(.init(changes: page.changes.map(Components.Schemas.Change.init), cursor: String(page.cursor), more: page.more))))
    }
}

extension Components.Schemas.Change {
    init(_ change: SyncChange) {
        self.init(entity: .init(change.entity), key: change.key, deleted: change.state == nil)
        switch change.state {
        case .title(let item)?: title = .init(item)
        case .watch(let watch)?: self.watch = .init(watch)
        case .list(let list, let items)?: self.list = .init(list: .init(list), items: items.map(Components.Schemas.CustomListItem.init))
        case .episode(let episode)?:
            self.episode = .init(
                showId: Int64(episode.showID), id: Int64(episode.episodeID), watchCount: episode.watchCount, rating: episode.rating)
        case .show(let show)?:
            self.show = .init(
                showId: Int64(show.showID), title: show.title,
                posterUrl: Route.posterImage(source: show.artworkURL, seed: show.showID, title: show.title),
                stopped: show.stopped, includeSpecials: show.includeSpecials, lastWatchedAt: show.lastWatchedAt, updatedAt: show.updatedAt)
        case .seasonRating(_, let season, let rating)?: seasonRating = .init(season: season, rating: rating)
        case nil: break
        }
    }
}

extension Components.Schemas.Change.EntityPayload {
    init(_ entity: SyncEntity) {
        self =
            switch entity {
            case .title: .title
            case .watch: .watch
            case .list: .list
            case .episode: .episode
            case .show: .show
            case .seasonRating: .seasonRating
            }
    }
}
