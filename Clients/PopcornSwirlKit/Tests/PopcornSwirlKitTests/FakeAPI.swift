import Foundation
import OpenAPIRuntime
import PopcornSwirlAPI
import Synchronization

@testable import PopcornSwirlKit

struct Unimplemented: Error {
    let operation: String
    init(_ operation: String) { self.operation = operation }
}

/// The server's failure on the wire.
struct Unreachable: Error {}

/// A server in memory behind `APIProtocol`: the operations the sync engine uses, with the real
/// server's rules (an `Idempotency-Key` done once and its answer replayed, `Change-Made-At`
/// refused when older than the title's last change, a note over 2,000 characters refused with
/// 422) and a change feed. Tests script failures: the next calls unreachable before they reach
/// it, or done but their answer lost.
final class FakeAPI: APIProtocol, Sendable {
    enum Failure { case unreachable, answerLost }

    struct Title: Equatable {
        var favorite = false
        var watched = false
        var note: String?
        var changedAt: Date
    }

    struct State {
        var titles: [Int64: Title] = [:]
        var episodes: [Int64: Int] = [:]  // episode id → watch count
        /// The feed: (seq, entity, key); a key changed again moves to the end.
        var log: [(seq: Int64, entity: String, key: String)] = []
        var seq: Int64 = 0
        /// Answers given per idempotency key (replayed), and how many times each key's write was done.
        var done: [String: Int] = [:]
        var applied: [String: Int] = [:]
        var failures: [Failure] = []
        var calls: [String] = []
    }

    let state = Mutex(State())

    func fail(_ failures: Failure...) { state.withLock { $0.failures += failures } }

    /// A change made on the server by another device at `at`.
    func serverChange(movie id: Int64, favorite: Bool? = nil, note: String? = nil, at: Date) {
        state.withLock { state in
            var title = state.titles[id] ?? Title(changedAt: at)
            if let favorite { title.favorite = favorite }
            if let note { title.note = note }
            title.changedAt = at
            state.titles[id] = title
            Self.log(&state, "title", "movie:\(id)")
        }
    }

    static func log(_ state: inout State, _ entity: String, _ key: String) {
        state.seq += 1
        state.log.removeAll { $0.entity == entity && $0.key == key }
        state.log.append((state.seq, entity, key))
    }

    /// Runs a write once per idempotency key; a failure scripted for it happens before (unreachable)
    /// or after it is done (answer lost).
    private func write<T>(_ name: String, _ body: (inout State) -> (T, Int)) throws -> T {
        let key = IdempotencyKey.current ?? UUID().uuidString
        let failure: Failure? = state.withLock { state in
            state.calls.append(name)
            return state.failures.isEmpty ? nil : state.failures.removeFirst()
        }
        if failure == .unreachable { throw Unreachable() }
        let answer: T = state.withLock { state in
            let (answer, status) = body(&state)
            state.done[key] = status
            state.applied[key, default: 0] += 1
            return answer
        }
        if failure == .answerLost { throw Unreachable() }
        return answer
    }

    func putLibraryMovie(_ input: Operations.PutLibraryMovie.Input) async throws -> Operations.PutLibraryMovie.Output {
        let key = IdempotencyKey.current ?? ""
        if let status = state.withLock({ $0.done[key] }), status == 200 {
            state.withLock { $0.calls.append("putLibraryMovie (replayed)") }
            return .ok(.init(body: .json(entry(input.path.id))))
        }
        guard case .json(let change) = input.body else { throw Unimplemented("body") }
        return try write("putLibraryMovie") { state -> (Operations.PutLibraryMovie.Output, Int) in
            if let note = change.note, note.count > 2000 {
                return (
                    .unprocessableContent(
                        .init(
                            body: .applicationProblemJson(
                                .init(title: "Unprocessable", status: 422, detail: "The note is longer than 2,000 characters.")))), 422
                )
            }
            let madeAt = input.headers.changeMadeAt ?? Date()
            var title = state.titles[input.path.id] ?? Title(changedAt: madeAt)
            if let current = state.titles[input.path.id], current.changedAt > madeAt {
                let problem = Components.Schemas.Problem(
                    _type: SyncEngine.supersededType, title: "Conflict", status: 409, detail: "This title was changed again.")
                return (.conflict(.init(body: .applicationProblemJson(problem))), 409)
            }
            if let favorite = change.favorite { title.favorite = favorite }
            if let watched = change.watched { title.watched = watched }
            if let note = change.note { title.note = note.isEmpty ? nil : note }
            title.changedAt = madeAt
            state.titles[input.path.id] = title
            Self.log(&state, "title", "movie:\(input.path.id)")
            return (.ok(.init(body: .json(Self.entry(input.path.id, title)))), 200)
        }
    }

