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
            return .badRequest(.init(body: .applicationProblemJson(.init(.badRequest,
                "title must be movie:{iTunes track id} or show:{TVMaze show id}, such as movie:1001."
            ))))
        }
        guard let session = APIScope.session else { throw APIError.noSession }
        let context: OfferContext
        switch title.kind {
        case .movie:
            switch await movies.resolveMovie(title.id, profile: session.profileID) {
            case .found(let movie, _): context = OfferContext(movie: movie)
            case .notFound: return .notFound(.init(body: .applicationProblemJson(.init(.notFound, "No film with id \(title.id) on iTunes."))))
            case .unavailable: return .serviceUnavailable(.init(body: .applicationProblemJson(.init(.serviceUnavailable, ErrorTexts.fetchFailed))))
            }
        case .show:
            switch await shows.resolveShow(title.id, profile: session.profileID) {
            case .found(let show, _): context = OfferContext(show: show)
            case .notFound: return .notFound(.init(body: .applicationProblemJson(.init(.notFound, "TVMaze has no show with id \(title.id)."))))
            case .unavailable: return .serviceUnavailable(.init(body: .applicationProblemJson(.init(.serviceUnavailable, ErrorTexts.fetchFailed))))
            }
        }
        let offers = await services.offers.forTitle(context, visitor: session.visitor)
        return .ok(.init(body: .json(.init(
            title: title.description, banner: offers.banner.map(Components.Schemas.Offer.init),
            offers: offers.shops.map(Components.Schemas.Offer.init)
        ))))
    }

    // MARK: - Admin

    func listAdvertisers(_ input: Operations.ListAdvertisers.Input) async throws -> Operations.ListAdvertisers.Output {
        if let refused = adminRefusal(Operations.ListAdvertisers.Output.self) { return refused }
        do {
            let advertisers = try await services.offerAdmin.advertisers()
            return .ok(.init(body: .json(.init(advertisers: advertisers.map(Components.Schemas.AdminAdvertiser.init)))))
        } catch {
            return .serviceUnavailable(.init(body: .applicationProblemJson(loadFailed(error))))
        }
    }

    func createAdvertiser(_ input: Operations.CreateAdvertiser.Input) async throws -> Operations.CreateAdvertiser.Output {
        if let refused = adminRefusal(Operations.CreateAdvertiser.Output.self) { return refused }
        guard case .json(let body) = input.body else { throw HTTPError(.unsupportedMediaType) }
        var draft = AdvertiserDraft()
        draft.name = body.name
        draft.description = body.description ?? ""
        draft.website = body.website
        draft.domains = body.domains.joined(separator: "\n")
        do {
            let saved = try await services.offerAdmin.saveAdvertiser(nil, draft, logo: nil)
            return .created(.init(body: .json(.init(saved))))
        } catch {
            switch error {
            case .invalid(let failure) where !failure.isSaveFailure:
                return .unprocessableContent(.init(body: .applicationProblemJson(.invalid(failure, status: .unprocessableContent))))
            case .invalid, .notFound, .inUse:
                return .serviceUnavailable(.init(body: .applicationProblemJson(saveFailed("advertiser", error))))
            }
        }
    }

    func listAdminOffers(_ input: Operations.ListAdminOffers.Input) async throws -> Operations.ListAdminOffers.Output {
        if let refused = adminRefusal(Operations.ListAdminOffers.Output.self) { return refused }
        if let advertiser = input.query.advertiserId, advertiser < 1 {
            return .badRequest(.init(body: .applicationProblemJson(.init(.badRequest, "advertiserId must be a positive advertiser id."))))
        }
        do {
            let today = services.offerAdmin.today
            let offers = try await services.offerAdmin.offers(advertiser: input.query.advertiserId.map { Int($0) })
            return .ok(.init(body: .json(.init(today: today, offers: offers.map { .init($0, today: today) }))))
        } catch {
            return .serviceUnavailable(.init(body: .applicationProblemJson(loadFailed(error))))
        }
    }

    func createOffer(_ input: Operations.CreateOffer.Input) async throws -> Operations.CreateOffer.Output {
        if let refused = adminRefusal(Operations.CreateOffer.Output.self) { return refused }
        guard case .json(let body) = input.body else { throw HTTPError(.unsupportedMediaType) }
        do {
            let saved = try await services.offerAdmin.saveOffer(nil, OfferDraft(body), image: nil)
            return .created(.init(body: .json(.init(saved, today: services.offerAdmin.today))))
        } catch {
            switch error {
            case .invalid(let failure) where !failure.isSaveFailure:
                return .unprocessableContent(.init(body: .applicationProblemJson(.invalid(failure, fields: OfferDraft.apiFields, status: .unprocessableContent))))
            case .invalid, .notFound, .inUse:
                return .serviceUnavailable(.init(body: .applicationProblemJson(saveFailed("offer", error))))
            }
        }
    }

    func getAdminOffer(_ input: Operations.GetAdminOffer.Input) async throws -> Operations.GetAdminOffer.Output {
        if let refused = adminRefusal(Operations.GetAdminOffer.Output.self) { return refused }
        let id = Int(input.path.id)
        guard id > 0 else { return .badRequest(.init(body: .applicationProblemJson(.init(.badRequest, Self.offerIDProblem)))) }
        do {
            guard let offer = try await services.offerAdmin.offer(id) else {
                return .notFound(.init(body: .applicationProblemJson(.init(.notFound, Self.noOffer(id)))))
            }
            return .ok(.init(body: .json(.init(offer, today: services.offerAdmin.today))))
        } catch {
            return .serviceUnavailable(.init(body: .applicationProblemJson(loadFailed(error))))
        }
    }

    func replaceOffer(_ input: Operations.ReplaceOffer.Input) async throws -> Operations.ReplaceOffer.Output {
        if let refused = adminRefusal(Operations.ReplaceOffer.Output.self) { return refused }
        let id = Int(input.path.id)
        guard id > 0 else { return .badRequest(.init(body: .applicationProblemJson(.init(.badRequest, Self.offerIDProblem)))) }
        guard case .json(let body) = input.body else { throw HTTPError(.unsupportedMediaType) }
        // An unknown id is a 404 even when the body would not pass the rules.
        do {
            guard try await services.offerAdmin.offer(id) != nil else {
                return .notFound(.init(body: .applicationProblemJson(.init(.notFound, Self.noOffer(id)))))
            }
        } catch {
            return .serviceUnavailable(.init(body: .applicationProblemJson(loadFailed(error))))
        }
        do {
            let saved = try await services.offerAdmin.saveOffer(id, OfferDraft(body), image: nil)
            return .ok(.init(body: .json(.init(saved, today: services.offerAdmin.today))))
        } catch {
            switch error {
            case .invalid(let failure) where !failure.isSaveFailure:
                return .unprocessableContent(.init(body: .applicationProblemJson(.invalid(failure, fields: OfferDraft.apiFields, status: .unprocessableContent))))
            case .notFound:
                return .notFound(.init(body: .applicationProblemJson(.init(.notFound, Self.noOffer(id)))))
            case .invalid, .inUse:
                return .serviceUnavailable(.init(body: .applicationProblemJson(saveFailed("offer", error))))
            }
        }
    }

    func deleteOffer(_ input: Operations.DeleteOffer.Input) async throws -> Operations.DeleteOffer.Output {
        if let refused = adminRefusal(Operations.DeleteOffer.Output.self) { return refused }
        let id = Int(input.path.id)
        guard id > 0 else { return .badRequest(.init(body: .applicationProblemJson(.init(.badRequest, Self.offerIDProblem)))) }
        do {
            guard try await services.offerAdmin.deleteOffer(id) else {
                return .notFound(.init(body: .applicationProblemJson(.init(.notFound, Self.noOffer(id)))))
            }
            return .noContent(.init())
        } catch {
            return .serviceUnavailable(.init(body: .applicationProblemJson(saveFailed("offer", error))))
        }
    }

    func getOfferReport(_ input: Operations.GetOfferReport.Input) async throws -> Operations.GetOfferReport.Output {
        if let refused = adminRefusal(Operations.GetOfferReport.Output.self) { return refused }
        let id = Int(input.path.id)
        guard id > 0 else { return .badRequest(.init(body: .applicationProblemJson(.init(.badRequest, Self.offerIDProblem)))) }
        // Left out means a default; sent empty is not a date (the console's form sends empty fields, the API does not).
        if input.query.from == "" || input.query.to == "" {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("from and to must be dates (yyyy-MM-dd) when given."))))
        }
        let range: ReportRange
        switch ReportRange.parse(from: input.query.from, to: input.query.to, today: services.offerAdmin.today) {
        case .success(let parsed): range = parsed
        case .failure(let failure): return .badRequest(.init(body: .applicationProblemJson(.invalid(failure, status: .badRequest))))
        }
        do {
            guard try await services.offerAdmin.offer(id) != nil else {
                return .notFound(.init(body: .applicationProblemJson(.init(.notFound, Self.noOffer(id)))))
            }
            let report = try await services.offerAdmin.report(.offer(id), range: range)
            return .ok(.init(body: .json(.init(
                offerId: id, from: range.from, to: range.to,
                rows: report.rows.map { .init(day: $0.day, impressions: $0.impressions, clicks: $0.clicks, ctr: Self.ctr($0)) },
                totals: .init(impressions: report.totals.impressions, clicks: report.totals.clicks, ctr: Self.ctr(report.totals))
            ))))
        } catch {
            return .serviceUnavailable(.init(body: .applicationProblemJson(loadFailed(error))))
        }
    }

    // MARK: - Helpers

    static let offerIDProblem = "id must be a positive offer id."
    static func noOffer(_ id: Int) -> String { "There is no offer with id \(id)." }

    /// Clicks per impression in percent, two decimals; nil without impressions.
    static func ctr(_ row: OfferReport.Row) -> Double? {
        row.impressions == 0 ? nil : (Double(row.clicks) * 10_000 / Double(row.impressions)).rounded() / 100
    }

    /// The refusal to answer when the caller may not use the admin operations (see
    /// `APISessionMiddleware`, which normally refuses first); nil when it may. No session: refused.
    func adminRefusal<Output: AdminOperationOutput>(_: Output.Type) -> Output? {
        let refusal = APIScope.session.map(\.adminRefusal) ?? .forbidden
        guard let refusal else { return nil }
        let problem = Components.Schemas.Problem(refusal, APIRefusal.detail(refusal))
        if refusal == .unauthorized {
            // The runtime percent-encodes header values; APISessionMiddleware writes the challenge as is.
            return .unauthorized(.init(headers: .init(wwwAuthenticate: APIRefusal.challenge), body: .applicationProblemJson(problem)))
        }
        return .forbidden(.init(body: .applicationProblemJson(problem)))
    }

    private func loadFailed(_ error: any Error) -> Components.Schemas.Problem {
        services.logger.error("admin API read failed", metadata: ["error": "\(error)"])
        return .init(.serviceUnavailable, ErrorTexts.fetchFailed)
    }

    /// The database failed while saving: the reason goes to the log, not to the caller.
    private func saveFailed(_ what: String, _ error: any Error) -> Components.Schemas.Problem {
        services.logger.error("admin API save failed", metadata: ["what": "\(what)", "error": "\(error)"])
        return .init(.serviceUnavailable, "The \(what) could not be saved just now. Try again.")
    }
}

