import Foundation
import HummingbirdTesting
import Testing

@testable import App

/// The TVMaze challenge's layout: TV Shows has its tabs, Shows and Favorites, with Up Next between
/// them (issue 44); a show's page has its one action in its coloured navigation bar.
@Suite("TV Shows tabs and the show's bar")
struct ShowTabsTests {
    static func tabs(_ html: String) -> [String] {
        guard let start = html.range(of: #"<nav class="segmented show-tabs" aria-label="TV Shows">"#),
            let end = html[start.upperBound...].range(of: "</nav>")
        else { return [] }
        return html[start.upperBound..<end.lowerBound].matches(of: /<a href="([^"]+)"( aria-current="page")?>([^<]+)</).map {
            "\($0.output.3)\($0.output.2 == nil ? "" : "*") \($0.output.1)"
        }
    }

    @Test("Shows, Up Next, Calendar and Favorites are the tabs of each of their pages, the current one marked")
    func tabs() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let shows = try await client.get("/shows").text
                let favorites = try await client.get("/shows/favorites").text
                let search = try await client.get("/shows?q=girls").text
                let upNext = try await client.get("/shows/up-next").text
                let calendar = try await client.get("/shows/calendar").text
                #expect(Self.tabs(shows) == ["Shows* /shows", "Up Next /shows/up-next", "Calendar /shows/calendar", "Favorites /shows/favorites"])
                #expect(
                    Self.tabs(favorites) == ["Shows /shows", "Up Next /shows/up-next", "Calendar /shows/calendar", "Favorites* /shows/favorites"])
                #expect(Self.tabs(upNext) == ["Shows /shows", "Up Next* /shows/up-next", "Calendar /shows/calendar", "Favorites /shows/favorites"])
                #expect(Self.tabs(calendar) == ["Shows /shows", "Up Next /shows/up-next", "Calendar* /shows/calendar", "Favorites /shows/favorites"])
                #expect(Self.tabs(search).count == 4)
            }
        }
    }

    @Test("a show's Favorite, then Delete, is in the page's top bar, not in its body")
    func actionInTheBar() async throws {
        try await TestApp.with { app in
            let cookie = try await app.visitor()
            try await app.test { client in
                func bar(_ html: String) -> Substring {
                    guard let start = html.range(of: #"<header class="topbar">"#), let end = html.range(of: "</header>") else { return "" }
                    return html[start.upperBound..<end.lowerBound]
                }
                let before = try await client.get("/shows/139", cookie: cookie).text
                #expect(bar(before).contains(#"<button class="btn-show-action btn-favorite-show""#))
                #expect(before.components(separatedBy: "btn-favorite-show").count == 2, "one Favorite button, in the bar")
                #expect(
                    try await client.postForm("/library/shows/139", [("favorite", "1"), ("return_to", "/shows/139")], cookie: cookie).status
                        == .seeOther)
                let after = try await client.get("/shows/139", cookie: cookie).text
                #expect(bar(after).contains(#"class="btn-show-action btn-delete-show js-remove""#))
                let list = try await client.get("/shows").text
                #expect(!bar(list).contains("btn-show-action"), "other pages' bars have no action")
            }
        }
    }
}
