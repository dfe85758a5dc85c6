import Foundation

struct AdminDashboardPage: Page {
    static let template = "admin/dashboard"

    let chrome = Chrome("Partner offers · Console", tab: nil)
    let range: AdminRangeView
    let advertisers: [AdminAdvertiserRow]
    let offers: [AdminOfferRow]
    let flash: String?
    /// Who the orders are made for, as every click-through tells the shop.
    let store: ReferringStore
    /// Upstreams that refused PopcornSwirl itself (OMDb's key), for the administrator to mend.
    let notices: [AdminNotice]
    /// Whether visitors see the demo shops, and how to add a real one.
    let demo: AdminDemoOffersView
    let newOfferURL = AdminRoute.newOffer.path
    let newAdvertiserURL = AdminRoute.newAdvertiser.path
    let rangeURL = AdminRoute.offers.path
    let logoutURL = Route.signOut.path
}

/// Something the administrator should know and mend: what happened, since when, what to do.
struct AdminNotice {
    let text: String
    let since: Moment
}

/// The dashboard's word on the seeded demo shops (`DEMO_OFFERS`) and its short guide to adding a
/// real shop, open while there is none.
struct AdminDemoOffersView {
    /// Demo shops or offers are in the database and `DEMO_OFFERS` keeps them from visitors.
    let hidden: Bool
    /// Demo shops or offers are in the database and visitors are shown them.
    let shown: Bool
    /// No shop but the demo ones yet: the guide is shown open.
    let guideOpen: Bool

    init(showsDemo: Bool, advertisers: [Advertiser], offers: [Offer]) {
        let anyDemo = advertisers.contains(where: \.demo) || offers.contains(where: \.demo)
        hidden = anyDemo && !showsDemo
        shown = anyDemo && showsDemo
        guideOpen = !advertisers.contains { !$0.demo }
    }
}
