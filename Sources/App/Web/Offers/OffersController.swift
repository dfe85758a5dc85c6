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

    /// Counts the click (once per visitor, offer and 30 minutes: see `OfferTracker.Click`) and sends the
    /// visitor (303) to the offer's stored landing URL with context added. Nothing in the request can
    /// change where it goes; an unknown title is left out.
    ///
    /// A request another site's page makes without a navigation (an `<img>`, a script, a fetch, a
    /// frame: `FetchMetadata.isCrossSiteSubresource`) is recorded as a discarded click and answered
    /// 204 No Content: no page and no redirect, so an embedded link fetches nothing from the shop
    /// either (a redirect would send the browser on to the shop's tagged URL, inflating its own
    /// counts); a 204 is also not an error page for a request that did nothing wrong.
    func go(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let raw = context.parameters.get("id"), raw.count <= 12, let id = Int(raw), id > 0,
            let offer = try await offers.liveOffer(id)
        else {
            return try ErrorPages.notFound(renderer.for(context), "This offer has ended or does not exist. Browse the films for current offers.")
        }
        let titleRef = request.uri.queryParameters["title"].flatMap { TitleRef(String($0)) }
        if FetchMetadata(request.headers).isCrossSiteSubresource {
            // The title as written (well-formed only): no catalogue lookup for a request that is not a visit.
            await offers.discardCrossSite(offer, title: titleRef, viewer: context.viewer)
            var response = Response(status: .noContent)
            response.headers[.cacheControl] = "no-store"
            return response
        }
        let query = request.uri.queryParameters
        // Where the offer was shown, as its link says; a link without one (an old page) counts as a banner.
        let placement = query["placement"].flatMap { Placement(rawValue: String($0)) } ?? .banner
        let listing = ClickDetails.listingName(query["listing"].map(String.init))
        guard
            let destination = await offers.clickThrough(
                offer, title: await resolve(titleRef), placement: placement, listing: listing, viewer: context.viewer)
        else {
            return try ErrorPages.notFound(renderer.for(context), "This offer has no valid shop address.")
        }
        var response = Response.redirect(to: destination.absoluteString, type: .normal)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// The title's name and year from the catalogue (usually already cached: the visitor just saw it).
    /// A title that does not exist is dropped; one that cannot be looked up keeps its id only.
    private func resolve(_ title: TitleRef?) async -> ClickDetails.Title? {
        guard let title else { return nil }
        switch title.kind {
        case .movie:
            switch await catalog.movie(id: title.id) {
            case .found(let movie, _): return ClickDetails.Title(ref: title, name: movie.title, year: movie.year)
            case .notFound: return nil
            case .unavailable: return ClickDetails.Title(ref: title, name: nil, year: nil)
            }
        case .show:
            switch await shows.show(id: title.id) {
            case .found(let show, _): return ClickDetails.Title(ref: title, name: show.name, year: show.premieredYear)
            case .notFound: return nil
            case .unavailable: return ClickDetails.Title(ref: title, name: nil, year: nil)
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