    private func entry(_ id: Int64) -> Components.Schemas.LibraryEntry {
        state.withLock { Self.entry(id, $0.titles[id] ?? Title(changedAt: Date())) }
    }

    static func entry(_ id: Int64, _ title: Title) -> Components.Schemas.LibraryEntry {
        .init(
            kind: .movie, id: id, title: "Film \(id)", favorite: title.favorite, watched: title.watched, note: title.note, updatedAt: title.changedAt)
    }

    func deleteLibraryMovie(_ input: Operations.DeleteLibraryMovie.Input) async throws -> Operations.DeleteLibraryMovie.Output {
        try write("deleteLibraryMovie") { state in
            guard state.titles.removeValue(forKey: input.path.id) != nil else {
                return (.notFound(.init(body: .applicationProblemJson(.init(title: "Not Found", status: 404, detail: "Not in your lists.")))), 404)
            }
            Self.log(&state, "title", "movie:\(input.path.id)")
            return (.noContent(.init()), 204)
        }
    }

    func putLibraryShow(_ input: Operations.PutLibraryShow.Input) async throws -> Operations.PutLibraryShow.Output {
        throw Unimplemented("putLibraryShow")
    }

    func deleteLibraryShow(_ input: Operations.DeleteLibraryShow.Input) async throws -> Operations.DeleteLibraryShow.Output {
        throw Unimplemented("deleteLibraryShow")
    }

    func putLibraryEpisode(_ input: Operations.PutLibraryEpisode.Input) async throws -> Operations.PutLibraryEpisode.Output {
        guard case .json(let change) = input.body else { throw Unimplemented("body") }
        return try write("putLibraryEpisode") { state in
            let id = input.path.episodeId
            state.episodes[id] = change.watched ? max(state.episodes[id] ?? 0, 1) : 0
            Self.log(&state, "episode", "139:\(id)")
            let episode = Components.Schemas.EpisodeState(id: id, watched: change.watched, watchCount: state.episodes[id] ?? 0)
            return (.ok(.init(body: .json(episode))), 200)
        }
    }

    func listChanges(_ input: Operations.ListChanges.Input) async throws -> Operations.ListChanges.Output {
        let failure: Failure? = state.withLock { state in
            state.calls.append("listChanges")
            return state.failures.isEmpty ? nil : state.failures.removeFirst()
        }
        if failure != nil { throw Unreachable() }
        let since = Int64(input.query.since ?? "0") ?? 0
        let limit = input.query.limit ?? 200
        return state.withLock { state in
            let rows = state.log.filter { $0.seq > since }.sorted { $0.seq < $1.seq }
            let page = Array(rows.prefix(limit))
            let changes = page.map { row -> Components.Schemas.Change in
                var change = Components.Schemas.Change(entity: .init(rawValue: row.entity)!, key: row.key, deleted: true)
                let id = Int64(row.key.split(separator: ":").last!)!
                if row.entity == "title", let title = state.titles[id] {
                    change.deleted = false
                    change.title = Self.entry(id, title)
                }
                if row.entity == "episode", let count = state.episodes[id], count > 0 {
                    change.deleted = false
                    change.episode = .init(showId: 139, id: id, watchCount: count)
                }
                return change
            }
            return .ok(.init(body: .json(.init(changes: changes, cursor: String(page.last?.seq ?? since), more: rows.count > limit))))
        }
    }

    func listUpNext(_ input: Operations.ListUpNext.Input) async throws -> Operations.ListUpNext.Output {
        .ok(.init(body: .json(.init(items: []))))
    }

