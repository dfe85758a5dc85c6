import Foundation
import Hummingbird
import OpenAPIRuntime
import PopcornAPI

/// The advertiser console's operations (`/api/v1/admin/…`), registered on the admin group and
/// checked again here.
extension APIController {
    func listAdvertisers(_ input: Operations.ListAdvertisers.Input) async throws -> Operations.ListAdvertisers.Output {
        if let refused = adminRefusal(Operations.ListAdvertisers.Output.self) { return refused }
        do {
            let advertisers = try await offerAdmin.advertisers()
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
            let (saved, key) = try await offerAdmin.createAdvertiser(draft, logo: nil)
            var answer = Components.Schemas.AdminAdvertiser(saved)
            answer.signingKey = key
            return .created(.init(body: .json(answer)))
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
            let today = offerAdmin.today
            let offers = try await offerAdmin.offers(advertiser: input.query.advertiserId.map { Int($0) })
            return .ok(.init(body: .json(.init(today: today, offers: offers.map { .init($0, today: today) }))))
        } catch {
            return .serviceUnavailable(.init(body: .applicationProblemJson(loadFailed(error))))
        }
    }

    func createOffer(_ input: Operations.CreateOffer.Input) async throws -> Operations.CreateOffer.Output {
        if let refused = adminRefusal(Operations.CreateOffer.Output.self) { return refused }
        guard case .json(let body) = input.body else { throw HTTPError(.unsupportedMediaType) }
        do {
            let saved = try await offerAdmin.saveOffer(nil, OfferDraft(body), image: nil)
            return .created(.init(body: .json(.init(saved, today: offerAdmin.today))))
        } catch {
            switch error {
            case .invalid(let failure) where !failure.isSaveFailure:
                return .unprocessableContent(
                    .init(body: .applicationProblemJson(.invalid(failure, fields: OfferDraft.apiFields, status: .unprocessableContent))))
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
            guard let offer = try await offerAdmin.offer(id) else {
                return .notFound(.init(body: .applicationProblemJson(.init(.notFound, Self.noOffer(id)))))
            }
            return .ok(.init(body: .json(.init(offer, today: offerAdmin.today))))
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
            guard try await offerAdmin.offer(id) != nil else {
                return .notFound(.init(body: .applicationProblemJson(.init(.notFound, Self.noOffer(id)))))
            }
        } catch {
            return .serviceUnavailable(.init(body: .applicationProblemJson(loadFailed(error))))
        }
        do {
            let saved = try await offerAdmin.saveOffer(id, OfferDraft(body), image: nil)
            return .ok(.init(body: .json(.init(saved, today: offerAdmin.today))))
        } catch {
            switch error {
            case .invalid(let failure) where !failure.isSaveFailure:
                return .unprocessableContent(
                    .init(body: .applicationProblemJson(.invalid(failure, fields: OfferDraft.apiFields, status: .unprocessableContent))))
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
            guard try await offerAdmin.deleteOffer(id) else {
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
        switch ReportRange.parse(from: input.query.from, to: input.query.to, today: offerAdmin.today) {
        case .success(let parsed): range = parsed
        case .failure(let failure): return .badRequest(.init(body: .applicationProblemJson(.invalid(failure, status: .badRequest))))
        }
        do {
            guard try await offerAdmin.offer(id) != nil else {
                return .notFound(.init(body: .applicationProblemJson(.init(.notFound, Self.noOffer(id)))))
            }
            let report = try await offerAdmin.report(.offer(id), range: range)
            return .ok(
                .init(
                    body: .json(
                        .init(
                            offerId: id, currency: report.currency, from: range.from, to: range.to,
                            rows: report.rows.map {
                                .init(
                                    day: $0.day, impressions: $0.impressions, clicks: $0.clicks, discarded: $0.discarded,
                                    discardedRepeats: $0.repeats, discardedCrossSite: $0.crossSite, discardedAddressCap: $0.capped, ctr: Self.ctr($0),
                                    orders: $0.orders, revenueCents: $0.revenueCents, conversion: Self.percent($0.orders, of: $0.clicks))
                            },
                            totals: .init(
                                impressions: report.totals.impressions, clicks: report.totals.clicks, discarded: report.totals.discarded,
                                discardedRepeats: report.totals.repeats, discardedCrossSite: report.totals.crossSite,
                                discardedAddressCap: report.totals.capped, ctr: Self.ctr(report.totals),
                                orders: report.totals.orders, revenueCents: report.totals.revenueCents,
                                conversion: Self.percent(report.totals.orders, of: report.totals.clicks))
                        ))))
        } catch {
            return .serviceUnavailable(.init(body: .applicationProblemJson(loadFailed(error))))
        }
    }

    // MARK: - Helpers

    static let offerIDProblem = "id must be a positive offer id."
    static func noOffer(_ id: Int) -> String { "There is no offer with id \(id)." }

    /// Counted clicks per impression in percent, two decimals; nil without impressions.
    static func ctr(_ row: OfferReport.Row) -> Double? { percent(row.clicks, of: row.impressions) }

    /// `part` per `whole` in percent, two decimals; nil when `whole` is 0.
    static func percent(_ part: Int, of whole: Int) -> Double? {
        whole == 0 ? nil : (Double(part) * 10_000 / Double(whole)).rounded() / 100
    }

    /// The refusal to answer when the caller may not use the admin operations (see
    /// `APISessionMiddleware`, which normally refuses first); nil when it may. No session: refused.
}

extension APIController {
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

    func loadFailed(_ error: any Error) -> Components.Schemas.Problem {
        logger.error("admin API read failed", metadata: ["error": "\(error)"])
        return .init(.serviceUnavailable, ErrorTexts.fetchFailed)
    }

    /// The database failed while saving: the reason goes to the log, not to the caller.
    func saveFailed(_ what: String, _ error: any Error) -> Components.Schemas.Problem {
        logger.error("admin API save failed", metadata: ["what": "\(what)", "error": "\(error)"])
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
