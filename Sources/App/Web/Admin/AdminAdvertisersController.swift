import Foundation
import Hummingbird

/// The console's shops: create, edit (with a logo upload) and delete.
struct AdminAdvertisersController {
    let offers: AdminOffersController
    var admin: OfferAdmin { offers.admin }
    var renderer: PageRenderer { offers.renderer }

    /// Registers on the `/admin` group: its gate has already refused anyone but an administrator.
    func register(on group: RouterGroup<AppRequestContext>) {
        group.on(AdminRoute.newAdvertiser) { _, context in try form(nil, AdvertiserDraft(), logoURL: nil, failure: nil, context) }
        group.on(AdminRoute.createAdvertiser) { request, context in try await save(nil, try await MultipartForm.read(request, context), context) }
        group.on(AdminRoute.editAdvertiser) { _, context in
            guard let shop = try await admin.advertiser(try offers.id(context)) else { return try offers.missing(context) }
            return try form(shop.id, Self.draft(shop), logoURL: shop.logoImageID.map(Route.offerImageLink), failure: nil, context)
        }
        group.on(AdminRoute.saveAdvertiser) { request, context in
            try await save(try offers.id(context), try await MultipartForm.read(request, context), context)
        }
        for (route, active) in [(AdminRoute.pauseAdvertiser, false), (.resumeAdvertiser, true)] {
            group.on(route) { _, context in
                guard try await admin.setAdvertiserActive(try offers.id(context), active) != nil else { return try offers.missing(context) }
                return .redirect(to: AdminRoute.offers.path + "?done=shop-\(active ? "resumed" : "paused")", type: .normal)
            }
        }
        group.on(AdminRoute.rotateAdvertiserKey) { _, context in
            guard let shop = try await admin.advertiser(try offers.id(context)) else { return try offers.missing(context) }
            return try keyPage(shop, try await admin.secrets.rotate(shop.id), rotated: true, context)
        }
        group.on(AdminRoute.confirmDeleteAdvertiser) { _, context in
            let id = try offers.id(context)
            guard let shop = try await admin.advertiser(id) else { return try offers.missing(context) }
            return try renderer.for(context).response(
                AdminConfirmPage(
                    chrome: Chrome("Delete shop · Console", tab: nil), heading: "Delete this shop?",
                    message: "“\(shop.name)” and its logo are deleted. Shops with offers can’t be deleted: delete or move their offers first.",
                    actionURL: AdminRoute.deleteAdvertiser.link(id)
                ))
        }
        group.on(AdminRoute.deleteAdvertiser) { _, context in
            switch try await admin.deleteAdvertiser(try offers.id(context)) {
            case nil: return .redirect(to: AdminRoute.offers.path + "?done=deleted", type: .normal)
            case .inUse(let count):
                let page = MessagePage(
                    chrome: Chrome("Shop in use · Console", tab: nil), heading: "This shop still has offers",
                    message: "It has \(count) offer\(count == 1 ? "" : "s"). Delete them or give them to another shop first; nothing was deleted.",
                    retryURL: nil, backURL: AdminRoute.offers.path
                )
                return try renderer.for(context).response(page, status: .conflict)
            case .notFound, .invalid: return try offers.missing(context)
            }
        }
    }

    func form(_ id: Int?, _ draft: AdvertiserDraft, logoURL: String?, failure: ValidationFailure?, _ context: AppRequestContext) throws -> Response {
        let page = AdminAdvertiserFormPage(
            heading: id == nil ? "New shop" : "Edit shop",
            actionURL: id.map { AdminRoute.saveAdvertiser.link($0) } ?? AdminRoute.createAdvertiser.path,
            draft: draft, logoURL: logoURL, failure: failure
        )
        return try renderer.for(context).response(page, status: failure == nil ? .ok : .unprocessableContent)
    }

    func save(_ id: Int?, _ form: MultipartForm, _ context: AppRequestContext) async throws -> Response {
        var draft = AdvertiserDraft()
        draft.name = form.value("name")
        draft.description = form.value("description")
        draft.website = form.value("website")
        draft.domains = form.value("domains")
        var created: (Advertiser, key: String)?
        let response = try await offers.saved(form.image("logo", label: "The logo"), context) { logo throws(OfferAdmin.Failure) in
            if let id {
                _ = try await admin.saveAdvertiser(id, draft, logo: logo)
            } else {
                created = try await admin.createAdvertiser(draft, logo: logo)
            }
        } refused: { failure in
            try self.form(id, draft, logoURL: nil, failure: failure, context)
        }
        // A new shop's signing key is shown on the answer to the form and never again.
        guard let (shop, key) = created, response.status == .seeOther else { return response }
        return try keyPage(shop, key, rotated: false, context)
    }

    /// The key, this once: never cached, never shown again.
    private func keyPage(_ shop: Advertiser, _ key: String, rotated: Bool, _ context: AppRequestContext) throws -> Response {
        var response = try renderer.for(context).response(AdminShopKeyPage(shop: shop, key: key, rotated: rotated))
        response.headers[.cacheControl] = "no-store"
        return response
    }

    static func draft(_ shop: Advertiser) -> AdvertiserDraft {
        var draft = AdvertiserDraft()
        draft.name = shop.name
        draft.description = shop.description
        draft.website = shop.website
        draft.domains = shop.domains.joined(separator: "\n")
        return draft
    }
}
