import Foundation

/// Console view models: plain stored values (templates read properties through reflection).
struct AdminRangeView {
    let from: String
    let to: String
    let error: String?
}

struct AdminAdvertiserRow {
    let id: Int
    let name: String
    let website: String
    let domains: String
    let logoURL: String
    let demo: Bool
    let offerCount: Int
    let editURL: String
    let reportURL: String
    let deleteURL: String
    let status: String
    let statusClass: String
    let toggleURL: String
    let toggleLabel: String
    /// When the shop's signing key was made, or that it has none.
    let keyStatus: String
    let rotateKeyURL: String
    let rotateKeyLabel: String
    let ordersURL: String

    init(_ advertiser: Advertiser, offerCount: Int, range: ReportRange, keyMadeAt: Date?) {
        id = advertiser.id
        name = advertiser.name
        website = advertiser.website
        domains = advertiser.domains.joined(separator: ", ")
        logoURL = advertiser.logoURL
        demo = advertiser.demo
        self.offerCount = offerCount
        editURL = AdminRoute.editAdvertiser.link(advertiser.id)
        reportURL = AdminRoute.report(.advertiser(advertiser.id), range: range)
        deleteURL = AdminRoute.confirmDeleteAdvertiser.link(advertiser.id)
        status = advertiser.active ? "Active" : "Paused"
        statusClass = advertiser.active ? "status status-live" : "status status-paused"
        toggleURL = (advertiser.active ? AdminRoute.pauseAdvertiser : .resumeAdvertiser).link(advertiser.id)
        toggleLabel = advertiser.active ? "Pause" : "Resume"
        keyStatus = keyMadeAt.map { "Made \(UTCFormatters.day.string(from: $0))" } ?? "None yet"
        rotateKeyURL = AdminRoute.rotateAdvertiserKey.link(advertiser.id)
        rotateKeyLabel = keyMadeAt == nil ? "Make key" : "Rotate key"
        ordersURL = APIRoute.shopOrders(advertiser.id)
    }
}

struct AdminOfferRow {
    let id: Int
    let headline: String
    let advertiserName: String
    let status: String
    let statusClass: String
    let dates: String
    let weight: Int
    let media: String
    let targeting: String
    let impressions: Int
    let clicks: Int
    let discarded: Int
    let rate: String
    let demo: Bool
    let isActive: Bool
    let editURL: String
    let reportURL: String
    let toggleURL: String
    let toggleLabel: String
    let deleteURL: String

    init(_ offer: Offer, advertiserName: String, shopActive: Bool, today: String, totals: OfferCounts, range: ReportRange) {
        id = offer.id
        headline = offer.headline
        self.advertiserName = advertiserName
        let status = offer.status(on: today)
        self.status = shopActive || status != .live ? status.rawValue.capitalized : "Shop paused"
        statusClass = "status status-\(shopActive ? status.rawValue : Offer.Status.paused.rawValue)"
        dates = "\(offer.startsOn) – \(offer.endsOn)"
        weight = offer.weight
        media = offer.media.label
        let genres = offer.genres.sorted().map(Genres.label)
        targeting =
            [genres.joined(separator: ", "), offer.keywords.map { "“\($0)”" }.joined(separator: ", ")]
            .filter { !$0.isEmpty }.joined(separator: " · ").nonEmpty ?? "Any title"
        impressions = totals.impressions
        clicks = totals.clicks
        discarded = totals.discarded
        rate = OfferReport.rate(totals.clicks, totals.impressions)
        demo = offer.demo
        isActive = offer.active
        editURL = AdminRoute.editOffer.link(offer.id)
        reportURL = AdminRoute.report(.offer(offer.id), range: range)
        toggleURL = (offer.active ? AdminRoute.pauseOffer : .resumeOffer).link(offer.id)
        toggleLabel = offer.active ? "Pause" : "Resume"
        deleteURL = AdminRoute.confirmDeleteOffer.link(offer.id)
    }
}

struct AdminOption {
    let value: String
    let label: String
    let selected: Bool
}

struct AdminOfferFormPage: Page {
    static let template = "admin/offer_form"

