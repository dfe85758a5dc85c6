import Foundation
import HTTPTypes
import Hummingbird

/// A route of the site: its raw value is the method and the path pattern (`"GET /movies/:id"`),
/// relative to the router group it is registered on. The router registers every case, and every
/// link a page prints is built from the same case, so a path is written once, here.
protocol SiteRoute: RawRepresentable<String>, CaseIterable, Sendable {
    /// The router group's path ("" for the site's root).
    static var group: String { get }
}

extension SiteRoute {
    var method: HTTPRequest.Method { HTTPRequest.Method(String(rawValue.prefix { $0 != " " }))! }
    /// The pattern the router matches, relative to the group.
    var pattern: String {
        guard let space = rawValue.utf8.firstIndex(of: UInt8(ascii: " ")) else { return "" }
        return String(rawValue[rawValue.utf8.index(after: space)...])
    }
    /// The pattern as a full path (`/admin/offers/:id`).
    var fullPattern: String { Self.group + (pattern == "/" && !Self.group.isEmpty ? "" : pattern) }

    /// The link for a route without parameters.
    var path: String { fullPattern }

    /// Whether `path` (without its query) is one of this route's addresses.
    func matches(_ path: Substring) -> Bool {
        let wanted = fullPattern.split(separator: "/")
        let parts = path.split(separator: "/")
        return wanted.count == parts.count && zip(wanted, parts).allSatisfy { $0.hasPrefix(":") || $0 == $1 }
    }
}

extension RouterMethods where Context == AppRequestContext {
    /// Registers `handler` for the route's method and pattern.
    @discardableResult
    func on(_ route: some SiteRoute, use handler: @escaping @Sendable (Request, AppRequestContext) async throws -> Response) -> Self {
        on(RouterPath(route.pattern), method: route.method, use: handler)
    }
}

/// The pages, forms and files of the site outside the console and the API.
enum Route: String, SiteRoute {
    static let group = ""

    case home = "GET /"
    case movies = "GET /movies"
    case movie = "GET /movies/:id"
    case movieNote = "GET /movies/:id/note"

    case library = "GET /library"
    case saveMovie = "POST /library/movies/:id"
    case confirmRemoveMovie = "GET /library/movies/:id/remove"
    case removeMovie = "POST /library/movies/:id/remove"
    case logMovieWatch = "POST /library/movies/:id/watches"
    case logShowWatch = "POST /library/shows/:id/watches"
    case diary = "GET /diary"
    case editWatch = "GET /diary/:id/edit"
    case saveWatch = "POST /diary/:id"
    case confirmDeleteWatch = "GET /diary/:id/delete"
    case deleteWatch = "POST /diary/:id/delete"
    case statistics = "GET /stats"
    case addMovieToList = "POST /library/movies/:id/lists"
    case addShowToList = "POST /library/shows/:id/lists"

    case lists = "GET /lists"
    case createList = "POST /lists"
    case customList = "GET /lists/:id"
    case saveList = "POST /lists/:id"
    case confirmDeleteList = "GET /lists/:id/delete"
    case deleteList = "POST /lists/:id/delete"
    case shareList = "POST /lists/:id/share"
    case unshareList = "POST /lists/:id/unshare"
    case moveInList = "POST /lists/:id/items/move"
    case removeFromList = "POST /lists/:id/items/remove"
    /// A list shared read-only: `:id` is its link's token; no account needed.
    case sharedList = "GET /shared/lists/:id"
    /// Downloads of a person's data: the whole backup, the Letterboxd import file, one list.
    case exportBackup = "GET /export/backup.json"
    case exportLetterboxd = "GET /export/letterboxd.csv"
    case exportList = "GET /lists/:id/export.csv"
    /// Imports: the page (upload, progress, Needs a match), the upload, its progress as JSON,
    /// cancel, a queued row's resolution, and the report of an import (`:id`).
    case imports = "GET /import"
    case startImport = "POST /import"
    case importProgress = "GET /import/progress"
    case cancelImport = "POST /import/cancel"
    case resolveImportRow = "POST /import/:id/rows"
    case importReport = "GET /import/:id/report.csv"

