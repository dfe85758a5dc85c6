import Foundation
import Hummingbird

/// The account page's Calendar section: the private feed turned on, renewed or off, and the
/// person's time zone.
extension AccountController {
    func renewCalendarFeed(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let account = try await signedIn(context) else { return try signInRequired(Route.account.path, context) }
        let token = try await calendarFeeds.renew(profile: account.id)
        let site = SiteAddress.of(publicURL: publicURL, request: request, secure: context.cookies.secure)
        return try await accountPage(
            context, notice: "Your calendar feed’s address is below. Copy it now: it is shown only this once.", failure: nil,
            newFeedURL: Route.calendarFeedURL(base: site, token: token))
    }

    func revokeCalendarFeed(_ context: AppRequestContext) async throws -> Response {
        guard let account = try await signedIn(context) else { return try signInRequired(Route.account.path, context) }
        try await calendarFeeds.revoke(profile: account.id)
        return Response.redirect(to: Route.account.link(query: ["done": "feed-off"]) + "#calendar", type: .normal)
    }

    struct ZoneForm: Decodable {
        var time_zone: String?
    }

    func saveTimeZone(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let account = try await signedIn(context) else { return try signInRequired(Route.account.path, context) }
        let form = try await FormInput.decode(ZoneForm.self, request, context)
        do {
            try await calendar.setTimeZone(form.time_zone?.trimmingCharacters(in: .whitespaces), profile: account.id)
        } catch {
            return try await accountPage(context, notice: nil, failure: ["time_zone": error.message])
        }
        return Response.redirect(to: Route.account.link(query: ["done": "zone"]) + "#calendar", type: .normal)
    }
}
