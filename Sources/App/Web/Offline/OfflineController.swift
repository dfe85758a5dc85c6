import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// The phone-offline side of the site: the service worker (`/sw.js`, at the root so it controls
/// every page), the page it shows for an address it has not kept (`/offline`), and the person's
/// `OfflinePlan` it keeps pages by (`/offline/plan`).
struct OfflineController {
    let library: LibraryService
    let lists: CustomListService
    let search: SearchService
    let episodes: EpisodeService
    let renderer: PageRenderer
    let worker: ByteBuffer

    init(
        library: LibraryService, lists: CustomListService, search: SearchService, episodes: EpisodeService, renderer: PageRenderer,
        config: AppConfig
    ) throws {
        self.library = library
        self.episodes = episodes
        self.lists = lists
        self.search = search
        self.renderer = renderer
        worker = try Self.worker(config)
    }

    /// `sw.js` with its settings and release filled in: the release is a hash of the worker as
    /// served and of every file it keeps as the app shell, so any change to them installs a new
    /// worker, which replaces the old caches.
    static func worker(_ config: AppConfig) throws -> ByteBuffer {
        guard let resources = Bundle.module.url(forResource: "Resources", withExtension: nil),
            let source = try? String(contentsOf: resources.appendingPathComponent("worker/sw.js"), encoding: .utf8)
        else { throw PageRenderer.RenderError.missingTemplates }
        let script = source.replacingOccurrences(of: "__MAX_POSTERS__", with: String(config.offlinePosters))
            .replacingOccurrences(of: "__MAX_POSTER_MB__", with: String(config.offlinePosterMB))
        var hash = SHA256()
        hash.update(data: Data(script.utf8))
        let shell = resources.appendingPathComponent("public")
        for name in try FileManager.default.contentsOfDirectory(atPath: shell.path).sorted() {
            hash.update(data: Data(name.utf8))
            hash.update(data: try Data(contentsOf: shell.appendingPathComponent(name)))
        }
        let release = Hex.string(hash.finalize().prefix(6))
        return ByteBuffer(string: script.replacingOccurrences(of: "__RELEASE__", with: release))
    }

    func register(on router: RouterGroup<AppRequestContext>) {
        router.on(Route.serviceWorker) { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/javascript; charset=utf-8"
            // Checked on every visit, so a new release reaches the phone at once.
            headers[.cacheControl] = "no-cache"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: worker))
        }
        router.on(Route.offline) { _, context in try renderer.for(context).response(OfflinePage()) }
        router.on(Route.offlinePlan) { _, context in
            try JSONAnswer.ok(
                try await OfflinePlan.make(
                    profile: context.profileID, library: library, lists: lists, search: search, episodes: episodes))
        }
    }
}

/// The page the service worker shows for an address it has not kept, offline: it lists what it
/// has kept (filled in by app.js from the worker).
struct OfflinePage: Page {
    static let template = "offline/offline"
    let chrome = Chrome("You’re offline", tab: nil)
    let library = Route.libraryList(.all)
    let showFavorites = Route.showFavorites.path
}
