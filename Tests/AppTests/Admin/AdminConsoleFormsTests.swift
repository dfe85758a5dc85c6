import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import App

/// The advertiser console's forms over HTTP: what they accept for offers, shops and logos.
@Suite("Advertiser console: offer and shop forms")
struct AdminConsoleFormsTests {
    @Test("a new offer is validated field by field; a valid one is listed and shown to visitors")
    func createOffer() async throws {
        try await TestApp.withOffers(.demo) { app, _ in
            try await app.test { client in
                let cookie = try await app.seedAdmin()
                let csrf = try await AdminConsoleTests.csrf(client, cookie)
                var fields: [(String, String)] = [
                    ("csrf", csrf), ("advertiser", "1"), ("headline", String(repeating: "x", count: 71)), ("description", "A fine thing."),
                    ("price", "$5"), ("landing", "http://reelsnacks.example/a"), ("genres", "horror"), ("genres", "cartoons"),
                    ("keywords", "zombie"), ("media", "movie"), ("starts", "2026-12-01"), ("ends", "2026-11-01"), ("weight", "11"), ("active", "1"),
                ]
                let invalid = try await client.postForm("/admin/offers", fields, cookie: cookie)
                #expect(invalid.status == .unprocessableContent)
                for message in [
                    "Headline has 71 characters; the limit is 70.", "must start with https://", "“cartoons” is not one of the genres listed.",
                    "The end date must be on or after the start date.", "Weight is a whole number from 1 to 10.",
                ] {
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
        try await TestApp.withOffers(.demo) { app, _ in
            try await app.test { client in
                let cookie = try await app.seedAdmin()
                let csrf = try await AdminConsoleTests.csrf(client, cookie)
                let bad = try await client.postForm(
                    "/admin/advertisers",
                    [
                        ("csrf", csrf), ("name", ""), ("domains", "not a domain"), ("website", "https://elsewhere.example"),
                    ], cookie: cookie)
                #expect(bad.status == .unprocessableContent)
                #expect(bad.text.contains("Name is required.") && bad.text.contains("is not a domain name"))
                let good = try await client.postForm(
                    "/admin/advertisers",
                    [
                        ("csrf", csrf), ("name", "Tiny Cinema Co"), ("description", "Small screens."), ("domains", "tinycinema.example"),
                        ("website", "https://tinycinema.example/"),
                    ], cookie: cookie)
                #expect(good.status == .ok && good.text.contains("Shop saved: its signing key"))
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
        try await TestApp.withOffers(.demo) { app, _ in
            try await app.test { client in
                let cookie = try await app.seedAdmin()
                let csrf = try await AdminConsoleTests.csrf(client, cookie)
                let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 7, count: 64)
                let fields = [("csrf", csrf), ("name", "Pixel Shop"), ("domains", "pixel.example"), ("website", "https://pixel.example")]
                let refused = try await client.postMultipart(
                    "/admin/advertisers", fields, file: ("logo", "logo.png", Data("<svg onload=alert(1)>".utf8)), cookie: cookie)
                #expect(refused.status == .unprocessableContent)
                #expect(refused.text.contains("The logo must be a PNG, JPEG or WebP file"))
                let accepted = try await client.postMultipart("/admin/advertisers", fields, file: ("logo", "logo.png", png), cookie: cookie)
                // A new shop's answer is its signing key, shown this once and never cached.
                #expect(accepted.status == .ok && accepted.text.contains("Shop saved: its signing key"))
                #expect(accepted.text.contains(#"value="pss_"#) && accepted.headers[.cacheControl] == "no-store")
                let shop = try #require(try await app.services.offerAdmin.advertisers().first { $0.name == "Pixel Shop" })
                let key = try #require(try await app.services.offers.secrets.current(shop.id))
                #expect(accepted.text.contains(key))
                #expect(!(try await client.get("/admin/offers", cookie: cookie).text.contains(key)), "the console never shows it again")
                let logo = try await client.get(Route.offerImageLink(try #require(shop.logoImageID)))
                #expect(logo.headers[.contentType] == "image/png" && Data(buffer: logo.body) == png)
            }
        }
    }
}

extension TestClientProtocol {
    /// A multipart/form-data POST with text fields and one file, as the console's forms send it.
    func postMultipart(_ uri: String, _ fields: [(String, String)], file: (name: String, filename: String, data: Data), cookie: String?) async throws
        -> TestResponse
    {
        // Mixed case, as browsers send it (the boundary is case-sensitive).
        let boundary = "----PopcornFormBoundary\(UInt32.random(in: 0 ... .max))"
        var body = Data()
        for (name, value) in fields {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8))
        }
        body.append(
            Data(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.name)\"; filename=\"\(file.filename)\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                    .utf8))
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
        try await TestApp.withOffers(.demo) { app, _ in
            try await app.test { client in
                let cookie = try await app.seedAdmin()
                let csrf = try await AdminConsoleTests.csrf(client, cookie)
                let offer = try await app.storedOffer(5)
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
