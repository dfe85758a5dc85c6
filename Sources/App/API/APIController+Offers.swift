import Foundation
import Hummingbird
import OpenAPIRuntime
import PopcornAPI

/// Partner offers in JSON API v1: a title's offers for everyone, and the advertiser console's
/// operations (`/api/v1/admin/…`) for administrators, over the same services.
extension APIController {
    func listOffers(_ input: Operations.ListOffers.Input) async throws -> Operations.ListOffers.Output {
        // The documented pattern exactly: `movie:0012` or `show:+5` are not accepted either.
        guard let title = TitleRef(input.query.title), title.description == input.query.title else {
            return .badRequest(
                .init(
                    body: .applicationProblemJson(
                        .init(
                            .badRequest,
                            "title must be movie:{iTunes track id} or show:{TVMaze show id}, such as movie:1001."
                        ))))
        }
        guard let session = APIScope.session else { throw APIError.noSession }
        let context: OfferContext
        switch title.kind {
        case .movie:
            switch await titles.movie(title.id, profile: session.profileID) {
            case .found(let movie, _): context = OfferContext(movie: movie)
            case .notFound: return .notFound(.init(body: .applicationProblemJson(.init(.notFound, "No film with id \(title.id) on iTunes."))))
            case .unavailable: return .serviceUnavailable(.init(body: .applicationProblemJson(.init(.serviceUnavailable, ErrorTexts.fetchFailed))))
            }
        case .show:
            switch await titles.show(title.id, profile: session.profileID) {
            case .found(let show, _): context = OfferContext(show: show)
            case .notFound: return .notFound(.init(body: .applicationProblemJson(.init(.notFound, "TVMaze has no show with id \(title.id)."))))
            case .unavailable: return .serviceUnavailable(.init(body: .applicationProblemJson(.init(.serviceUnavailable, ErrorTexts.fetchFailed))))
            }
        }
        let offers = await offers.forTitle(context, viewer: session.viewer)
        return .ok(
            .init(
                body: .json(
                    .init(
                        title: title.description, banner: offers.banner.map(Components.Schemas.Offer.init),
                        offers: offers.shops.map(Components.Schemas.Offer.init)
                    ))))
    }

    // MARK: - Admin
}

extension ValidationFailure {
    /// `OfferAdmin` reports a failed database write as a problem with the whole form.
    var isSaveFailure: Bool { problems["form"] != nil }
}

extension OfferDraft {
    /// The rules' field names → the request body's.
    static let apiFields = ["advertiser": "advertiserId", "price": "priceText", "landing": "landingURL", "starts": "startsOn", "ends": "endsOn"]

    init(_ body: Components.Schemas.OfferInput) {
        self.init()
        advertiserID = String(body.advertiserId)
        headline = body.headline
        description = body.description
        priceText = body.priceText
        landingURL = body.landingURL
        genres = body.genres ?? []
        keywords = (body.keywords ?? []).joined(separator: "\n")
        media = body.media?.rawValue ?? OfferMedia.both.rawValue
        startsOn = body.startsOn
        endsOn = body.endsOn
        weight = String(body.weight ?? 5)
        active = body.active ?? true
    }
}

extension Components.Schemas.Problem {
    /// A problem titled with the status's reason phrase.
    init(_ status: HTTPResponse.Status, _ detail: String, errors: [String: String]? = nil) {
        self.init(
            _type: "about:blank", title: status.reasonPhrase, status: status.code, detail: detail,
            errors: errors.map { .init(additionalProperties: $0) }
        )
    }

    /// A rules failure: every problem in `detail`, and each field's in `errors` (named as in the body).
    static func invalid(_ failure: ValidationFailure, fields: [String: String] = [:], status: HTTPResponse.Status) -> Self {
        let errors = Dictionary(failure.problems.map { (fields[$0.key] ?? $0.key, $0.value) }, uniquingKeysWith: { $0 + " " + $1 })
        return .init(status, failure.summary, errors: errors)
    }
}

