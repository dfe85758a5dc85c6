import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import App

/// The advertiser console over HTTP: who gets in, what the forms accept, and the reports.
@Suite("Advertiser console")
struct AdminConsoleTests {
    static func withConsole<T>(_ body: (TestApp) async throws -> T) async throws -> T {
        try await TestApp.with(body)
    }

    /// An administrator's console cookie (session + CSRF cookie).
    static func signIn(_ app: TestApp) async throws -> String {
        try await app.signedIn("admin", admin: true).cookie
    }

    @Test("every console page answers 401 with the sign-in form, and no offer data, without a signed-in account")
    func signInRequired() async throws {
        try await Self.withConsole { app in
            try await app.test { client in
                for path in ["/admin/offers", "/admin/offers/new", "/admin/offers/1/edit", "/admin/offers/1/report", "/admin/offers/1/report.csv",
                             "/admin/advertisers/new", "/admin/advertisers/1/edit", "/admin/advertisers/1/report", "/admin/offers/1/delete"] {
                    let response = try await client.get(path)
                    #expect(response.status == .unauthorized, "\(path)")
                    #expect(response.text.contains(#"name="password""#) && response.text.contains("Sign in with an administrator’s account"), "\(path)")
                    #expect(response.text.contains(#"name="next" value="\#(path)""#), "\(path): back to the console page after signing in")
                    #expect(!response.text.contains("Reel Snacks") && !response.text.contains("data-offer-id"), "\(path)")
                }
                for path in ["/admin/offers", "/admin/offers/1/pause", "/admin/offers/1/delete", "/admin/advertisers", "/admin/advertisers/1/delete"] {
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
        try await Self.withConsole { app in
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

                let cookie = try await Self.signIn(app)
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
        try await Self.withConsole { app in
            try await app.test { client in
                let cookie = try await Self.signIn(app)
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

    @Test("a new offer is validated field by field; a valid one is listed and shown to visitors")
    func createOffer() async throws {
        try await Self.withConsole { app in
            try await app.test { client in
                let cookie = try await Self.signIn(app)
                let csrf = try await Self.csrf(client, cookie)
                var fields: [(String, String)] = [
                    ("csrf", csrf), ("advertiser", "1"), ("headline", String(repeating: "x", count: 71)), ("description", "A fine thing."),
                    ("price", "$5"), ("landing", "http://reelsnacks.example/a"), ("genres", "horror"), ("genres", "cartoons"),
                    ("keywords", "zombie"), ("media", "movie"), ("starts", "2026-12-01"), ("ends", "2026-11-01"), ("weight", "11"), ("active", "1"),
                ]
                let invalid = try await client.postForm("/admin/offers", fields, cookie: cookie)
                #expect(invalid.status == .unprocessableContent)
                for message in ["Headline has 71 characters; the limit is 70.", "must start with https://", "“cartoons” is not one of the genres listed.",
                                "The end date must be on or after the start date.", "Weight is a whole number from 1 to 10."] {
                    #expect(invalid.text.contains(message), "\(message)")
                }
                #expect(invalid.text.contains("A fine thing."), "what was typed is kept")
                fields[5] = ("landing", "https://evil.example/a")
                let offDomain = try await client.postForm("/admin/offers", fields, cookie: cookie)
                #expect(offDomain.text.contains("must be on one of the shop’s domains"))
                let before = try await app.services.offerAdmin.offers().count
                #expect(before == 32, "nothing was saved")

                fields = [
                    ("csrf", csrf), ("advertiser", "1"), ("headline", "Midnight Popcorn Tin"), ("description", "Salted caramel for late shows."),
                    ("price", "$12"), ("landing", "https://shop.reelsnacks.example/tin"), ("genres", "horror"), ("keywords", "midnight"),
                    ("media", "both"), ("starts", "2026-11-01"), ("ends", "2026-12-31"), ("weight", "7"), ("active", "1"),
                ]
                let saved = try await client.postForm("/admin/offers", fields, cookie: cookie)
                #expect(saved.status == .seeOther)
                let offers = try await app.services.offerAdmin.offers()
                let created = try #require(offers.first { $0.headline == "Midnight Popcorn Tin" })
                #expect(created.genres == ["horror"] && created.keywords == ["midnight"] && created.weight == 7 && !created.demo)
                let dashboard = try await client.get("/admin/offers?done=saved", cookie: cookie).text
                #expect(dashboard.contains("Midnight Popcorn Tin") && dashboard.contains("Saved."))
            }
        }
    }

    @Test("a shop needs https on its own domains; one with offers cannot be deleted")
    func shops() async throws {
        try await Self.withConsole { app in
            try await app.test { client in
                let cookie = try await Self.signIn(app)
                let csrf = try await Self.csrf(client, cookie)
                let bad = try await client.postForm("/admin/advertisers", [
                    ("csrf", csrf), ("name", ""), ("domains", "not a domain"), ("website", "https://elsewhere.example"),
                ], cookie: cookie)
                #expect(bad.status == .unprocessableContent)
                #expect(bad.text.contains("Name is required.") && bad.text.contains("is not a domain name"))
                let good = try await client.postForm("/admin/advertisers", [
                    ("csrf", csrf), ("name", "Tiny Cinema Co"), ("description", "Small screens."), ("domains", "tinycinema.example"),
                    ("website", "https://tinycinema.example/"),
                ], cookie: cookie)
                #expect(good.status == .seeOther)
                let shop = try #require(try await app.services.offerAdmin.advertisers().first { $0.name == "Tiny Cinema Co" })
                #expect(shop.logoImageID != nil, "a monogram logo is drawn")
                let logo = try await client.get(Route.offerImageLink(try #require(shop.logoImageID)))
                #expect(logo.status == .ok && logo.headers[.contentType] == "image/svg+xml" && logo.text.contains(">TC<"))

                let inUse = try await client.postForm("/admin/advertisers/1/delete", [("csrf", csrf)], cookie: cookie)
                #expect(inUse.status == .conflict)
                #expect(try await app.services.offerAdmin.advertiser(1) != nil)
                let gone = try await client.postForm("/admin/advertisers/\(shop.id)/delete", [("csrf", csrf)], cookie: cookie)
                #expect(gone.status == .seeOther)
                #expect(try await app.services.offerAdmin.advertiser(shop.id) == nil)
            }
        }
    }

    @Test("a logo upload must really be an image: a script renamed .png is refused")
    func logoUpload() async throws {
        try await Self.withConsole { app in
            try await app.test { client in
                let cookie = try await Self.signIn(app)
                let csrf = try await Self.csrf(client, cookie)
                let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 7, count: 64)
                let fields = [("csrf", csrf), ("name", "Pixel Shop"), ("domains", "pixel.example"), ("website", "https://pixel.example")]
                let refused = try await client.postMultipart("/admin/advertisers", fields, file: ("logo", "logo.png", Data("<svg onload=alert(1)>".utf8)), cookie: cookie)
                #expect(refused.status == .unprocessableContent)
                #expect(refused.text.contains("The logo must be a PNG, JPEG or WebP file"))
                let accepted = try await client.postMultipart("/admin/advertisers", fields, file: ("logo", "logo.png", png), cookie: cookie)
                #expect(accepted.status == .seeOther)
                let shop = try #require(try await app.services.offerAdmin.advertisers().first { $0.name == "Pixel Shop" })
                let logo = try await client.get(Route.offerImageLink(try #require(shop.logoImageID)))
                #expect(logo.headers[.contentType] == "image/png" && Data(buffer: logo.body) == png)
            }
        }
    }

    @Test("the report counts impressions and clicks per day, draws them, and downloads as CSV")
    func report() async throws {
        try await Self.withConsole { app in
            try await app.test { client in
                let cookie = try await Self.signIn(app)
                let offer = try #require(try await app.services.offerAdmin.offer(5))
                app.services.offers.tracker.impressions([offer], visitor: "a")
                app.services.offers.tracker.impressions([offer], visitor: "b")
                _ = try await client.get("/offers/5/go")
                let today = Formats.day.string(from: app.clock.now())
                let html = try await client.get("/admin/offers/5/report?from=\(today)&to=\(today)", cookie: cookie)
                #expect(html.status == .ok)
                #expect(html.text.contains(#"<th scope="row">\#(today)</th><td class="num">2</td><td class="num">1</td><td class="num">50.0 %</td>"#))
                #expect(html.text.contains(#"<svg class="report-chart""#) && html.text.contains("\(today): 2 impressions"))
                let csv = try await client.get("/admin/offers/5/report.csv?from=\(today)&to=\(today)", cookie: cookie)
                #expect(csv.headers[.contentType] == "text/csv; charset=utf-8")
                #expect(csv.headers[.contentDisposition]?.hasPrefix("attachment;") == true)
                #expect(csv.text == "day,impressions,clicks,ctr_percent\r\n\(today),2,1,50.00\r\n")
                let shop = try await client.get("/admin/advertisers/\(offer.advertiserID)/report.csv?from=\(today)&to=\(today)", cookie: cookie)
                #expect(shop.text.hasSuffix("\(today),2,1,50.00\r\n"))
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

extension TestClientProtocol {
    /// A multipart/form-data POST with text fields and one file, as the console's forms send it.
    func postMultipart(_ uri: String, _ fields: [(String, String)], file: (name: String, filename: String, data: Data), cookie: String?) async throws -> TestResponse {
        // Mixed case, as browsers send it (the boundary is case-sensitive).
        let boundary = "----PopcornFormBoundary\(UInt32.random(in: 0 ... .max))"
        var body = Data()
        for (name, value) in fields {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8))
        }
        body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.name)\"; filename=\"\(file.filename)\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8))
        body.append(file.data)
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        var headers = HTTPFields()
        headers[.contentType] = "multipart/form-data; boundary=\(boundary)"
        if let cookie { headers[.cookie] = cookie }
        return try await execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(data: body))
    }
}

@Suite("Advertiser console: pausing a shop")
struct AdminShopPauseTests {
    @Test("a paused shop's offers leave every page and their click-through is a 404; resuming brings them back")
    func pauseShop() async throws {
        try await AdminConsoleTests.withConsole { app in
            try await app.test { client in
                let cookie = try await AdminConsoleTests.signIn(app)
                let csrf = try await AdminConsoleTests.csrf(client, cookie)
                let offer = try #require(try await app.services.offerAdmin.offer(5))
                #expect(try await client.get("/offers/5/go").status == .seeOther)
                let paused = try await client.postForm("/admin/advertisers/\(offer.advertiserID)/pause", [("csrf", csrf)], cookie: cookie)
                #expect(paused.status == .seeOther)
                let dashboard = try await client.get("/admin/offers?done=shop-paused", cookie: cookie).text
                #expect(dashboard.contains("Shop paused: none of its offers is shown.") && dashboard.contains("Shop paused</span>"))
                #expect(try await client.get("/offers/5/go").status == .notFound)
                let shopOffers = Set(try await app.services.offerAdmin.offers(advertiser: offer.advertiserID).map(\.id))
                for path in ["/", "/movies?year=2025", "/shows"] {
                    let html = try await client.get(path).text
                    for id in shopOffers { #expect(!html.contains(#"data-offer-id="\#(id)""#), "\(path) shows offer \(id)") }
                }
                _ = try await client.postForm("/admin/advertisers/\(offer.advertiserID)/resume", [("csrf", csrf)], cookie: cookie)
                #expect(try await client.get("/offers/5/go").status == .seeOther)
            }
        }
    }
}