    func listMovies(_ input: Operations.ListMovies.Input) async throws -> Operations.ListMovies.Output { throw Unimplemented("listMovies") }
    func getMovie(_ input: Operations.GetMovie.Input) async throws -> Operations.GetMovie.Output { throw Unimplemented("getMovie") }
    func listShows(_ input: Operations.ListShows.Input) async throws -> Operations.ListShows.Output { throw Unimplemented("listShows") }
    func getShow(_ input: Operations.GetShow.Input) async throws -> Operations.GetShow.Output { throw Unimplemented("getShow") }
    func listLibrary(_ input: Operations.ListLibrary.Input) async throws -> Operations.ListLibrary.Output { throw Unimplemented("listLibrary") }
    func listShowEpisodes(_ input: Operations.ListShowEpisodes.Input) async throws -> Operations.ListShowEpisodes.Output {
        throw Unimplemented("listShowEpisodes")
    }
    func logEpisodeWatch(_ input: Operations.LogEpisodeWatch.Input) async throws -> Operations.LogEpisodeWatch.Output {
        throw Unimplemented("logEpisodeWatch")
    }
    func markShowWatched(_ input: Operations.MarkShowWatched.Input) async throws -> Operations.MarkShowWatched.Output {
        throw Unimplemented("markShowWatched")
    }
    func putShowProgress(_ input: Operations.PutShowProgress.Input) async throws -> Operations.PutShowProgress.Output {
        throw Unimplemented("putShowProgress")
    }
    func putSeasonRating(_ input: Operations.PutSeasonRating.Input) async throws -> Operations.PutSeasonRating.Output {
        throw Unimplemented("putSeasonRating")
    }
    func getCalendar(_ input: Operations.GetCalendar.Input) async throws -> Operations.GetCalendar.Output { throw Unimplemented("getCalendar") }
    func renewCalendarFeed(_ input: Operations.RenewCalendarFeed.Input) async throws -> Operations.RenewCalendarFeed.Output {
        throw Unimplemented("renewCalendarFeed")
    }
    func revokeCalendarFeed(_ input: Operations.RevokeCalendarFeed.Input) async throws -> Operations.RevokeCalendarFeed.Output {
        throw Unimplemented("revokeCalendarFeed")
    }
    func listIntegrations(_ input: Operations.ListIntegrations.Input) async throws -> Operations.ListIntegrations.Output {
        throw Unimplemented("listIntegrations")
    }
    func createIntegration(_ input: Operations.CreateIntegration.Input) async throws -> Operations.CreateIntegration.Output {
        throw Unimplemented("createIntegration")
    }
    func revokeIntegration(_ input: Operations.RevokeIntegration.Input) async throws -> Operations.RevokeIntegration.Output {
        throw Unimplemented("revokeIntegration")
    }
    func listDiary(_ input: Operations.ListDiary.Input) async throws -> Operations.ListDiary.Output { throw Unimplemented("listDiary") }
    func logWatch(_ input: Operations.LogWatch.Input) async throws -> Operations.LogWatch.Output { throw Unimplemented("logWatch") }
    func updateWatch(_ input: Operations.UpdateWatch.Input) async throws -> Operations.UpdateWatch.Output { throw Unimplemented("updateWatch") }
    func deleteWatch(_ input: Operations.DeleteWatch.Input) async throws -> Operations.DeleteWatch.Output { throw Unimplemented("deleteWatch") }
    func searchTitles(_ input: Operations.SearchTitles.Input) async throws -> Operations.SearchTitles.Output { throw Unimplemented("searchTitles") }
    func getLastSearch(_ input: Operations.GetLastSearch.Input) async throws -> Operations.GetLastSearch.Output {
        throw Unimplemented("getLastSearch")
    }
    func listRecentSearches(_ input: Operations.ListRecentSearches.Input) async throws -> Operations.ListRecentSearches.Output {
        throw Unimplemented("listRecentSearches")
    }
    func deleteRecentSearch(_ input: Operations.DeleteRecentSearch.Input) async throws -> Operations.DeleteRecentSearch.Output {
        throw Unimplemented("deleteRecentSearch")
    }
    func listOffers(_ input: Operations.ListOffers.Input) async throws -> Operations.ListOffers.Output { throw Unimplemented("listOffers") }
    func reportShopOrder(_ input: Operations.ReportShopOrder.Input) async throws -> Operations.ReportShopOrder.Output {
        throw Unimplemented("reportShopOrder")
    }
    func listAdvertisers(_ input: Operations.ListAdvertisers.Input) async throws -> Operations.ListAdvertisers.Output {
        throw Unimplemented("listAdvertisers")
    }
    func createAdvertiser(_ input: Operations.CreateAdvertiser.Input) async throws -> Operations.CreateAdvertiser.Output {
        throw Unimplemented("createAdvertiser")
    }
    func listAdminOffers(_ input: Operations.ListAdminOffers.Input) async throws -> Operations.ListAdminOffers.Output {
        throw Unimplemented("listAdminOffers")
    }
    func createOffer(_ input: Operations.CreateOffer.Input) async throws -> Operations.CreateOffer.Output { throw Unimplemented("createOffer") }
    func getAdminOffer(_ input: Operations.GetAdminOffer.Input) async throws -> Operations.GetAdminOffer.Output {
        throw Unimplemented("getAdminOffer")
    }
    func replaceOffer(_ input: Operations.ReplaceOffer.Input) async throws -> Operations.ReplaceOffer.Output { throw Unimplemented("replaceOffer") }
    func deleteOffer(_ input: Operations.DeleteOffer.Input) async throws -> Operations.DeleteOffer.Output { throw Unimplemented("deleteOffer") }
    func getOfferReport(_ input: Operations.GetOfferReport.Input) async throws -> Operations.GetOfferReport.Output {
        throw Unimplemented("getOfferReport")
    }
    func getStatistics(_ input: Operations.GetStatistics.Input) async throws -> Operations.GetStatistics.Output {
        throw Unimplemented("getStatistics")
    }
    func listCustomLists(_ input: Operations.ListCustomLists.Input) async throws -> Operations.ListCustomLists.Output {
        throw Unimplemented("listCustomLists")
    }
    func createCustomList(_ input: Operations.CreateCustomList.Input) async throws -> Operations.CreateCustomList.Output {
        throw Unimplemented("createCustomList")
    }
    func getCustomList(_ input: Operations.GetCustomList.Input) async throws -> Operations.GetCustomList.Output {
        throw Unimplemented("getCustomList")
    }
    func updateCustomList(_ input: Operations.UpdateCustomList.Input) async throws -> Operations.UpdateCustomList.Output {
        throw Unimplemented("updateCustomList")
    }
    func deleteCustomList(_ input: Operations.DeleteCustomList.Input) async throws -> Operations.DeleteCustomList.Output {
        throw Unimplemented("deleteCustomList")
    }
    func putCustomListItem(_ input: Operations.PutCustomListItem.Input) async throws -> Operations.PutCustomListItem.Output {
        throw Unimplemented("putCustomListItem")
    }
    func deleteCustomListItem(_ input: Operations.DeleteCustomListItem.Input) async throws -> Operations.DeleteCustomListItem.Output {
        throw Unimplemented("deleteCustomListItem")
    }
    func shareCustomList(_ input: Operations.ShareCustomList.Input) async throws -> Operations.ShareCustomList.Output {
        throw Unimplemented("shareCustomList")
    }
    func unshareCustomList(_ input: Operations.UnshareCustomList.Input) async throws -> Operations.UnshareCustomList.Output {
        throw Unimplemented("unshareCustomList")
    }
    func getSharedList(_ input: Operations.GetSharedList.Input) async throws -> Operations.GetSharedList.Output {
        throw Unimplemented("getSharedList")
    }
    func exportBackup(_ input: Operations.ExportBackup.Input) async throws -> Operations.ExportBackup.Output { throw Unimplemented("exportBackup") }
    func exportLetterboxd(_ input: Operations.ExportLetterboxd.Input) async throws -> Operations.ExportLetterboxd.Output {
        throw Unimplemented("exportLetterboxd")
    }
    func exportCustomList(_ input: Operations.ExportCustomList.Input) async throws -> Operations.ExportCustomList.Output {
        throw Unimplemented("exportCustomList")
    }
}
