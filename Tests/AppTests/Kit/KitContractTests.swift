import Foundation
import HummingbirdTesting
import PopcornSwirlAPI
import PopcornSwirlKit
import Testing

@testable import App

/// PopcornSwirlKit against the real server, over HTTP on 127.0.0.1: every view model through the
/// generated client and the platform's transport (AsyncHTTPClient here), changes sent by the
/// sync engine and found on the server once, and the same screens from the store when the server
/// is gone.
@Suite("PopcornSwirlKit against the server")
struct KitContractTests {
    static let token = testToken("kitcontract")

    @Test("each view model's screen from the server; changes made through them land on the server once; offline they show what was kept")
    func viewModels() async throws {
        try await TestApp.with(configure: { $0.port = 0 }) { app in
            let (profile, _) = try await app.signedIn("ana")
            try await app.give(Self.token, to: profile)
            let store = try KitStore.inMemory()
            try await app.test(.live) { client in
                try await Self.online(app, profile: profile, store: store, port: try #require(client.port))
            }
            try await Self.offline(app, store: store)
        }
    }

    @MainActor
    static func online(_ app: TestApp, profile: UUID, store: KitStore, port: Int) async throws {
        let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
        // The whole suite runs at once on CI's two cores: an answer can take minutes there (the
        // app's 30 s bound made a year's films fail), so the online part waits up to 10.
        let api = APIClientFactory.makeClient(
            serverURL: url, token: { Self.token }, transport: APIClientFactory.defaultTransport(timeout: .seconds(600)), retry: .none)
        let core = AppCore(api: api, store: store, serverURL: url, now: { app.clock.now() })

        // Movies of a year: the year's films; a favourite and a watched comment made on the screen.
        let movies = MoviesViewModel(core: core, year: 2026)
        await movies.load()
        let rows = movies.rows
        #expect(movies.dialog == nil && movies.offlineNote == nil)
        let first = try #require(rows.first)
        #expect(rows.count > 3 && !first.favorite)
        movies.toggleFavorite(first)
        movies.setWatched(rows[1], true, comment: "Saw it at the cinema")
        #expect(movies.rows.first?.favorite == true, "shown at once")

        // A film's screen: details, its flags, its offers with the signed links.
        let film = MovieViewModel(core: core, id: rows[1].id)
        await film.load()
        #expect(film.movie?.title == rows[1].title && film.saved?.note == "Saw it at the cinema")
        let offers = film.offers.items
        #expect(!offers.isEmpty && offers.allSatisfy { $0.link?.absoluteString.hasPrefix(url.absoluteString) == true })

        var report = await core.sync.sync()
        #expect(report.reachedServer && report.sent == 2 && report.refused.isEmpty, "\(report)")
        #expect(try await app.services.library.item(profile: profile, movieID: Int(first.id))?.favorite == true)
        let watched = try await app.services.library.item(profile: profile, movieID: Int(rows[1].id))
        #expect(watched?.watched == true && watched?.note == "Saw it at the cinema")
        #expect(try await app.services.diary.page(profile: profile, page: 1).watches.count == 1, "one watch logged, once")

        // Search: a welcome before any search; a search; the last one when the screen opens again.
        let search = SearchViewModel(core: core)
        await search.open()
        #expect(search.welcome == KitTexts.searchWelcome)
        await search.search("spider")
        #expect(search.results?.movies.isEmpty == false)
        let reopened = SearchViewModel(core: core)
        await reopened.open()
        #expect(reopened.query.lowercased() == "spider" && reopened.welcome == nil)

        // My Lists from the device's copy.
        let lists = MyListsViewModel(core: core)
        lists.show(.combined)
        #expect(Set(lists.rows.map(\.id)) == [first.id, rows[1].id])

        // TV: shows, a favourite, a show's episodes checked, Up Next.
        let shows = ShowsViewModel(core: core)
        await shows.load()
        let listed = try #require(shows.rows.first)
        #expect(!listed.favorite && listed.actionLabel == "Favorite")
        shows.tapAction(listed)
        #expect(shows.rows.first?.actionLabel == "Delete")
        let show = ShowViewModel(core: core, id: 139)
        await show.load()
        #expect(show.show?.name == "Girls")
        if !show.favorite { show.toggleFavorite() }
        let pilot = try #require(show.seasons.first?.episodes.first)
        show.toggle(pilot)
        #expect(show.progress.watched == 1 && show.favorite)
        report = await core.sync.sync()
        #expect(report.reachedServer && report.sent == (listed.id == 139 ? 2 : 3), "\(report)")
        #expect(try await app.services.library.item(profile: profile, movieID: Int(listed.id), kind: .show)?.favorite == true)
        #expect(try await app.services.library.item(profile: profile, movieID: 139, kind: .show)?.favorite == true)
        let upNext = UpNextViewModel(core: core)
        await upNext.load()
        #expect(upNext.items.first?.id == 139 && upNext.items.first?.next?.hasPrefix("S01E02") == true)

        // A change made on the web reaches the device at its next sync.
        _ = try await app.services.library.update(
            profile: profile, movie: try #require(film.movie).appMovie, change: LibraryChange(note: "Edited on the web"))
        report = await core.sync.sync()
        #expect(try report.pulled >= 1 && store.title(.movie, rows[1].id)?.note == "Edited on the web")

        // Removing a favourite show asks first.
        shows.tapAction(try #require(shows.rows.first))
        #expect(shows.confirmation?.question == KitTexts.confirmRemoveShow(listed.name))
        shows.cancelRemoval()
    }

    /// The server is gone: the same screens from the store, marked offline; a change waits.
    @MainActor
    static func offline(_ app: TestApp, store: KitStore) async throws {
        let gone = try #require(URL(string: "http://127.0.0.1:9"))
        let offline = AppCore(
            api: APIClientFactory.makeClient(serverURL: gone, token: { Self.token }, retry: .none), store: store, serverURL: gone,
            now: { app.clock.now() })
        let movies = MoviesViewModel(core: offline, year: 2026)
        await movies.load()
        #expect(movies.offlineNote != nil && !movies.rows.isEmpty && movies.dialog == nil)
        let search = SearchViewModel(core: offline)
        await search.open()
        #expect(search.query.lowercased() == "spider" && search.dialog == nil)
        let show = ShowViewModel(core: offline, id: 139)
        await show.load()
        #expect(show.progress.watched == 1 && show.offlineNote != nil)
        let other = MoviesViewModel(core: offline, year: 1999)
        await other.load()
        #expect(other.dialog == ErrorDialog(message: KitTexts.fetchFailed), "never fetched, offline: the seeds' retry dialog")
        movies.toggleFavorite(try #require(movies.rows.last))
        let report = await offline.sync.sync()
        #expect(try !report.reachedServer && store.waiting().count == 1)
    }
}

extension Components.Schemas.Movie {
    /// The server's film for a direct write in the test (a change made "on the web").
    var appMovie: App.Movie {
        App.Movie(id: Int(id), title: title, director: director, genre: genre, releaseDate: nil, synopsis: synopsis)
    }
}
