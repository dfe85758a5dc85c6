import Foundation
import Hummingbird
import Mustache

/// Renders a view-model struct with a template into an HTML response.
struct PageRenderer: Sendable {
    let library: MustacheLibrary

    static func load() async throws -> PageRenderer {
        guard let directory = Bundle.module.url(forResource: "templates", withExtension: nil, subdirectory: "Resources") else {
            throw RenderError.missingTemplates
        }
        UTF8HTMLEscaping.register()
        return PageRenderer(library: try await MustacheLibrary(directory: directory.path))
    }

    enum RenderError: Error { case missingTemplates, missingTemplate(String) }

    func html(_ template: String, _ view: Any) throws -> String {
        guard let html = library.render(view, withTemplate: template) else { throw RenderError.missingTemplate(template) }
        return html
    }

    /// The page with the request's CSRF token in its forms (see `PageParts`).
    func response(_ template: String, _ view: Any, status: HTTPResponse.Status = .ok) throws -> Response {
        PageParts(try html(template, view)).response(status: status)
    }

    static func htmlResponse(_ body: ResponseBody, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-cache"
        return Response(status: status, headers: headers, body: body)
    }
}

/// The frame around every page: title, the active tab, and an optional banner.
struct Chrome {
    enum Tab { case movies, search, shows, library }

    var pageTitle: String
    var isMovies = false
    var isSearch = false
    var isShows = false
    var isLibrary = false
    var notice: String?
    /// A class on <body>: the show detail page has its own header colour.
    var bodyClass: String?
    /// TVMaze's data is CC BY-SA: TV pages credit it.
    var tvCredit: Bool
    let paths = NavPaths()

    init(_ title: String, tab: Tab?, notice: String? = nil, bodyClass: String? = nil, tvCredit: Bool = false) {
        pageTitle = title
        self.notice = notice
        self.bodyClass = bodyClass
        self.tvCredit = tvCredit
        switch tab {
        case .movies: isMovies = true
        case .search: isSearch = true
        case .shows: isShows = true
        case .library: isLibrary = true
        case nil: break
        }
    }
}

struct NavPaths {
    let home = Paths.home
    let search = Paths.search
    let shows = Paths.shows
    let library = Paths.library(.all)
    let showFavorites = Paths.showFavorites
    let account = Paths.account
    let tvmaze = Paths.tvmazeCredit
    let stylesheet = Paths.stylesheet
    let script = Paths.script
}

enum Formats {
    // DateFormatter is thread-safe for formatting; these are configured once and never mutated.
    nonisolated(unsafe) static let day = utcFormatter("yyyy-MM-dd")
    nonisolated(unsafe) static let longDay = utcFormatter("d MMMM yyyy")
    nonisolated(unsafe) static let moment = utcFormatter("d MMM yyyy, HH:mm 'UTC'")

    private static func utcFormatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter
    }

    /// The banner for anything that is not live: stale cache or the bundled catalogue.
    static func sourceNotice(_ source: CatalogSource, provider: String = "iTunes") -> String? {
        switch source {
        case .live: nil
        case .stale(let savedOn): "Offline — showing results saved on \(moment.string(from: savedOn))"
        case .offlineCatalogue: "Offline — \(provider) can’t be reached, showing PopcornSwirl’s built-in catalogue"
        }
    }

    static func runtime(_ minutes: Int?) -> String? {
        guard let minutes, minutes > 0 else { return nil }
        return minutes >= 60 ? "\(minutes / 60) h \(minutes % 60) min" : "\(minutes) min"
    }

    static func price(_ price: Double?, currency: String?) -> String? {
        guard let price else { return nil }
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        formatter.locale = Locale(identifier: "en_US")
        formatter.currencyCode = currency ?? "USD"
        return formatter.string(from: NSNumber(value: price))
    }
}
