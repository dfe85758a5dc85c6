import Foundation
import Hummingbird

/// The statistics page (`?year=` for a year in review), rendered once per person, year and
/// version of their lists and diary, like the diary's pages.
struct StatsController {
    let statistics: StatisticsService
    let versions: LibraryVersions
    let renderer: PageRenderer
    let pages: PersonalPageCache

    func register(on router: RouterGroup<AppRequestContext>) {
        router.on(Route.statistics) { request, context in try await page(request, context) }
    }

    func page(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let year: Int?
        do { year = try ReviewYear.parse(request.uri.queryParameters["year"].map(String.init)) } catch {
            return try ErrorPages.badRequest(renderer, error.message, backURL: Route.statisticsPage())
        }
        guard let profile = context.profileID else {
            return try renderer.response(StatsPageView(try await statistics.statistics(profile: nil, year: year)))
        }
        let key = "\(profile)|\(Route.statisticsPage(year: year))"
        let page = try await pages.page(key, version: versions.current(profile), listing: "stats") { [statistics, renderer] in
            try renderer.html(StatsPageView(try await statistics.statistics(profile: profile, year: year)))
        }
        return page.parts.response()
    }
}
