import Foundation
import Hummingbird

/// The console's shops: create, edit (with a logo upload) and delete.
struct AdminAdvertisersController {
    let offers: AdminOffersController
    var admin: OfferAdmin { offers.admin }
    var renderer: PageRenderer { offers.renderer }

    func register(on router: Router<AppRequestContext>) {
        router.get("/admin/advertisers/new") { request, context in try await offers.signedIn(request, context) { try form(nil, AdvertiserDraft(), logoURL: nil, failure: nil) } }
        router.post("/admin/advertisers") { request, context in try await offers.posted(request, context) { try await save(nil, $0) } }
        router.get("/admin/advertisers/:id/edit") { request, context in
            try await offers.signedIn(request, context) {
                guard let shop = try await admin.advertiser(try offers.id(context)) else { return try offers.missing() }
                return try form(shop.id, Self.draft(shop), logoURL: shop.logoImageID.map(Paths.offerImage), failure: nil)
            }
        }
        router.post("/admin/advertisers/:id") { request, context in
            try await offers.posted(request, context) { try await save(try offers.id(context), $0) }
        }
        for (action, active) in [("pause", false), ("resume", true)] {
            router.post("/admin/advertisers/:id/\(action)") { request, context in
                try await offers.posted(request, context) { _ in
                    guard try await admin.setAdvertiserActive(try offers.id(context), active) != nil else { return try offers.missing() }
                    return .redirect(to: Paths.adminOffers + "?done=shop-\(active ? "resumed" : "paused")", type: .normal)
                }
            }
        }
        router.get("/admin/advertisers/:id/delete") { request, context in
            try await offers.signedIn(request, context) {
                let id = try offers.id(context)
                guard let shop = try await admin.advertiser(id) else { return try offers.missing() }
                return try renderer.response("admin_confirm", AdminConfirmPage(
                    chrome: Chrome("Delete shop · Console", tab: nil), heading: "Delete this shop?",
                    message: "“\(shop.name)” and its logo are deleted. Shops with offers can’t be deleted: delete or move their offers first.",
                    actionURL: Paths.adminAdvertiser(id) + "/delete"
                ))
            }
        }
        router.post("/admin/advertisers/:id/delete") { request, context in
            try await offers.posted(request, context) { _ in
                switch try await admin.deleteAdvertiser(try offers.id(context)) {
                case nil: return .redirect(to: Paths.adminOffers + "?done=deleted", type: .normal)
                case .inUse(let count):
                    let page = MessagePage(
                        chrome: Chrome("Shop in use · Console", tab: nil), heading: "This shop still has offers",
                        message: "It has \(count) offer\(count == 1 ? "" : "s"). Delete them or give them to another shop first; nothing was deleted.",
                        retryURL: nil, backURL: Paths.adminOffers
                    )
                    return try renderer.response("message", page, status: .conflict)
                case .notFound, .invalid: return try offers.missing()
                }
            }
        }
    }

    func form(_ id: Int?, _ draft: AdvertiserDraft, logoURL: String?, failure: ValidationFailure?) throws -> Response {
        let page = AdminAdvertiserFormPage(
            heading: id == nil ? "New shop" : "Edit shop", actionURL: id.map(Paths.adminAdvertiser) ?? Paths.adminAdvertisers,
            draft: draft, logoURL: logoURL, failure: failure
        )
        return try renderer.response("admin_advertiser_form", page, status: failure == nil ? .ok : .unprocessableContent)
    }

    func save(_ id: Int?, _ form: MultipartForm) async throws -> Response {
        var draft = AdvertiserDraft()
        draft.name = form.value("name")
        draft.description = form.value("description")
        draft.website = form.value("website")
        draft.domains = form.value("domains")
        let logo: UploadedImage?
        switch form.image("logo", label: "The logo") {
        case .success(let upload): logo = upload
        case .failure(let failure): return try self.form(id, draft, logoURL: nil, failure: failure)
        }
        do {
            _ = try await admin.saveAdvertiser(id, draft, logo: logo)
        } catch .invalid(let failure) {
            return try self.form(id, draft, logoURL: nil, failure: failure)
        } catch {
            return try offers.missing()
        }
        return .redirect(to: Paths.adminOffers + "?done=saved", type: .normal)
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
