import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import App

/// The advertiser console over HTTP: who gets in, and the reports (the forms: AdminConsoleFormsTests).
@Suite("Advertiser console")
struct AdminConsoleTests {
    @Test("every console page answers 401 with the sign-in form, and no offer data, without a signed-in account")
    func signInRequired() async throws {
        try await TestApp.withOffers(.demo) { app, _ in
            try await app.test { client in
                for path in [
                    "/admin/offers", "/admin/offers/new", "/admin/offers/1/edit", "/admin/offers/1/report", "/admin/offers/1/report.csv",
                    "/admin/advertisers/new", "/admin/advertisers/1/edit", "/admin/advertisers/1/report", "/admin/offers/1/delete",
                ] {
                    let response = try await client.get(path)
                    #expect(response.status == .unauthorized, "\(path)")
                    #expect(
                        response.text.contains(#"name="password""#) && response.text.contains("Sign in with an administrator’s account"), "\(path)")
                    #expect(response.text.contains(#"name="next" value="\#(path)""#), "\(path): back to the console page after signing in")
                    #expect(!response.text.contains("Reel Snacks") && !response.text.contains("data-offer-id"), "\(path)")
                }
                for path in ["/admin/offers", "/admin/offers/1/pause", "/admin/offers/1/delete", "/admin/advertisers", "/admin/advertisers/1/delete"]
                {
                    let response = try await client.postForm(path, [("headline", "x")])
                    #expect(response.status == .unauthorized, "\(path)")
                }
                let offer = try #require(try await app.services.offerAdmin.offer(1))
                #expect(offer.active, "a refused pause changed nothing")
            }
        }
    }

    @Test("a member's account gets 403 and no data; an administrator's opens the dashboard; a signed-out session does not")
    func adminRoleCheck() async throws {
        try await TestApp.withOffers(.demo) { app, _ in
            try await app.test { client in
                let member = try await app.signedIn("member")
                for path in ["/admin/offers", "/admin/offers/1/edit", "/admin/advertisers/1/report"] {
                    let refused = try await client.get(path, cookie: member.cookie)
                    #expect(refused.status == .forbidden, "\(path)")
                    #expect(refused.text.contains("popcornswirl create-admin"), "\(path)")
                    #expect(!refused.text.contains("Reel Snacks"), "\(path)")
                }
                let pause = try await client.postForm("/admin/offers/1/pause", [], cookie: member.cookie)
                #expect(pause.status == .forbidden)
                #expect(try await app.services.offerAdmin.offer(1)?.active == true)

                let cookie = try await app.seedAdmin()
                let dashboard = try await client.get("/admin/offers", cookie: cookie)
                #expect(dashboard.status == .ok)
                #expect(dashboard.text.contains("Reel Snacks"))
                let signOut = try await client.postForm(Route.signOut.path, [], cookie: cookie)
                #expect(signOut.status == .seeOther)
                #expect(try await client.get("/admin/offers", cookie: cookie).status == .unauthorized)
            }
        }
    }

    @Test("forms without the session's CSRF token change nothing (403)")
    func csrfRequired() async throws {
        try await TestApp.withOffers(.demo) { app, _ in
            try await app.test { client in
                let cookie = try await app.seedAdmin()
                for token in [nil, "0000", String(repeating: "A", count: 43)] {
                    let pause = try await client.postForm("/admin/offers/1/pause", token.map { [("csrf", $0)] } ?? [], cookie: cookie, csrf: false)
                    #expect(pause.status == .forbidden)
                    #expect(pause.text.contains("This page has expired"))
                }
                let offer = try #require(try await app.services.offerAdmin.offer(1))
                #expect(offer.active)
                let csrf = try await Self.csrf(client, cookie)
                let ok = try await client.postForm("/admin/offers/1/pause", [("csrf", csrf)], cookie: cookie, csrf: false)
                #expect(ok.status == .seeOther)
                let paused = try #require(try await app.services.offerAdmin.offer(1))
                #expect(!paused.active)
            }
        }
    }

    @Test("the report counts impressions and clicks per day, draws them, and downloads as CSV")
    func report() async throws {
        try await TestApp.withOffers(.demo) { app, _ in
            try await app.test { client in
                let cookie = try await app.seedAdmin()
                let offer = try await app.storedOffer(5)
                app.services.offers.tracker.impressions([offer], viewer: .test("a"))
                app.services.offers.tracker.impressions([offer], viewer: .test("b"))
                _ = try await client.get("/offers/5/go")
                let today = UTCFormatters.day.string(from: app.clock.now())
                let html = try await client.get("/admin/offers/5/report?from=\(today)&to=\(today)", cookie: cookie)
                #expect(html.status == .ok)
                #expect(
                    html.text.contains(
                        #"<th scope="row">\#(today)</th><td class="num">2</td><td class="num">1</td><td class="num">0</td><td class="num">50.0 %</td>"#
                    ))
                #expect(html.text.contains(#"<svg class="report-chart""#) && html.text.contains("\(today): 2 impressions"))
                let csv = try await client.get("/admin/offers/5/report.csv?from=\(today)&to=\(today)", cookie: cookie)
                #expect(csv.headers[.contentType] == "text/csv; charset=utf-8")
                #expect(csv.headers[.contentDisposition]?.hasPrefix("attachment;") == true)
                #expect(
                    csv.text
                        == "day,impressions,clicks,ctr_percent,discarded_repeat,discarded_cross_site,orders,revenue_usd,conversion_percent,"
                        + "discarded_address_cap\r\n" + "\(today),2,1,50.00,0,0,0,0.00,0.00,0\r\n")
                let shop = try await client.get("/admin/advertisers/\(offer.advertiserID)/report.csv?from=\(today)&to=\(today)", cookie: cookie)
                #expect(shop.text.hasSuffix("\(today),2,1,50.00,0,0,0,0.00,0.00,0\r\n"))
                let backwards = try await client.get("/admin/offers/5/report?from=2026-11-20&to=2026-11-01", cookie: cookie)
                #expect(backwards.status == .badRequest && backwards.text.contains("“From” must be on or before “to”."))
                let tooLong = try await client.get("/admin/offers/5/report.csv?from=2024-01-01&to=2026-01-01", cookie: cookie)
                #expect(tooLong.status == .badRequest)
            }
        }
    }

    static func csrf(_ client: some TestClientProtocol, _ cookie: String) async throws -> String {
        let page = try await client.get("/admin/offers", cookie: cookie).text
        let marker = #"name="csrf" value=""#
        let start = try #require(page.range(of: marker)).upperBound
        return String(page[start...].prefix { $0 != "\"" })
    }
}