    case shows = "GET /shows"
    case showFavorites = "GET /shows/favorites"
    /// The shows a person is watching, each with its next episode (`?filter=waiting`: those waiting for one to air).
    case upNext = "GET /shows/up-next"
    /// The episodes of the shows a person tracks and their favourite films' releases, by day.
    case calendar = "GET /shows/calendar"
    /// A person's private iCal feed: `:id` is `<token>.ics` (no session: calendar apps ask it).
    case calendarFeed = "GET /calendar/:id"
    case calendarFeedHead = "HEAD /calendar/:id"
    /// The feed turned on, renewed or off, and the person's time zone (account page).
    case renewCalendarFeed = "POST /account/calendar-feed"
    case revokeCalendarFeed = "POST /account/calendar-feed/revoke"
    case saveTimeZone = "POST /account/time-zone"
    /// Notification targets (ntfy, Gotify, Discord, webhook): the page, one added, its settings
    /// saved, a test sent, resumed after a pause, removed.
    case notifications = "GET /account/notifications"
    case addNotificationTarget = "POST /account/notifications"
    case saveNotificationTarget = "POST /account/notifications/:id"
    case testNotificationTarget = "POST /account/notifications/:id/test"
    case resumeNotificationTarget = "POST /account/notifications/:id/resume"
    case removeNotificationTarget = "POST /account/notifications/:id/remove"
    /// Media servers (Plex, Jellyfin, Emby, Kodi, anything through `generic`): the receiving URL
    /// (`:id` is the integration's private token; no session), the person's Integrations page,
    /// one added, its settings saved, revoked, and a waiting event's title chosen (Needs review).
    case integrationEvent = "POST /integrations/:kind/:id"
    case integrations = "GET /account/integrations"
    case addIntegration = "POST /account/integrations"
    case saveIntegration = "POST /account/integrations/:id"
    case revokeIntegration = "POST /account/integrations/:id/revoke"
    case chooseIntegrationTitle = "POST /account/integrations/events/:id/choose"
    case show = "GET /shows/:id"
    /// An episode's page (`:id` is TVMaze's episode id), and a person's change of it (a watch,
    /// unmarking, a rating); a season's or a whole show's aired episodes marked watched; Stopped and
    /// whether specials count; a season's rating.
    case episode = "GET /episodes/:id"
    case saveEpisode = "POST /library/episodes/:id"
    case watchShowEpisodes = "POST /library/shows/:id/watched"
    case saveShowProgress = "POST /library/shows/:id/progress"
    /// A person's rating of a whole season of the show (`season`, `rating` in the form).
    case rateShowSeason = "POST /library/shows/:id/seasons/rating"
    case saveShow = "POST /library/shows/:id"
    case confirmRemoveShow = "GET /library/shows/:id/remove"
    case removeShow = "POST /library/shows/:id/remove"

    case search = "GET /search"
    case removeRecentSearch = "POST /search/history/:id/remove"
    case poster = "GET /posters"
    case offerClick = "GET /offers/:id/go"
    case offerImage = "GET /offers/images/:id"
    /// Alive (answers without the database); `/healthz` is the older name, kept for probes set up with it.
    case health = "GET /health"
    case healthz = "GET /healthz"
    /// Ready for traffic: the database answers and shutdown has not begun (503 otherwise).
    case ready = "GET /ready"
    /// The service worker, its page for an address it has not kept, and what it keeps for a person.
    case serviceWorker = "GET /sw.js"
    case offline = "GET /offline"
    case offlinePlan = "GET /offline/plan"

    case signUpForm = "GET /account/signup"
    case signUp = "POST /account/signup"
    case signInForm = "GET /account/signin"
    case signIn = "POST /account/signin"
    case signOut = "POST /account/signout"
    case account = "GET /account"
    case changePassword = "POST /account/password"
    case createToken = "POST /account/tokens"
    case revokeToken = "POST /account/tokens/:id/revoke"
    case endSession = "POST /account/sessions/:id/end"
    case endOtherSessions = "POST /account/sessions/end-others"
    case deleteAccountForm = "GET /account/delete"
    case deleteAccount = "POST /account/delete"
}

/// The advertiser console: every route is registered on the `/admin` group, whose gate refuses
/// anyone but a signed-in administrator before a handler runs.
enum AdminRoute: String, SiteRoute {
    static let group = "/admin"

    case home = "GET /"
    case offers = "GET /offers"
    case newOffer = "GET /offers/new"
    case createOffer = "POST /offers"
    case editOffer = "GET /offers/:id/edit"
    case saveOffer = "POST /offers/:id"
    case pauseOffer = "POST /offers/:id/pause"
    case resumeOffer = "POST /offers/:id/resume"
    case confirmDeleteOffer = "GET /offers/:id/delete"
    case deleteOffer = "POST /offers/:id/delete"
    case offerReport = "GET /offers/:id/report"
    case offerReportCSV = "GET /offers/:id/report.csv"

    case newAdvertiser = "GET /advertisers/new"
    case createAdvertiser = "POST /advertisers"
    case editAdvertiser = "GET /advertisers/:id/edit"
    case saveAdvertiser = "POST /advertisers/:id"
    case pauseAdvertiser = "POST /advertisers/:id/pause"
    case resumeAdvertiser = "POST /advertisers/:id/resume"
    case confirmDeleteAdvertiser = "GET /advertisers/:id/delete"
    case deleteAdvertiser = "POST /advertisers/:id/delete"
    case rotateAdvertiserKey = "POST /advertisers/:id/key"
    case advertiserReport = "GET /advertisers/:id/report"
    case advertiserReportCSV = "GET /advertisers/:id/report.csv"
}

/// The JSON API's own routes beside the generated operations (whose paths `openapi.yaml` holds).
enum APIRoute: String, SiteRoute {
    static let group = ""

