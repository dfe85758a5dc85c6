import Foundation
import Hummingbird

/// TV Shows › Calendar: the episodes of the shows a person tracks from a week back to 30 days
/// ahead, and their favourite films' releases, by day in the person's time zone (the one set on
/// their account, else the browser's, which `app.js` keeps in the `ps_tz` cookie, else UTC).
struct CalendarController {
    let calendar: CalendarService
    let renderer: PageRenderer

    /// The cookie `app.js` writes with the browser's time zone.
    static let zoneCookie = "ps_tz"

    func register(on router: RouterGroup<AppRequestContext>) {
        router.on(Route.calendar) { request, context in try await page(request, context) }
    }

    func page(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let (zone, source) = try await Self.zone(request, context, calendar: calendar)
        let today = calendar.today(in: zone)
        guard let from = CalendarService.day(today, plus: -7), let to = CalendarService.day(today, plus: 30) else {
            throw HTTPError(.internalServerError)
        }
        var items: [CalendarItem] = []
        if let profile = context.profileID { items = try await calendar.items(profile: profile, CalendarQuery(from: from, to: to, zone: zone)) }
        let page = CalendarPage(
            items: items, zone: zone, zoneSource: source, today: today, now: calendar.clock.now(), signedIn: context.isAccount,
            row: renderer.calendarRow)
        var response = try renderer.for(context).response(page)
        response.headers[.vary] = "Cookie"
        return response
    }

    /// The person's zone and where it came from.
    static func zone(_ request: Request, _ context: AppRequestContext, calendar: CalendarService) async throws -> (TimeZone, CalendarPage.ZoneSource)
    {
        if let profile = context.profileID, let own = try await calendar.timeZone(profile: profile) { return (own, .account) }
        if let name = context.cookies.value(zoneCookie, in: request).map({ $0.removingPercentEncoding ?? $0 }),
            let zone = CalendarService.zone(named: name)
        {
            return (zone, .browser)
        }
        return (TimeZone(identifier: "UTC")!, .none)
    }
}
