import Foundation
import HummingbirdTesting
import Testing

@testable import App

/// The advertiser console, signed in as an administrator, over the demo offers.
@Suite("Snapshots: Advertiser console")
struct AdminSnapshotTests {
    @Test("the dashboard")
    func dashboard() async throws {
        try await TestApp.withOffers(.demo) { app, _ in
            let cookie = try await app.seedAdmin()
            try await app.test { client in
                let page = try await client.get("/admin/offers", cookie: cookie)
                #expect(page.text.contains("Reel Snacks"))
                assertPage(page, named: "admin-dashboard")
            }
        }
    }

    @Test("the offer form: new, and a demo offer to edit")
    func offerForm() async throws {
        try await TestApp.withOffers(.demo) { app, _ in
            let cookie = try await app.seedAdmin()
            try await app.test { client in
                assertPage(try await client.get("/admin/offers/new", cookie: cookie), named: "admin-offer-new")
                let edit = try await client.get("/admin/offers/1/edit", cookie: cookie)
                #expect(edit.text.contains("Reel Snacks"))
                assertPage(edit, named: "admin-offer-edit")
            }
        }
    }

    @Test("the advertiser form: new, and a demo shop to edit")
    func advertiserForm() async throws {
        try await TestApp.withOffers(.demo) { app, _ in
            let cookie = try await app.seedAdmin()
            try await app.test { client in
                assertPage(try await client.get("/admin/advertisers/new", cookie: cookie), named: "admin-advertiser-new")
                let edit = try await client.get("/admin/advertisers/1/edit", cookie: cookie)
                #expect(edit.text.contains("Reel Snacks"))
                assertPage(edit, named: "admin-advertiser-edit")
            }
        }
    }

    @Test("an offer's report with impressions and a click")
    func report() async throws {
        try await TestApp.withOffers(.demo) { app, _ in
            let cookie = try await app.seedAdmin()
            try await app.test { client in
                let offer = try await app.storedOffer(5)
                app.services.offers.tracker.impressions([offer], viewer: .test("a"))
                app.services.offers.tracker.impressions([offer], viewer: .test("b"))
                #expect(try await client.get("/offers/5/go").status == .seeOther)
                let page = try await client.get("/admin/offers/5/report?from=2026-11-12&to=2026-11-18", cookie: cookie)
                #expect(page.text.contains(#"<th scope="row">2026-11-18</th><td class="num">2</td><td class="num">1</td>"#))
                assertPage(page, named: "admin-offer-report")
            }
        }
    }
}