    case document = "GET /api/openapi.yaml"
    /// Any other address under `/api`: a problem+json 404 (registered for every method).
    case unknown = "GET /api/**"

    /// Every address of the API starts so.
    static let prefix = "/api/"
    /// A person's lists as JSON (`listLibrary` in `openapi.yaml`).
    static let library = "/api/v1/library"
    /// Where a shop reports its orders (`reportShopOrder` in `openapi.yaml`), for the console.
    static func shopOrders(_ shop: Int) -> String { "/api/v1/shops/\(shop)/orders" }
}

/// Links with parameters and queries, built from the routes above.
extension Route {
    static let staticFiles = "/static"
    static let stylesheet = staticFiles + "/app.css"
    static let script = staticFiles + "/app.js"
    static let icon = staticFiles + "/icon.svg"
    static let touchIcon = staticFiles + "/apple-touch-icon.png"
    static let manifest = staticFiles + "/manifest.webmanifest"
    static let tvmazeCredit = "https://www.tvmaze.com/"

    static func searchFor(_ text: String) -> String { search.link(query: ["q": text]) }
    /// Where the no-JavaScript collection button returns: the same search, announcing what the button did.
    static func searchDone(_ searchPath: String, _ action: String) -> String {
        searchPath + (searchPath.contains("?") ? "&" : "?") + "done=\(action)"
    }
    static func showsPage(_ page: Int) -> String { page > 1 ? shows.link(query: ["page": "\(page)"]) : shows.path }
    static func showSearch(_ text: String) -> String { shows.link(query: ["q": text]) }
    static func showFavoritesPage(_ page: Int) -> String { showFavorites.link(query: ["page": "\(page)"]) }
    static func upNextPage(_ filter: UpNextFilter, page: Int = 1) -> String {
        upNext.link(query: ["filter": filter == .toWatch ? nil : filter.rawValue, "page": page > 1 ? String(page) : nil])
    }
    /// An integration's receiving URL on this site.
    static func integrationURL(base: String, kind: IntegrationKind, token: String) -> String {
        base + integrationEvent.link(token).replacingOccurrences(of: ":kind", with: kind.rawValue)
    }
    /// The feed's address on this site (`base`: `https://host`, no trailing slash).
    static func calendarFeedURL(base: String, token: String) -> String { base + calendarFeed.link(token + ".ics") }
    static func moviesOf(year: Int) -> String { movies.link(query: ["year": "\(year)"]) }
    static func removeMovieConfirmation(_ id: Int, returnTo: String) -> String { confirmRemoveMovie.link(id, query: ["return_to": returnTo]) }
    static func removeShowConfirmation(_ id: Int, returnTo: String) -> String { confirmRemoveShow.link(id, query: ["return_to": returnTo]) }
    static func note(_ id: Int, returnTo: String) -> String { movieNote.link(id, query: ["return_to": returnTo]) }

    static func revokeTokenLink(_ id: UUID) -> String { revokeToken.link(id.uuidString.lowercased()) }
    static func endSessionLink(_ handle: String) -> String { endSession.link(handle) }
    static func offerImageLink(_ id: UUID) -> String { offerImage.link(id.uuidString.lowercased()) }
    /// `/offers/7/go?placement=banner&title=movie:12` (`listing=movies-2024` for a sponsored card).
    static func offerClickLink(_ id: Int, title: TitleRef?, placement: Placement, listing: String? = nil) -> String {
        offerClick.link(id) + "?placement=\(placement.rawValue)" + (title.map { "&title=\($0)" } ?? "")
            + (listing.map { "&listing=\($0)" } ?? "")
    }

    static func posterImage(source: String?, seed: Int, title: String) -> String {
        poster.link(query: ["seed": "\(seed)", "title": String(title.prefix(80)), "src": source])
    }

    static func query(_ value: String) -> String { PercentEncoding.query(value) }

    /// A `return_to` target must be a path on this site: never another host (no open redirect).
    static func safeReturnPath(_ raw: String?, fallback: String) -> String {
        guard let raw, raw.count <= 512, raw.hasPrefix("/"), !raw.hasPrefix("//"), !raw.hasPrefix("/\\"),
            !raw.contains(where: { $0.isNewline || $0 == "\\" || $0.asciiValue.map { $0 < 0x20 } == true })
        else { return fallback }
        return raw
    }
}

extension AdminRoute {
    /// `/admin/offers/7/report?from=…&to=…` (or the CSV download) for a report's subject.
    static func report(_ subject: OfferTracker.Scope, range: ReportRange? = nil, csv: Bool = false) -> String {
        let (route, id): (AdminRoute, Int) =
            switch subject {
            case .offer(let id): (csv ? .offerReportCSV : .offerReport, id)
            case .advertiser(let id): (csv ? .advertiserReportCSV : .advertiserReport, id)
            }
        return route.link(id, query: ["from": range?.from, "to": range?.to])
    }
}
