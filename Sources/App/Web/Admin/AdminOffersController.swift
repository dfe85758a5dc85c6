import Foundation
import Hummingbird

/// The advertiser console: the dashboard, offers (create, edit, pause, delete) and reports.
struct AdminOffersController {
    let admin: OfferAdmin
    let renderer: PageRenderer
    /// Whether OMDb refuses the configured key (shown on the dashboard until it answers again).
    let omdb: OMDbClient
    /// `DEMO_OFFERS`: whether visitors see the demo shops (the dashboard says which).
    let showsDemo: Bool

    /// Registers on the `/admin` group: its gate has already refused anyone but an administrator.
    func register(on group: RouterGroup<AppRequestContext>) {
        group.on(AdminRoute.home) { _, _ in Response.redirect(to: AdminRoute.offers.path, type: .normal) }
        group.on(AdminRoute.offers) { request, context in try await dashboard(request, context) }
        group.on(AdminRoute.newOffer) { _, context in try await offerForm(nil, context) }
        group.on(AdminRoute.createOffer) { request, context in try await save(nil, try await MultipartForm.read(request, context), context) }
        group.on(AdminRoute.editOffer) { _, context in try await offerForm(try id(context), context) }
        group.on(AdminRoute.saveOffer) { request, context in try await save(try id(context), try await MultipartForm.read(request, context), context)
        }
        group.on(AdminRoute.pauseOffer) { _, context in try await toggle(try id(context), false, context) }
        group.on(AdminRoute.resumeOffer) { _, context in try await toggle(try id(context), true, context) }
        group.on(AdminRoute.confirmDeleteOffer) { _, context in
            let offerID = try id(context)
            guard let offer = try await admin.offer(offerID) else { return try missing(context) }
            return try renderer.for(context).response(
                AdminConfirmPage(
                    chrome: Chrome("Delete offer · Console", tab: nil), heading: "Delete this offer?",
                    message: "“\(offer.headline)” stops showing at once. Its impressions and clicks stay in the shop’s report.",
                    actionURL: AdminRoute.deleteOffer.link(offerID)
                ))
        }
        group.on(AdminRoute.deleteOffer) { _, context in
            try await admin.deleteOffer(try id(context))
                ? Response.redirect(to: AdminRoute.offers.path + "?done=deleted", type: .normal) : try missing(context)
        }
        group.on(AdminRoute.offerReport) { request, context in try await report(request, .offer(try id(context)), context) }
        group.on(AdminRoute.offerReportCSV) { request, context in try await csv(request, .offer(try id(context)), context) }
        group.on(AdminRoute.advertiserReport) { request, context in try await report(request, .advertiser(try id(context)), context) }
        group.on(AdminRoute.advertiserReportCSV) { request, context in try await csv(request, .advertiser(try id(context)), context) }
    }

    func id(_ context: AppRequestContext) throws -> Int {
        guard let raw = context.parameters.get("id"), raw.count <= 12, let id = Int(raw), id > 0 else {
            throw HTTPError(.notFound, message: "There is nothing at this address.")
        }
        return id
    }

    func missing(_ context: AppRequestContext) throws -> Response {
        try ErrorPages.notFound(renderer.for(context), "That offer or shop does not exist (it may have been deleted).")
    }

    private func range(_ request: Request) -> Result<ReportRange, ValidationFailure> {
        let query = request.uri.queryParameters
        return ReportRange.parse(from: query["from"].map(String.init), to: query["to"].map(String.init), today: admin.today)
    }

    func dashboard(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        var rangeError: String?
        let range: ReportRange
        switch self.range(request) {
        case .success(let parsed): range = parsed
        case .failure(let failure):
            rangeError = failure.summary
            range = try ReportRange.parse(from: nil, to: nil, today: admin.today).get()
        }
        let shops = try await admin.advertisers()
        let offers = try await admin.offers()
        let totals = try await admin.totals(range: range)
        let keys = try await admin.secrets.rotatedAt()
        let byID = Dictionary(uniqueKeysWithValues: shops.map { ($0.id, $0) })
        let flash: String? =
            switch request.uri.queryParameters["done"] {
            case "saved": "Saved."
            case "deleted": "Deleted."
            case "paused": "Paused: the offer is no longer shown."
            case "resumed": "Resumed: the offer shows again within its dates."
            case "shop-paused": "Shop paused: none of its offers is shown."
            case "shop-resumed": "Shop resumed: its live offers show again."
            default: nil
            }
        let page = AdminDashboardPage(
            range: AdminRangeView(from: range.from, to: range.to, error: rangeError),
            advertisers: shops.map { shop in
                AdminAdvertiserRow(shop, offerCount: offers.filter { $0.advertiserID == shop.id }.count, range: range, keyMadeAt: keys[shop.id])
            },
            offers: offers.map { offer in
                let shop = byID[offer.advertiserID]
                return AdminOfferRow(
                    offer, advertiserName: shop?.name ?? "—", shopActive: shop?.active ?? false, today: admin.today,
                    totals: totals[offer.id] ?? OfferCounts(), range: range
                )
            },
            flash: flash, store: admin.referringStore,
            notices: await omdb.keyRefusal().map { refusal in
                [
                    AdminNotice(
                        text:
                            "OMDb refuses the key in OMDB_API_KEY (“\(refusal.message.prefix(120))”), so searches show no cast, plot or IMDb rating. "
                            + "Check the key, or remove OMDB_API_KEY. Searches and last searches work meanwhile. Since",
                        since: Moment(refusal.at))
                ]
            } ?? [],
            demo: AdminDemoOffersView(showsDemo: showsDemo, advertisers: shops, offers: offers)
        )
        return try renderer.for(context).response(page, status: rangeError == nil ? .ok : .badRequest)
    }

