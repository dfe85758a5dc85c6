import ArgumentParser
import Foundation
import PopcornSwirlKit

/// `popcorn`: PopcornSwirl in a terminal, on PopcornSwirlKit. It reads and writes the device's
/// store (`$POPCORN_HOME`, else `~/.popcorn`), so it works offline; changes wait in the outbox
/// until `popcorn sync` (or any command that reaches the server) sends them.
@main
struct Popcorn: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "popcorn",
        abstract: "PopcornSwirl in a terminal: films, shows, episodes and your lists, online or offline.",
        subcommands: [
            Login.self, Movies.self, Movie.self, Search.self, Lists.self, Favorite.self, Watched.self, Note.self, Shows.self, Show.self,
            Episode.self, UpNext.self, Sync.self, Status.self,
        ])
}

/// Where the CLI keeps its settings and store.
struct Home {
    struct Settings: Codable {
        var server: String
        var token: String
    }

    let folder: URL

    init() {
        let path = ProcessInfo.processInfo.environment["POPCORN_HOME"] ?? (NSHomeDirectory() + "/.popcorn")
        folder = URL(fileURLWithPath: path, isDirectory: true)
    }

    var settingsFile: URL { folder.appendingPathComponent("settings.json") }

    func settings() throws -> Settings {
        guard let data = try? Data(contentsOf: settingsFile) else {
            throw ValidationError("Not signed in: run `popcorn login --server URL --token TOKEN` (make a token on your account page).")
        }
        return try JSONDecoder().decode(Settings.self, from: data)
    }

    func save(_ settings: Settings) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try JSONEncoder().encode(settings).write(to: settingsFile, options: .atomic)
        // The token is a secret: only its owner reads the file.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: settingsFile.path)
    }

    /// The kit, over the saved server and token; a command talks to the server once (no
    /// retries: offline, it says so at once and works from the store).
    func core() throws -> AppCore {
        let settings = try settings()
        guard let url = URL(string: settings.server) else { throw ValidationError("The saved server address is not a URL.") }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try KitStore(path: folder.appendingPathComponent("store.sqlite").path)
        let token = settings.token
        let api = APIClientFactory.makeClient(serverURL: url, token: { token }, retry: .none)
        return AppCore(api: api, store: store, serverURL: url)
    }
}

func say(_ line: String) { print(line) }

func sayDialog(_ dialog: ErrorDialog?) throws {
    guard let dialog else { return }
    say("\(dialog.title): \(dialog.message)")
    throw ExitCode(1)
}

func flags(_ favorite: Bool, _ watched: Bool) -> String { (favorite ? "★" : " ") + (watched ? "✓" : " ") }

struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Sign in with a personal API token (made on your account page).")
    @Option(help: "The server's address, e.g. https://popcornswirl.example") var server: String
    @Option(help: "The personal API token (ps_…).") var token: String

    func run() async throws {
        guard URL(string: server)?.scheme != nil else { throw ValidationError("--server must be an address such as https://popcornswirl.example") }
        try Home().save(.init(server: server, token: token))
        say("Signed in to \(server). Run `popcorn sync` to bring your lists here.")
    }
}

struct Movies: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The films of a year (★ favorite, ✓ watched).")
    @Option(help: "The release year.") var year: Int = Calendar(identifier: .gregorian).component(.year, from: Date())

    func run() async throws {
        let model = await MoviesViewModel(core: try Home().core(), year: year)
        await model.load()
        try await sayDialog(model.dialog)
        if let note = await model.offlineNote { say(note) }
        for row in await model.rows {
            say("\(flags(row.favorite, row.watched)) \(row.id)  \(row.title) (\(row.year.map(String.init) ?? "—"))  \(row.genre ?? "")")
        }
    }
}

