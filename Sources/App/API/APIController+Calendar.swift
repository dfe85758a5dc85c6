import Foundation
import OpenAPIRuntime
import PopcornAPI

/// The calendar as JSON, and the private iCal feed turned on, renewed or off, over the same
/// services as the Calendar tab and the account page.
extension APIController {
    func getCalendar(_ input: Operations.GetCalendar.Input) async throws -> Operations.GetCalendar.Output {
        guard let profile = APIScope.session?.existing else { return .unauthorized(APIRefusal.signInResponse) }
        func bad(_ detail: String) -> Operations.GetCalendar.Output { .badRequest(.init(body: .applicationProblemJson(.badRequest(detail)))) }
        var zone = try await calendar.zone(profile: profile)
        if let name = input.query.timeZone {
            guard let asked = CalendarService.zone(named: name) else {
                return bad("timeZone “\(name.prefix(64))” is not a time zone: send an IANA name such as Europe/Paris.")
            }
            zone = asked
        }
        let query: CalendarQuery
        do { query = try CalendarService.query(from: input.query.from, to: input.query.to, zone: zone) } catch { return bad(error.message) }
        let items = try await calendar.items(profile: profile, query)
        let site = APIScope.site
        return .ok(.init(body: .json(.init(timeZone: zone.identifier, items: items.map { .init($0, site: site) }))))
    }

    func renewCalendarFeed(_ input: Operations.RenewCalendarFeed.Input) async throws -> Operations.RenewCalendarFeed.Output {
        guard let profile = APIScope.session?.existing else { return .unauthorized(APIRefusal.signInResponse) }
        guard try await accounts.account(profile) != nil else {
            return .forbidden(.init(body: .applicationProblemJson(.init(status: 403, detail: Self.feedNeedsAccount))))
        }
        let token = try await calendarFeeds.renew(profile: profile)
        return .ok(.init(body: .json(.init(url: Route.calendarFeedURL(base: APIScope.site, token: token)))))
    }

    func revokeCalendarFeed(_ input: Operations.RevokeCalendarFeed.Input) async throws -> Operations.RevokeCalendarFeed.Output {
        guard let profile = APIScope.session?.existing else { return .unauthorized(APIRefusal.signInResponse) }
        guard try await accounts.account(profile) != nil else {
            return .forbidden(.init(body: .applicationProblemJson(.init(status: 403, detail: Self.feedNeedsAccount))))
        }
        guard try await calendarFeeds.revoke(profile: profile) else { return .notFound(.noCalendarFeed) }
        return .noContent(.init())
    }

    static let feedNeedsAccount = "A calendar feed belongs to an account: sign up (your lists come with you), then turn it on."
}

extension Components.Schemas.CalendarItem {
    init(_ item: CalendarItem, site: String) {
        let episode = item.episode
        self.init(
            kind: item.kind == .episode ? .episode : .movie, id: Int64(item.id), title: episode?.name ?? item.title,
            show: episode == nil ? nil : item.title, showId: item.showID.map(Int64.init), season: episode?.season, number: episode?.number,
            start: item.allDay ? (item.day ?? DiaryService.today(item.start)) : item.start.formatted(.iso8601),
            end: item.allDay ? nil : item.end?.formatted(.iso8601), allDay: item.allDay, watched: item.watched,
            mark: item.mark.flatMap { Components.Schemas.CalendarItem.MarkPayload(rawValue: $0.rawValue) }, network: item.network,
            url: site + (item.kind == .episode ? Route.episode.link(item.id) : Route.movie.link(item.id)))
    }
}

extension Components.Responses.NotFound {
    static let noCalendarFeed = Self(body: .applicationProblemJson(.notFound("Your calendar feed is off already.")))
}
