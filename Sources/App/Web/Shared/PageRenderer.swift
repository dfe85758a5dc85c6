import Foundation
import Hummingbird
import Mustache

/// A view model that names its template (a path under `Resources/templates`, without `.mustache`).
/// Page view models are named `…Page`.
protocol Page {
    static var template: String { get }
}

/// Renders a view-model struct with its template into an HTML response.
struct PageRenderer: Sendable {
    let library: MustacheLibrary
    let cards = CardFragments()
    /// Sponsored cards drawn for placed offers.
    let sponsoredCards = DrawnOnce<PlacedOffer>()

    static func load() async throws -> PageRenderer {
        guard let directory = Bundle.module.url(forResource: "templates", withExtension: nil, subdirectory: "Resources") else {
            throw RenderError.missingTemplates
        }
        UTF8HTMLEscaping.register()
        return PageRenderer(library: try await MustacheLibrary(directory: directory.path))
    }

    enum RenderError: Error {
        case missingTemplates
        case missingTemplate(String)
    }

    /// A card of the person's lists, rendered on its own (its template reads only the card) or
    /// found in `cards`.
    func card(_ view: MovieCardView) -> RenderedCard {
        RenderedCard(html: cards.html(.movie(view)) { library.render(view, withTemplate: "movies/card") ?? "" })
    }

    func card(_ view: ShowCardView) -> RenderedCard {
        RenderedCard(html: cards.html(.show(view)) { library.render(view, withTemplate: "shows/card") ?? "" })
    }

    func html<P: Page>(_ page: P) throws -> String {
        guard let html = library.render(page, withTemplate: P.template) else { throw RenderError.missingTemplate(P.template) }
        return html
    }

    /// The page with the request's CSRF token in its forms (see `PageParts`).
    func response(_ page: some Page, status: HTTPResponse.Status = .ok) throws -> Response {
        PageParts(try html(page)).response(status: status)
    }

    static func htmlResponse(_ body: ResponseBody, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        // Every page carries the person's own state and a CSRF token: never kept by a shared cache or on disk.
        headers[.cacheControl] = "no-store, private"
        return Response(status: status, headers: headers, body: body)
    }
}
