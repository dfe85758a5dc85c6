import Foundation
import Hummingbird

/// The statistics page (`?year=` for a year in review).
struct StatsController {
    let statistics: StatisticsService
    let renderer: PageRenderer

    func register(on router: RouterGroup<AppRequestContext>) {
        router.on(Route.statistics) { request, context in try await page(request, context) }
    }

    func page(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let year: Int?
        do { year = try ReviewYear.parse(request.uri.queryParameters["year"].map(String.init)) } catch {
            return try ErrorPages.badRequest(renderer.for(context), error.message, backURL: Route.statisticsPage())
        }
        return try renderer.for(context).response(StatsPageView(try await statistics.statistics(profile: context.profileID, year: year)))
    }
}
