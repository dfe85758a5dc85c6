import Foundation
import Observation
import PopcornSwirlAPI

/// A show in a list (the TVMaze challenge's View-01): poster, name, and whether it is a favourite.
public struct ShowRow: Sendable, Equatable, Identifiable {
    public var id: Int64
    public var name: String
    public var posterURL: String?
    public var favorite: Bool

    /// The row's action: green "Favorite" when not saved, red "Delete" when saved.
    public var actionLabel: String { favorite ? "Delete" : "Favorite" }

    var card: TitleCard { TitleCard(kind: .show, id: id, title: name, posterURL: posterURL) }
}

@MainActor
enum ShowChanges {
    static func record(_ core: AppCore, _ change: PendingChange, card: TitleCard?) -> ErrorDialog? {
        do {
            try core.store.record(change, card: card, madeAt: core.now())
            return nil
        } catch {
            return ErrorDialog(message: KitTexts.saveShowFailed)
        }
    }
}

/// TV Shows: TVMaze's shows page by page, each with its favourite action; removing a favourite
/// asks first.
@MainActor @Observable
public final class ShowsViewModel {
    public private(set) var page = 0
    public private(set) var rows: [ShowRow] = []
    public private(set) var isEnd = false
    public private(set) var offlineNote: String?
    public var dialog: ErrorDialog?
    /// The show waiting for the person's yes before it leaves the favourites, and the question.
    public private(set) var confirmation: (row: ShowRow, question: String)?
    private var shows: [Components.Schemas.Show] = []
    private let core: AppCore

    public init(core: AppCore) { self.core = core }

    /// A page of TVMaze's shows (from 1); page 1 starts the list again.
    public func load(page: Int = 1) async {
        let api = core.api
        let loaded = await core.load(AnswerKey.shows(page: page)) { () async throws -> Components.Schemas.ShowList? in
            if case .ok(let answer) = try await api.listShows(query: .init(page: page)) { return try answer.body.json }
            return nil
        }
        guard let loaded else {
            dialog = ErrorDialog(message: KitTexts.fetchFailed)
            return
        }
        self.page = page
        shows = page == 1 ? loaded.value.shows : shows + loaded.value.shows
        isEnd = loaded.value.isEnd
        offlineNote = loaded.keptAt.map(KitTexts.offline(since:))
        refresh()
    }

    public func loadMore() async {
        guard !isEnd else { return }
        await load(page: page + 1)
    }

    /// The row's action: saves at once, or asks before removing.
    public func tapAction(_ row: ShowRow) {
        if row.favorite {
            confirmation = (row, KitTexts.confirmRemoveShow(row.name))
        } else {
            dialog = ShowChanges.record(core, .showFavorite(id: row.id, favorite: true), card: row.card)
            refresh()
        }
    }

    public func confirmRemoval() {
        guard let row = confirmation?.row else { return }
        confirmation = nil
        dialog = ShowChanges.record(core, .showFavorite(id: row.id, favorite: false), card: row.card)
        refresh()
    }

    public func cancelRemoval() { confirmation = nil }

    private func refresh() {
        rows = shows.map { show in
            ShowRow(id: show.id, name: show.name, posterURL: show.posterUrl, favorite: (try? core.store.title(.show, show.id))?.favorite ?? false)
        }
    }
}

/// A show's screen: its details, its seasons and episodes with the person's checks, the seasons'
/// ratings and progress; episodes checked offline wait in the outbox.
@MainActor @Observable
public final class ShowViewModel {
    public struct EpisodeRow: Sendable, Equatable, Identifiable {
        public var id: Int64
        public var season: Int
        public var number: Int?
        public var name: String
        public var airdate: String?
        public var watched: Bool
        /// "S01E02", or "Special" for one without a number.
        public var code: String {
            number.map { String(format: "S%02dE%02d", season, $0) } ?? "Special"
        }
    }
    public struct Season: Sendable, Equatable, Identifiable {
        public var number: Int
        public var episodes: [EpisodeRow]
        public var rating: Int?
        public var id: Int { number }
    }

