import Hummingbird

/// Tabs whose features arrive with later work: they say so instead of failing.
struct PlaceholderController {
    let renderer: PageRenderer

    func register(on router: Router<AppRequestContext>) {
        router.get("/search") { _, _ in
            try renderer.response("message", MessagePage(
                chrome: Chrome("Search", tab: .search), heading: "Search is coming soon",
                message: "Searching by title is on its way. Meanwhile, browse Movies by release year.", retryURL: nil, backURL: Paths.home
            ))
        }
    }
}
