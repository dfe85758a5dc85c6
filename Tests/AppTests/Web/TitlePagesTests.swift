import Foundation
import HummingbirdTesting
import SQLKit
import Testing

@testable import App

/// A film's and a show's page are kept between views (`TitlePages`): what a person sees must still
/// be theirs and current on every view.
@Suite("Title pages kept between views")
struct TitlePagesTests {
    static let favorite = #"aria-pressed="true" data-on="Favorite ✓" data-off="Favorite">Favorite ✓"#

    @Test("a film's page is kept between a person's visits but shows each change of theirs at once, and only theirs")
    func filmFollowsWrites() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie =
                    try #require(try await client.postForm("/library/movies/1001", [("favorite", "1")]).sessionCookie) + "; " + TestApp.csrfCookie
                var page = try await client.get("/movies/1001", cookie: cookie).text
                #expect(page.contains(Self.favorite))
                #expect(try await client.get("/movies/1001", cookie: cookie).text == page, "the same bytes a second time")
                // Every part a person changes shows on the next view: the flags, the rating, a note, a list.
                _ = try await client.postForm("/library/movies/1001", [("watched", "1"), ("rating", "7")], cookie: cookie)
                _ = try await client.postForm("/library/movies/1001", [("note", "Kept and fresh")], cookie: cookie)
                _ = try await client.postForm("/lists", [("name", "Road trips")], cookie: cookie)
                page = try await client.get("/movies/1001", cookie: cookie).text
                #expect(page.contains(#"data-on="Watched ✓" data-off="Watched">Watched ✓"#))
                #expect(page.contains("Kept and fresh") && page.contains("Road trips"))
                #expect(page.contains(#"<option value="7" selected>"#))
                // Someone else, and a browser with no lists, each get a page without any of it.
                let other = try #require(try await client.postForm("/library/movies/1002", [("watched", "1")]).sessionCookie)
                for stranger in [other, nil] {
                    let theirs = try await client.get("/movies/1001", cookie: stranger).text
                    #expect(!theirs.contains(Self.favorite) && !theirs.contains("Kept and fresh") && !theirs.contains("Road trips"))
                }
            }
        }
    }

    @Test("a show's page is kept too, and a favorite or a removal shows on the next view")
    func showFollowsWrites() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie =
                    try #require(try await client.postForm("/library/shows/139", [("favorite", "1")]).sessionCookie) + "; " + TestApp.csrfCookie
                let saved = try await client.get("/shows/139", cookie: cookie).text
                #expect(saved.contains("btn-delete-show") && !saved.contains("btn-favorite-show"))
                #expect(try await client.get("/shows/139", cookie: cookie).text == saved)
                _ = try await client.postForm("/library/shows/139/remove", [], cookie: cookie)
                let removed = try await client.get("/shows/139", cookie: cookie).text
                #expect(removed.contains("btn-favorite-show") && !removed.contains("btn-delete-show"))
            }
        }
    }

    @Test("TV Shows and TV Favorites are kept per person too: a favorite shows on both on the next view, and only for that person")
    func showListsFollowWrites() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let cookie =
                    try #require(try await client.postForm("/library/shows/590", [("favorite", "1")]).sessionCookie) + "; " + TestApp.csrfCookie
                let marked = "/library/shows/139/remove?return_to=/shows"
                let before = try await client.get("/shows", cookie: cookie).text
                #expect(!before.contains(marked))
                #expect(try await client.get("/shows", cookie: cookie).text == before, "the same bytes a second time")
                #expect(!(try await client.get("/shows/favorites", cookie: cookie).text.contains(#"data-show-id="139""#)))
                _ = try await client.postForm("/library/shows/139", [("favorite", "1")], cookie: cookie)
                #expect(try await client.get("/shows", cookie: cookie).text.contains(marked))
                #expect(try await client.get("/shows/favorites", cookie: cookie).text.contains(#"data-show-id="139""#))
                #expect(!(try await client.get("/shows").text.contains(marked)), "a browser without lists")
            }
        }
    }

    @Test("a kept film page still gets each view's offers: the fourth view within the hour shows the next offer, an edited offer its new text")
    func offersPerView() async throws {
        try await TestApp.withOffers(.shop("Night Shop")) { app, shop in
            let best = try await app.addOffer(advertiser: shop, headline: "Best Offer", weight: 9)
            _ = try await app.addOffer(advertiser: shop, headline: "Next Offer", weight: 5)
            try await app.test { client in
                let banner = { (page: String) in page.firstMatch(of: /class="offer-headline">([^<]+)</).map { String($0.1) } }
                for view in 1...3 {
                    let page = try await client.get("/movies/1001", cookie: Visitors.cookie(1)).text
                    #expect(banner(page) == "Best Offer", "view \(view)")
                }
                #expect(banner(try await client.get("/movies/1001", cookie: Visitors.cookie(1)).text) == "Next Offer")
                #expect(banner(try await client.get("/movies/1001", cookie: Visitors.cookie(2)).text) == "Best Offer", "another visitor")
                // The same offer edited in the console: its section is drawn anew, not reused.
                try await app.services.database.sql.update("offers").set("headline", to: SQLBind("Best Offer, Now Cheaper"))
                    .where("id", .equal, SQLBind(best)).run()
                app.services.offers.store.invalidate()
                #expect(banner(try await client.get("/movies/1001", cookie: Visitors.cookie(3)).text) == "Best Offer, Now Cheaper")
            }
        }
    }

    @Test("a sponsored card is drawn once per placed offer, and an edited offer's card shows its new text on the next view")
    func sponsoredCardsFollowEdits() async throws {
        try await TestApp.withOffers(.shop("Night Shop")) { app, shop in
            let offer = try await app.addOffer(advertiser: shop, headline: "Popcorn Tin", weight: 9)
            try await app.test { client in
                // The headline of the sponsored card of Night Shop's offer.
                let card = { (page: String) in
                    page.firstMatch(of: /<h3 class="card-title">([^<]+)<\/h3>\n  <\/a>\n  <p class="card-meta">Night Shop/).map { String($0.1) }
                }
                #expect(card(try await client.get("/movies?year=2026", cookie: Visitors.cookie(1)).text) == "Popcorn Tin")
                #expect(card(try await client.get("/movies?year=2026", cookie: Visitors.cookie(2)).text) == "Popcorn Tin")
                try await app.services.database.sql.update("offers").set("headline", to: SQLBind("Popcorn Tin, Bigger"))
                    .where("id", .equal, SQLBind(offer)).run()
                app.services.offers.store.invalidate()
                #expect(card(try await client.get("/movies?year=2026", cookie: Visitors.cookie(3)).text) == "Popcorn Tin, Bigger")
            }
        }
    }
}
