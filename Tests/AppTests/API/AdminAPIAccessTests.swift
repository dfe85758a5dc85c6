import Foundation
import Hummingbird
import HummingbirdTesting
import PopcornAPI
import Testing

@testable import App

@Suite("JSON API v1: who may use the console's operations")
struct AdminAPIAccessTests {
    @Test("every admin operation: 401 without a live token, 403 for a member's token or session; never any data")
    func refusedCallers() async throws {
        try await TestApp.withOffers(.demo) { app, _ in
            try await app.seedAdmin(token: AdminAPI.token)
            let member = try await app.signedIn("member")
            try await app.give(AdminAPI.memberToken, to: member.profile)
            try await app.test { client in
                for (method, path, body) in AdminAPI.calls {
                    let unauthorized = [
                        nil, "Basic dGVzdDp0ZXN0", "Bearer", "token \(AdminAPI.token)", "Bearer wrong-token-0123456789", "Bearer \(AdminAPI.token)x",
                        "Bearer  \(AdminAPI.token)", "Bearer ", "Bearer \(testToken("never-issued"))",
                    ]
                    for authorization in unauthorized {
                        let response = try await client.offersAPI(path, method, body, authorization: authorization)
                        #expect(response.status == .unauthorized, "\(method) \(path) with \(authorization ?? "no header")")
                        #expect(response.headers[.wwwAuthenticate] == #"Bearer realm="PopcornSwirl""#)
                        #expect(try APITests.decode(Schemas.Problem.self, response).title == "Unauthorized")
                        AdminAPI.expectNoData(response, "\(method) \(path)")
                    }
                    let memberCall = try await client.offersAPI(path, method, body, authorization: "Bearer \(AdminAPI.memberToken)")
                    #expect(memberCall.status == .forbidden, "\(method) \(path) with a member's token")
                    #expect(try APITests.decode(Schemas.Problem.self, memberCall).detail == APIRefusal.notAdmin)
                    AdminAPI.expectNoData(memberCall, "\(method) \(path)")
                    let memberSession = try await client.offersAPI(path, method, body, authorization: nil, cookie: member.cookie)
                    #expect(memberSession.status == .forbidden, "\(method) \(path) with a member's session")
                    AdminAPI.expectNoData(memberSession, "\(method) \(path)")
                }
                // Nothing was created, changed or deleted.
                #expect(try await app.services.offerAdmin.offers().count == 32)
                #expect(try await app.services.offerAdmin.advertisers().count == 8)
                #expect(try await app.services.offerAdmin.offer(1)?.landingURL.host?.hasSuffix("reelsnacks.example") == true)
                // Paths the router may normalise are refused too.
                for path in [
                    "/api/v1//admin/offers", "/api//v1/admin/offers/1", "/api/v1/%61dmin/offers", "/api/v1/admin/offers/", "/api/v1/admin/offers/1/",
                ] {
                    let response = try await client.offersAPI(path, .get, nil, authorization: nil)
                    #expect(response.status == .unauthorized || response.status == .notFound, "\(path): \(response.status)")
                    if response.status == .unauthorized {
                        #expect(response.headers[.wwwAuthenticate] == #"Bearer realm="PopcornSwirl""#, "\(path)")
                        #expect(try APITests.decode(Schemas.Problem.self, response).title == "Unauthorized", "\(path)")
                    }
                    AdminAPI.expectNoData(response, path)
                }
            }
        }
    }

    @Test("a revoked token stops working at once; an administrator's session cookie works like their token")
    func revokedAndSession() async throws {
        try await TestApp.withOffers(.demo) { app, _ in
            let cookie = try await app.seedAdmin(token: AdminAPI.token)
            try await app.test { client in
                #expect(try await client.offersAPI("/api/v1/admin/offers/1", .get, nil).status == .ok)
                let viaSession = try await client.offersAPI("/api/v1/admin/offers/1", .get, nil, authorization: nil, cookie: cookie)
                #expect(viaSession.status == .ok)
                let admin = try #require(try await app.services.accounts.profile(username: "admin"))
                let issued = try await app.services.tokens.list(profile: admin)
                #expect(issued.map(\.hint) == [String(AdminAPI.token.prefix(9))])
                #expect(try await app.services.tokens.revoke(profile: admin, id: issued[0].id))
                let revoked = try await client.offersAPI("/api/v1/admin/offers/1", .get, nil)
                #expect(revoked.status == .unauthorized)
                AdminAPI.expectNoData(revoked, "revoked token")
            }
        }
    }

    @Test("the handlers refuse by themselves too, whatever the middleware did")
    func handlersRefuse() async throws {
        try await TestApp.withOffers(.demo) { app, _ in
            try await app.seedAdmin(token: AdminAPI.token)
            let services = app.services
            let api = apiController(
                services,
                actions: LibraryActions(services)
            )
            let body = Components.Schemas.OfferInput(
                advertiserId: 1, headline: "H", description: "D", priceText: "$1", landingURL: "https://reelsnacks.example/x",
                startsOn: "2026-01-01", endsOn: "2026-12-31"
            )
            func session(_ refusal: HTTPResponse.Status?) -> APISession {
                APISession(existing: nil, sessions: app.services.sessions, viewer: .test("v"), adminRefusal: refusal)
            }
            for refusal in [HTTPResponse.Status.unauthorized, .forbidden] {
                try await APIScope.$session.withValue(session(refusal)) {
                    var outputs: [String] = []
                    outputs.append(String(describing: try await api.listAdvertisers(.init())))
                    outputs.append(
                        String(
                            describing: try await api.createAdvertiser(
                                .init(
                                    body: .json(
                                        .init(
                                            name: "X", website: "https://x.example", domains: ["x.example"]
                                        ))))))
                    outputs.append(String(describing: try await api.listAdminOffers(.init())))
                    outputs.append(String(describing: try await api.createOffer(.init(body: .json(body)))))
                    outputs.append(String(describing: try await api.getAdminOffer(.init(path: .init(id: 1)))))
                    outputs.append(String(describing: try await api.replaceOffer(.init(path: .init(id: 1), body: .json(body)))))
                    outputs.append(String(describing: try await api.deleteOffer(.init(path: .init(id: 1)))))
                    outputs.append(String(describing: try await api.getOfferReport(.init(path: .init(id: 1)))))
                    #expect(outputs.count == 8)
                    for output in outputs {
                        #expect(output.hasPrefix(refusal == .unauthorized ? "unauthorized(" : "forbidden("), "\(output.prefix(200))")
                        #expect(!output.contains("Reel Snacks") && !output.contains("reelsnacks.example"))
                    }
                }
            }
            // No session at all (the middleware did not run): refused.
            let bare = try await api.getAdminOffer(.init(path: .init(id: 1)))
            guard case .forbidden = bare else {
                Issue.record("expected 403 without a session, got \(bare)")
                return
            }
            let count = try await app.services.offerAdmin.offers().count
            let first = try await app.services.offerAdmin.offer(1)
            #expect(count == 32 && first != nil)
            // Allowed: the data.
            let allowed = try await APIScope.$session.withValue(session(nil)) { try await api.getAdminOffer(.init(path: .init(id: 1))) }
            guard case .ok = allowed else {
                Issue.record("expected 200 when allowed, got \(allowed)")
                return
            }
        }
    }
}