struct Movie: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "A film: its details, your flags and comment, and partner offers.")
    @Argument(help: "The film's iTunes id.") var id: Int64

    func run() async throws {
        let model = await MovieViewModel(core: try Home().core(), id: id)
        await model.load()
        try await sayDialog(model.dialog)
        if let note = await model.offlineNote { say(note) }
        guard let movie = await model.movie else { return }
        let saved = await model.saved
        say("\(movie.title) (\(movie.year.map(String.init) ?? "—")) \(movie.genre ?? "")")
        if let director = movie.director { say("Directed by \(director)") }
        if let synopsis = movie.synopsis { say(synopsis) }
        say("Favorite: \(saved?.favorite == true ? "yes" : "no")   Watched: \(saved?.watched == true ? "yes" : "no")")
        if let comment = saved?.note { say("Your comment: \(comment)") }
        if let store = await model.storeURL { say("More on iTunes: \(store.absoluteString)") }
        for offer in await model.offers.items {
            say("Offer — \(offer.advertiser): \(offer.headline) \(offer.priceText) \(offer.link?.absoluteString ?? "")")
        }
    }
}

struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Search films and shows by title; without words, your last search.")
    @Argument(help: "Words of the title.") var words: [String] = []

    func run() async throws {
        let model = await SearchViewModel(core: try Home().core())
        if words.isEmpty { await model.open() } else { await model.search(words.joined(separator: " ")) }
        try await sayDialog(model.dialog)
        if let welcome = await model.welcome { say(welcome) }
        if let note = await model.offlineNote { say(note) }
        if let match = await model.lastMatch { say("Best match for “\(await model.query)”: \(match.movie.title) (\(match.movie.id))") }
        for movie in await model.results?.movies ?? [] { say("film \(movie.id)  \(movie.title) (\(movie.year.map(String.init) ?? "—"))") }
        for show in await model.results?.shows ?? [] { say("show \(show.id)  \(show.name)") }
    }
}

struct Lists: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Your Favorites, Watched, both combined, and your custom lists.")
    @Option(help: "favorites, watched or combined.") var list: String = "favorites"

    func run() async throws {
        guard let chosen = SavedList(rawValue: list) else { throw ValidationError("--list is favorites, watched or combined.") }
        let model = await MyListsViewModel(core: try Home().core())
        await model.show(chosen)
        try await sayDialog(model.dialog)
        for row in await model.rows { say("\(flags(row.favorite, row.watched)) \(row.id)  \(row.title)") }
        for (list, items) in await model.customLists { say("List “\(list.name)”: \(items.map(\.title).joined(separator: ", "))") }
    }
}

struct Favorite: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Add a film (or with --show, a TV show) to your favorites, or --remove it.")
    @Argument(help: "The film's iTunes id, or the show's TVMaze id.") var id: Int64
    @Flag(help: "A TV show.") var show = false
    @Flag(help: "Take it out of the favorites.") var remove = false

    func run() async throws {
        let core = try Home().core()
        if show {
            let model = await ShowViewModel(core: core, id: id)
            await model.load()
            await MainActor.run { model.dialog = nil }  // offline and never seen: saved by id
            if await model.favorite == remove { await model.toggleFavorite() }
            try await sayDialog(model.dialog)
        } else {
            let model = await MovieViewModel(core: core, id: id)
            await model.load()
            await MainActor.run { model.dialog = nil }
            if (await model.saved?.favorite ?? false) == remove { await model.toggleFavorite() }
            try await sayDialog(model.dialog)
        }
        try await report(core)
    }
}

struct Watched: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Mark a film watched, with an optional comment, or --unwatch it.")
    @Argument(help: "The film's iTunes id.") var id: Int64
    @Option(help: "Your comment.") var comment: String?
    @Flag(help: "Take it out of Watched.") var unwatch = false

    func run() async throws {
        let core = try Home().core()
        let model = await MovieViewModel(core: core, id: id)
        await model.load()
        await MainActor.run { model.dialog = nil }
        await model.setWatched(!unwatch, comment: comment)
        try await sayDialog(model.dialog)
        try await report(core)
    }
}

struct Note: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Set your comment on a film (empty clears it).")
    @Argument(help: "The film's iTunes id.") var id: Int64
    @Argument(help: "The comment.") var text: String

    func run() async throws {
        let core = try Home().core()
        let model = await MovieViewModel(core: core, id: id)
        await model.load()
        await MainActor.run { model.dialog = nil }
        await model.setNote(text)
        try await sayDialog(model.dialog)
        try await report(core)
    }
}