    public let id: Int64
    public private(set) var show: Components.Schemas.Show?
    public private(set) var favorite = false
    public private(set) var seasons: [Season] = []
    public private(set) var offlineNote: String?
    public var dialog: ErrorDialog?
    public let offers: OffersViewModel
    private var listed: Components.Schemas.ShowEpisodes?
    private let core: AppCore

    public init(core: AppCore, id: Int64) {
        self.core = core
        self.id = id
        offers = OffersViewModel(core: core, kind: .show, id: id)
    }

    /// Episodes watched of those listed.
    public var progress: (watched: Int, total: Int) {
        let all = seasons.flatMap(\.episodes)
        return (all.filter(\.watched).count, all.count)
    }

    public func load() async {
        let id = id
        let api = core.api
        let detail = await core.load(AnswerKey.show(id)) { () async throws -> Components.Schemas.ShowDetail? in
            if case .ok(let answer) = try await api.getShow(path: .init(id: id)) { return try answer.body.json }
            return nil
        }
        let episodes = await core.load(AnswerKey.episodes(show: id)) { () async throws -> Components.Schemas.ShowEpisodes? in
            if case .ok(let answer) = try await api.listShowEpisodes(path: .init(id: id)) { return try answer.body.json }
            return nil
        }
        guard let detail else {
            dialog = ErrorDialog(message: KitTexts.fetchFailed)
            return
        }
        show = detail.value.show
        listed = episodes?.value
        offlineNote = (detail.keptAt ?? episodes?.keptAt).map(KitTexts.offline(since:))
        refresh()
        await offers.load()
    }

    public func toggleFavorite() {
        guard let show else { return }
        let card = TitleCard(kind: .show, id: show.id, title: show.name, posterURL: show.posterUrl)
        dialog = ShowChanges.record(core, .showFavorite(id: id, favorite: !favorite), card: card)
        refresh()
    }

    /// Checks an episode (watched now) or unchecks it.
    public func toggle(_ episode: EpisodeRow) {
        dialog = ShowChanges.record(core, .episode(id: episode.id, showId: id, watched: !episode.watched), card: nil)
        refresh()
    }

    private func refresh() {
        favorite = (try? core.store.title(.show, id))?.favorite ?? false
        let states = (try? core.store.episodes(show: id)) ?? [:]
        let ratings = (try? core.store.seasonRatings(show: id)) ?? [:]
        func row(_ episode: Components.Schemas.Episode) -> EpisodeRow {
            EpisodeRow(
                id: episode.id, season: episode.season, number: episode.number, name: episode.name, airdate: episode.airdate,
                watched: (states[episode.id]?.watchCount ?? 0) > 0)
        }
        seasons = (listed?.seasons ?? []).map { Season(number: $0.number, episodes: $0.episodes.map(row), rating: ratings[$0.number]) }
    }
}

/// Up Next: the next episode of each show the person is watching, as the server worked it out
/// at the last sync (kept for offline).
@MainActor @Observable
public final class UpNextViewModel {
    public struct Item: Sendable, Equatable, Identifiable {
        public var id: Int64
        public var show: String
        public var next: String?
        public var remaining: Int
        public var posterURL: String?
    }
    public private(set) var items: [Item] = []
    public private(set) var offlineNote: String?
    public var dialog: ErrorDialog?
    private let core: AppCore

    public init(core: AppCore) { self.core = core }

    public func load() async {
        let api = core.api
        let loaded = await core.load(AnswerKey.upNext) { () async throws -> Components.Schemas.UpNext? in
            if case .ok(let answer) = try await api.listUpNext() { return try answer.body.json }
            return nil
        }
        guard let loaded else {
            dialog = ErrorDialog(message: KitTexts.fetchFailed)
            return
        }
        offlineNote = loaded.keptAt.map(KitTexts.offline(since:))
        items = loaded.value.items.map { item in
            Item(
                id: item.show.id, show: item.show.name,
                next: item.next.map { episode in
                    let code = episode.number.map { String(format: "S%02dE%02d", episode.season, $0) } ?? "Special"
                    return "\(code) \(episode.name)"
                }, remaining: item.remaining, posterURL: item.show.posterUrl)
        }
    }
}