/// The generated outputs of the admin operations: each can answer 401 and 403.
protocol AdminOperationOutput {
    static func unauthorized(_ response: Components.Responses.Unauthorized) -> Self
    static func forbidden(_ response: Components.Responses.Forbidden) -> Self
}

extension Operations.ListAdvertisers.Output: AdminOperationOutput {}
extension Operations.CreateAdvertiser.Output: AdminOperationOutput {}
extension Operations.ListAdminOffers.Output: AdminOperationOutput {}
extension Operations.CreateOffer.Output: AdminOperationOutput {}
extension Operations.GetAdminOffer.Output: AdminOperationOutput {}
extension Operations.ReplaceOffer.Output: AdminOperationOutput {}
extension Operations.DeleteOffer.Output: AdminOperationOutput {}
extension Operations.GetOfferReport.Output: AdminOperationOutput {}

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
            advertiser: .init(id: placed.advertiser.id, name: placed.advertiser.name, description: placed.advertiser.description, logoURL: placed.logoURL),
            demo: placed.offer.demo
        )
    }
}

extension Components.Schemas.AdminAdvertiser {
    init(_ advertiser: Advertiser) {
        self.init(
            id: advertiser.id, name: advertiser.name, description: advertiser.description, website: advertiser.website,
            domains: advertiser.domains, logoURL: advertiser.logoImageID.map(Paths.offerImage) ?? Paths.offerPlaceholder, demo: advertiser.demo,
            active: advertiser.active
        )
    }
}

extension Components.Schemas.AdminOffer {
    init(_ offer: Offer, today: String) {
        let media: Components.Schemas.OfferMedia = switch offer.media {
        case .movie: .movie
        case .show: .show
        case .both: .both
        }
        let status: Components.Schemas.OfferStatus = switch offer.status(on: today) {
        case .live: .live
        case .paused: .paused
        case .scheduled: .scheduled
        case .expired: .expired
        }
        self.init(
            id: offer.id, advertiserId: offer.advertiserID, headline: offer.headline, description: offer.description,
            priceText: offer.priceText, landingURL: offer.landingURL.absoluteString, imageURL: offer.imageID.map(Paths.offerImage),
            genres: offer.genres.sorted(), keywords: offer.keywords, media: media, startsOn: offer.startsOn, endsOn: offer.endsOn,
            weight: offer.weight, active: offer.active, demo: offer.demo, status: status
        )
    }
}