struct Shows: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "TVMaze's shows, a page at a time (★ favorite).")
    @Option(help: "The page, from 1.") var page: Int = 1

    func run() async throws {
        let model = await ShowsViewModel(core: try Home().core())
        await model.load(page: page)
        try await sayDialog(model.dialog)
        if let note = await model.offlineNote { say(note) }
        for row in await model.rows { say("\(row.favorite ? "★" : " ") \(row.id)  \(row.name)") }
    }
}

struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "A show with its seasons and episodes (✓ watched).")
    @Argument(help: "The show's TVMaze id.") var id: Int64

    func run() async throws {
        let model = await ShowViewModel(core: try Home().core(), id: id)
        await model.load()
        try await sayDialog(model.dialog)
        if let note = await model.offlineNote { say(note) }
        guard let show = await model.show else { return }
        let progress = await model.progress
        say("\(show.name)\(await model.favorite ? " ★" : "")  \(progress.watched) of \(progress.total) watched")
        for season in await model.seasons {
            say("Season \(season.number)\(season.rating.map { " (rated \($0)/10)" } ?? "")")
            for episode in season.episodes { say("  \(episode.watched ? "✓" : " ") \(episode.id)  \(episode.code) \(episode.name)") }
        }
    }
}

struct Episode: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Check an episode as watched (now), or --uncheck it.")
    @Option(help: "The show's TVMaze id.") var show: Int64
    @Argument(help: "The episode's TVMaze id.") var id: Int64
    @Flag(help: "Unmark it.") var uncheck = false

    func run() async throws {
        let core = try Home().core()
        let dialog: ErrorDialog? = await MainActor.run {
            do {
                try core.store.record(.episode(id: id, showId: show, watched: !uncheck), madeAt: core.now())
                return nil
            } catch {
                return ErrorDialog(message: KitTexts.saveShowFailed)
            }
        }
        try sayDialog(dialog)
        try await report(core)
    }
}

struct UpNext: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "up-next", abstract: "The next episode of each show you are watching.")

    func run() async throws {
        let model = await UpNextViewModel(core: try Home().core())
        await model.load()
        try await sayDialog(model.dialog)
        if let note = await model.offlineNote { say(note) }
        for item in await model.items { say("\(item.id)  \(item.show): \(item.next ?? "nothing aired left")  (\(item.remaining) left)") }
    }
}

struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Send the changes made here and bring what changed on the server.")

    func run() async throws {
        let core = try Home().core()
        let report = await core.sync.sync()
        say("Sent \(report.sent), superseded \(report.superseded), refused \(report.refused.count), received \(report.pulled).")
        for message in report.refused { say("Refused: \(message)") }
        if let unreachable = report.unreachable {
            say("Not synced: \(unreachable) \(try core.store.waiting().count) change(s) wait for the next sync.")
            throw ExitCode(2)
        }
    }
}

struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Changes waiting for the server, and those it refused.")

    func run() async throws {
        let core = try Home().core()
        let waiting = try core.store.waiting()
        let refused = try core.store.refused()
        say("\(waiting.count) waiting, \(refused.count) refused.")
        if let synced = try core.store.lastSynced() { say("Last synced \(synced.formatted(.iso8601)).") } else { say("Never synced.") }
        for entry in waiting { say("waiting  \(entry.madeAt.formatted(.iso8601))  \(entry.change.summary)") }
        for entry in refused { say("refused  \(entry.madeAt.formatted(.iso8601))  \(entry.change.summary): \(entry.message ?? "")") }
    }
}

/// After a change: says it is kept, and sends it if the server is there.
func report(_ core: AppCore) async throws {
    let report = await core.sync.sync()
    if report.reachedServer {
        say("Saved.")
    } else {
        say("Saved on this device; it will be sent at the next sync (\(try core.store.waiting().count) waiting).")
    }
}