    func offerForm(_ id: Int?, _ context: AppRequestContext) async throws -> Response {
        var draft = OfferDraft()
        var imageURL: String?
        if let id {
            guard let offer = try await admin.offer(id) else { return try missing(context) }
            draft = Self.draft(offer)
            imageURL = offer.imageID.map(Route.offerImageLink)
        } else {
            draft.startsOn = admin.today
            draft.endsOn = ReportRange.shift(admin.today, by: 30) ?? admin.today
        }
        return try await renderOfferForm(id, draft, imageURL: imageURL, failure: nil, context)
    }

    private func renderOfferForm(_ id: Int?, _ draft: OfferDraft, imageURL: String?, failure: ValidationFailure?, _ context: AppRequestContext)
        async throws -> Response
    {
        let page = AdminOfferFormPage(
            heading: id == nil ? "New offer" : "Edit offer",
            actionURL: id.map { AdminRoute.saveOffer.link($0) } ?? AdminRoute.createOffer.path, draft: draft, shops: try await admin.advertisers(),
            imageURL: imageURL, failure: failure
        )
        return try renderer.for(context).response(page, status: failure == nil ? .ok : .unprocessableContent)
    }

    func save(_ id: Int?, _ form: MultipartForm, _ context: AppRequestContext) async throws -> Response {
        var draft = OfferDraft()
        draft.advertiserID = form.value("advertiser")
        draft.headline = form.value("headline")
        draft.description = form.value("description")
        draft.priceText = form.value("price")
        draft.landingURL = form.value("landing")
        draft.genres = form.values("genres")
        draft.keywords = form.value("keywords")
        draft.media = form.value("media")
        draft.startsOn = form.value("starts")
        draft.endsOn = form.value("ends")
        draft.weight = form.value("weight")
        draft.active = form.value("active") == "1"
        return try await saved(form.image("image", label: "The image"), context) { image throws(OfferAdmin.Failure) in
            _ = try await admin.saveOffer(id, draft, image: image)
        } refused: { failure in
            try await renderOfferForm(id, draft, imageURL: nil, failure: failure, context)
        }
    }

    /// The console's save for shops and offers alike: the upload is checked first, then the rules;
    /// a refusal shows the form again with what was typed, a record that went away is a 404, and
    /// a save returns to the dashboard.
    func saved(
        _ upload: Result<UploadedImage?, ValidationFailure>, _ context: AppRequestContext,
        save: (UploadedImage?) async throws(OfferAdmin.Failure) -> Void,
        refused: (ValidationFailure) async throws -> Response
    ) async throws -> Response {
        let image: UploadedImage?
        switch upload {
        case .success(let value): image = value
        case .failure(let failure): return try await refused(failure)
        }
        do {
            try await save(image)
        } catch .invalid(let failure) {
            return try await refused(failure)
        } catch {
            return try missing(context)
        }
        return .redirect(to: AdminRoute.offers.path + "?done=saved", type: .normal)
    }

    func toggle(_ id: Int, _ active: Bool, _ context: AppRequestContext) async throws -> Response {
        guard try await admin.setActive(id, active) != nil else { return try missing(context) }
        return .redirect(to: AdminRoute.offers.path + "?done=\(active ? "resumed" : "paused")", type: .normal)
    }

    private func subject(_ scope: OfferTracker.Scope) async throws -> (heading: String, name: String, file: String)? {
        switch scope {
        case .offer(let id):
            return try await admin.offer(id).map { ("Offer report", $0.headline, "offers-\(id)") }
        case .advertiser(let id):
            return try await admin.advertiser(id).map { ("Shop report", $0.name, "advertisers-\(id)") }
        }
    }

    func report(_ request: Request, _ scope: OfferTracker.Scope, _ context: AppRequestContext) async throws -> Response {
        guard let subject = try await subject(scope) else { return try missing(context) }
        switch range(request) {
        case .failure(let failure):
            return try ErrorPages.badRequest(renderer.for(context), failure.summary, backURL: AdminRoute.report(scope))
        case .success(let range):
            let report = try await admin.report(scope, range: range)
            return try renderer.for(context).response(AdminReportPage(heading: subject.heading, subject: subject.name, scope: scope, report: report))
        }
    }

    func csv(_ request: Request, _ scope: OfferTracker.Scope, _ context: AppRequestContext) async throws -> Response {
        guard let subject = try await subject(scope) else { return try missing(context) }
        guard case .success(let range) = range(request) else {
            return try ErrorPages.badRequest(
                renderer.for(context), "Dates look like 2026-11-01, “from” on or before “to”, at most \(ReportRange.maxDays) days.")
        }
        let report = try await admin.report(scope, range: range)
        var headers = HTTPFields()
        headers[.contentType] = "text/csv; charset=utf-8"
        headers[.contentDisposition] = "attachment; filename=\"\(subject.file)-\(range.from)-\(range.to).csv\""
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: report.csv)))
    }

    static func draft(_ offer: Offer) -> OfferDraft {
        var draft = OfferDraft()
        draft.advertiserID = String(offer.advertiserID)
        draft.headline = offer.headline
        draft.description = offer.description
        draft.priceText = offer.priceText
        draft.landingURL = offer.landingURL.absoluteString
        draft.genres = offer.genres.sorted()
        draft.keywords = offer.keywords.joined(separator: ", ")
        draft.media = offer.media.rawValue
        draft.startsOn = offer.startsOn
        draft.endsOn = offer.endsOn
        draft.weight = String(offer.weight)
        draft.active = offer.active
        return draft
    }
}
