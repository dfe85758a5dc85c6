import Foundation
import Hummingbird

/// The tracked click-through to a partner shop, and the shops' logos and product images.
struct OffersController {
    let offers: OfferService
    let catalog: MovieCatalog
    let shows: ShowCatalog
    let renderer: PageRenderer

    func register(on router: RouterGroup<AppRequestContext>) {
        router.on(Route.offerClick) { request, context in try await go(request, context) }
        router.on(Route.offerImage) { _, context in try await image(context) }
    }

    /// Counts the click and sends the visitor (303) to the offer's stored landing URL with context
    /// added. Nothing in the request can change where it goes; an unknown title is left out.
    func go(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let raw = context.parameters.get("id"), raw.count <= 12, let id = Int(raw), id > 0,
            let offer = try await offers.liveOffer(id)
        else {
            return try ErrorPages.notFound(renderer, "This offer has ended or does not exist. Browse the films for current offers.")
        }
        let (title, name) = await resolve(request.uri.queryParameters["title"].flatMap { TitleRef(String($0)) })
        guard let destination = await offers.clickThrough(offer, title: title, titleName: name, visitor: context.visitor) else {
            return try ErrorPages.notFound(renderer, "This offer has no valid shop address.")
        }
        var response = Response.redirect(to: destination.absoluteString, type: .normal)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// The title's name from the catalogue (usually already cached: the visitor just saw it).
    /// A title that does not exist is dropped; one that cannot be looked up keeps its id only.
    private func resolve(_ title: TitleRef?) async -> (TitleRef?, String?) {
        guard let title else { return (nil, nil) }
        switch title.kind {
        case .movie:
            switch await catalog.movie(id: title.id) {
            case .found(let movie, _): return (title, movie.title)
            case .notFound: return (nil, nil)
            case .unavailable: return (title, nil)
            }
        case .show:
            switch await shows.show(id: title.id) {
            case .found(let show, _): return (title, show.name)
            case .notFound: return (nil, nil)
            case .unavailable: return (title, nil)
            }
        }
    }

    func image(_ context: AppRequestContext) async throws -> Response {
        guard let raw = context.parameters.get("id"), let id = UUID(uuidString: raw), let image = try await offers.store.image(id) else {
            throw HTTPError(.notFound, message: "There is no image at this address.")
        }
        var headers = HTTPFields()
        headers[.contentType] = image.contentType
        // Images never change: a new upload gets a new id.
        headers[.cacheControl] = "public, max-age=31536000, immutable"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: image.bytes)))
    }
}