extension Components.Schemas.Offer {
    init(_ placed: PlacedOffer) {
        self.init(
            id: placed.offer.id, headline: placed.offer.headline, description: placed.offer.description, priceText: placed.offer.priceText,
            imageURL: placed.imageURL, clickURL: placed.clickURL,
            advertiser: .init(
                id: placed.advertiser.id, name: placed.advertiser.name, description: placed.advertiser.description, logoURL: placed.logoURL),
            demo: placed.offer.demo
        )
    }
}

extension Components.Schemas.AdminAdvertiser {
    init(_ advertiser: Advertiser) {
        self.init(
            id: advertiser.id, name: advertiser.name, description: advertiser.description, website: advertiser.website,
            domains: advertiser.domains, logoURL: advertiser.logoURL, demo: advertiser.demo,
            active: advertiser.active
        )
    }
}

extension Components.Schemas.AdminOffer {
    init(_ offer: Offer, today: String) {
        let media: Components.Schemas.OfferMedia =
            switch offer.media {
            case .movie: .movie
            case .show: .show
            case .both: .both
            }
        let status: Components.Schemas.OfferStatus =
            switch offer.status(on: today) {
            case .live: .live
            case .paused: .paused
            case .scheduled: .scheduled
            case .expired: .expired
            }
        self.init(
            id: offer.id, advertiserId: offer.advertiserID, headline: offer.headline, description: offer.description,
            priceText: offer.priceText, landingURL: offer.landingURL.absoluteString, imageURL: offer.imageID.map(Route.offerImageLink),
            genres: offer.genres.sorted(), keywords: offer.keywords, media: media, startsOn: offer.startsOn, endsOn: offer.endsOn,
            weight: offer.weight, active: offer.active, demo: offer.demo, status: status
        )
    }
}

/// Partner shops reporting orders back: signed over the body's exact bytes (`SignedBody`), not a token.
extension APIController {
    func reportShopOrder(_ input: Operations.ReportShopOrder.Input) async throws -> Operations.ReportShopOrder.Output {
        guard case .json(let body) = input.body else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("Send the order as application/json."))))
        }
        guard let shop = Int(exactly: input.path.shopId), shop > 0 else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("shopId must be a shop's id."))))
        }
        let report = ShopOrders.Report(orderID: body.orderId, clickID: body.clickId, totalCents: body.totalCents, currency: body.currency)
        let outcome: ShopOrders.Outcome
        do {
            outcome = try await shopOrders.report(
                report, shop: shop, timestamp: input.headers.popcornSwirlTimestamp, signature: input.headers.popcornSwirlSignature,
                body: SignedBody.bytes)
        } catch {
            logger.error("recording a shop's order failed", metadata: ["shop": "\(shop)", "error": "\(error)"])
            return .serviceUnavailable(.init(body: .applicationProblemJson(.unavailable("The order could not be recorded just now. Try again."))))
        }
        switch outcome {
        case .recorded(let order, let new):
            let answer = Components.Schemas.ShopOrder(
                orderId: order.orderID, clickId: order.clickID.uuidString.lowercased(), offerId: order.offerID, totalCents: order.totalCents,
                currency: order.currency, day: order.day, reportedAt: order.reportedAt)
            return new ? .created(.init(body: .json(answer))) : .ok(.init(body: .json(answer)))
        case .refused(let refusal):
            typealias Problem = Components.Schemas.Problem
            switch refusal {
            case .badSignature, .staleTimestamp:
                return .unauthorized(.init(body: .applicationProblemJson(Problem(.unauthorized, refusal.message))))
            case .differentOrder:
                return .conflict(.init(body: .applicationProblemJson(Problem(.conflict, refusal.message))))
            case .invalid, .unknownClick:
                return .unprocessableContent(.init(body: .applicationProblemJson(Problem(.unprocessableContent, refusal.message))))
            }
        }
    }
}