    let chrome: Chrome
    let heading: String
    let actionURL: String
    let cancelURL = AdminRoute.offers.path
    let advertisers: [AdminOption]
    let genres: [AdminOption]
    let media: [AdminOption]
    let headline, description, priceText, landingURL, keywords, startsOn, endsOn, weight: String
    let active: Bool
    let imageURL: String?
    let errors: [String: String]
    let errorSummary: ErrorSummary?
    let limits = AdminLimits()

    init(heading: String, actionURL: String, draft: OfferDraft, shops: [Advertiser], imageURL: String?, failure: ValidationFailure?) {
        chrome = Chrome("\(heading) · Console", tab: nil)
        self.heading = heading
        self.actionURL = actionURL
        advertisers = shops.map { AdminOption(value: String($0.id), label: $0.name, selected: String($0.id) == draft.advertiserID) }
        genres = Genres.vocabulary.map { AdminOption(value: $0.key, label: $0.label, selected: draft.genres.contains($0.key)) }
        media = OfferMedia.allCases.map { AdminOption(value: $0.rawValue, label: $0.label, selected: $0.rawValue == draft.media) }
        headline = draft.headline
        description = draft.description
        priceText = draft.priceText
        landingURL = draft.landingURL
        keywords = draft.keywords
        startsOn = draft.startsOn
        endsOn = draft.endsOn
        weight = draft.weight
        active = draft.active
        self.imageURL = imageURL
        errors = failure?.problems ?? [:]
        let keys = ["advertiser", "headline", "description", "price", "landing", "image", "genres", "keywords", "starts", "ends", "weight"]
        errorSummary = ErrorSummary(errors, keys: keys, idPrefix: "offer-")
    }
}

struct AdminAdvertiserFormPage: Page {
    static let template = "admin/advertiser_form"

    let chrome: Chrome
    let heading: String
    let actionURL: String
    let cancelURL = AdminRoute.offers.path
    let name, description, website, domains: String
    let logoURL: String?
    let errors: [String: String]
    let errorSummary: ErrorSummary?
    let limits = AdminLimits()

    init(heading: String, actionURL: String, draft: AdvertiserDraft, logoURL: String?, failure: ValidationFailure?) {
        chrome = Chrome("\(heading) · Console", tab: nil)
        self.heading = heading
        self.actionURL = actionURL
        name = draft.name
        description = draft.description
        website = draft.website
        domains = draft.domains
        self.logoURL = logoURL
        errors = failure?.problems ?? [:]
        errorSummary = ErrorSummary(errors, keys: ["name", "description", "domains", "website", "logo"], idPrefix: "shop-")
    }
}

struct AdminLimits {
    let name = OfferRules.nameLimit
    let advertiserDescription = OfferRules.advertiserDescriptionLimit
    let headline = OfferRules.headlineLimit
    let offerDescription = OfferRules.offerDescriptionLimit
    let price = OfferRules.priceLimit
    let imageKB = UploadedImage.maxBytes / 1024
}

struct AdminReportPage: Page {
    static let template = "admin/report"

    let chrome: Chrome
    let heading: String
    let subject: String
    let range: AdminRangeView
    let formURL: String
    let csvURL: String
    let chart: String
    let rows: [OfferReport.Row]
    let totals: OfferReport.Row
    let currency: String
    let backURL = AdminRoute.offers.path

    init(heading: String, subject: String, scope: OfferTracker.Scope, report: OfferReport) {
        chrome = Chrome("\(heading) · Console", tab: nil)
        self.heading = heading
        self.subject = subject
        range = AdminRangeView(from: report.range.from, to: report.range.to, error: nil)
        formURL = AdminRoute.report(scope)
        csvURL = AdminRoute.report(scope, range: report.range, csv: true)
        chart = report.svgChart(title: "Impressions, counted clicks and orders per day for \(subject), \(report.range.from) to \(report.range.to)")
        rows = report.rows
        totals = report.totals
        currency = report.currency
    }
}

struct AdminConfirmPage: Page {
    static let template = "admin/confirm"

    let chrome: Chrome
    let heading: String
    let message: String
    let actionURL: String
    let cancelURL = AdminRoute.offers.path
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
