import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import App

/// Every console route comes from `AdminRoute`, the type the router registers them from, so a
/// route added there is walked here without anyone listing it: the `/admin` group's gate must
/// refuse it for strangers (401, the sign-in form) and for members (403), and show no console data.
@Suite("Admin routes deny by default")
struct AdminRouteGateTests {
    /// The address of a route, with an existing offer's or shop's id where it takes one.
    static func address(_ route: AdminRoute) -> String {
        route.pattern.contains(":id") ? route.link(1) : route.path
    }

    @Test("every AdminRoute refuses strangers with 401 and members with 403, changing nothing")
    func everyAdminRouteIsGated() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let member = try await app.signedIn("member")
                for route in AdminRoute.allCases {
                    let path = Self.address(route)
                    let fields = [("headline", "Changed"), ("name", "Changed")]
                    let stranger =
                        route.method == .get
                        ? try await client.get(path) : try await client.postForm(path, fields)
                    #expect(stranger.status == .unauthorized, "\(route.rawValue) for a stranger")
                    #expect(stranger.text.contains("Sign in with an administrator’s account"), "\(route.rawValue)")
                    let asMember =
                        route.method == .get
                        ? try await client.get(path, cookie: member.cookie) : try await client.postForm(path, fields, cookie: member.cookie)
                    #expect(asMember.status == .forbidden, "\(route.rawValue) for a member")
                    for response in [stranger, asMember] {
                        #expect(!response.text.contains("Reel Snacks") && !response.text.contains("data-offer-id"), "\(route.rawValue)")
                    }
                }
                let offer = try #require(try await app.services.offerAdmin.offer(1))
                #expect(offer.active && offer.headline != "Changed", "no refused form changed the offer")
                let shop = try #require(try await app.services.offerAdmin.advertiser(1))
                #expect(shop.active && shop.name != "Changed", "no refused form changed the shop")
            }
        }
    }

    @Test("the routes walked are the ones an administrator reaches")
    func walkedRoutesExist() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let admin = try await app.signedIn("admin", admin: true)
                for route in AdminRoute.allCases where route.method == .get {
                    let response = try await client.get(Self.address(route), cookie: admin.cookie)
                    #expect([.ok, .seeOther].contains(response.status), "\(route.rawValue) answered \(response.status)")
                }
            }
        }
    }
}
