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
    /// The cards as rendered (`Caches.cards`).
    let cards: DeclaredCache<CardKey, String>

    static func load(cards: DeclaredCache<CardKey, String>) async throws -> PageRenderer {
        guard let directory = Bundle.module.url(forResource: "templates", withExtension: nil, subdirectory: "Resources") else {
            throw RenderError.missingTemplates
        }
        UTF8HTMLEscaping.register()
        return PageRenderer(library: try await MustacheLibrary(directory: directory.path), cards: cards)
    }

    enum RenderError: Error {
        case missingTemplates
        case missingTemplate(String)
    }

    /// A card of the person's lists, rendered on its own (its template reads only the card) or
    /// found in `cards`.
    func card(_ view: MovieCardView) -> RenderedCard {
        RenderedCard(html: cards.value(.movie(view), bytes: CardKey.bytes) { library.render(view, withTemplate: "movies/card") ?? "" })
    }

    func card(_ view: ShowCardView) -> RenderedCard {
        RenderedCard(html: cards.value(.show(view), bytes: CardKey.bytes) { library.render(view, withTemplate: "shows/card") ?? "" })
    }

    func row(_ view: EpisodeRowView) -> String {
        cards.value(.episode(view), bytes: CardKey.bytes) { library.render(view, withTemplate: "shows/episode_row") ?? "" }
    }

    func calendarRow(_ view: CalendarPage.Item) -> String {
        cards.value(.calendarItem(view), bytes: CardKey.bytes) { library.render(view, withTemplate: "shows/calendar_item") ?? "" }
    }

    func html<P: Page>(_ page: P) throws -> String {
        LookupCheck.check(page: page)
        guard let html = library.render(page, withTemplate: P.template) else { throw RenderError.missingTemplate(P.template) }
        return html
    }

    /// The renderer answering one request: its pages are filled in for the request's visitor.
    func `for`(_ context: AppRequestContext) -> PageResponder {
        PageResponder(renderer: self, visitor: context.pageVisitor, viewer: context.viewer)
    }

    static func htmlResponse(_ body: ResponseBody, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        // Every page carries the person's own state and a CSRF token: never kept by a shared cache or on disk.
        headers[.cacheControl] = "no-store, private"
        return Response(status: status, headers: headers, body: body)
    }
}

/// Pages answered for one visitor (`PageRenderer.for(_:)`): their form token and the header's
/// account link are the visitor's, handed over as a value.
struct PageResponder: Sendable {
    let renderer: PageRenderer
    let visitor: PageVisitor
    /// Who the page's offers are counted for.
    let viewer: OfferViewer

    func response(_ page: some Page, status: HTTPResponse.Status = .ok) throws -> Response {
        PageParts(try renderer.html(page)).response(for: visitor, status: status)
    }

    func response(_ parts: PageParts, cards: [String] = [], status: HTTPResponse.Status = .ok) -> Response {
        parts.response(for: visitor, cards: cards, status: status)
    }
}
