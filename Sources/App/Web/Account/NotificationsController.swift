import Foundation
import Hummingbird

/// Account › Notifications: the targets a person is told on (ntfy, Gotify, Discord, a signed
/// webhook), when (as episodes air, hours later, a daily digest), each one's last delivery and
/// error, and a "Send a test" that reports what the target answered.
struct NotificationsController {
    let accounts: AccountService
    let targets: NotificationTargets
    let worker: NotificationWorker
    let renderer: PageRenderer

    func register(on router: RouterGroup<AppRequestContext>) {
        router.on(Route.notifications) { request, context in
            let notice: String? =
                switch request.uri.queryParameters["done"] {
                case "saved": "Saved."
                case "resumed": "Resumed: notices are sent to it again."
                case "removed": "Target removed."
                default: nil
                }
            return try await page(context, notice: notice)
        }
        router.on(Route.addNotificationTarget) { request, context in try await add(request, context) }
        router.on(Route.saveNotificationTarget) { request, context in try await save(request, context) }
        router.on(Route.testNotificationTarget) { request, context in try await test(context) }
        router.on(Route.resumeNotificationTarget) { _, context in
            try await simple(context, done: "resumed") { (profile, id) async throws(NotificationError) in
                try await targets.resume(profile: profile, id: id)
            }
        }
        router.on(Route.removeNotificationTarget) { _, context in
            try await simple(context, done: "removed") { (profile, id) async throws(NotificationError) in
                try await targets.remove(profile: profile, id: id)
            }
        }
    }

    func account(_ context: AppRequestContext) async throws -> AccountService.Account? { try await accounts.account(context.profileID) }

    func page(
        _ context: AppRequestContext, notice: String? = nil, error: String? = nil, newSecret: String? = nil,
        report: NotificationsPage.Report? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        guard let account = try await account(context) else {
            return .redirect(to: Route.signInForm.link(query: ["next": Route.notifications.path]), type: .normal)
        }
        let page = NotificationsPage(
            targets: try await targets.list(profile: account.id), deliveries: try await targets.deliveries(profile: account.id),
            notice: notice, error: error, newSecret: newSecret, report: report, allowsPrivate: targets.allowPrivate)
        var response = try renderer.for(context).response(page, status: status)
        // A webhook's secret is shown once: no cache keeps the page.
        response.headers[.cacheControl] = "no-store"
        return response
    }

    struct Form: Decodable {
        var kind: String?
        var url: String?
        var token: String?
        var on_air: String?
        var delay: String?
        var digest: String?
        var digest_hour: String?
    }

    static func settings(_ form: Form) -> NotificationSettings {
        NotificationSettings(
            onAir: form.on_air != nil, delayHours: Int(form.delay ?? "0") ?? -1, digest: form.digest != nil,
            digestHour: Int(form.digest_hour ?? "9") ?? -1)
    }

    func add(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let account = try await account(context) else { return try await page(context) }
        let form = try await FormInput.decode(Form.self, request, context)
        guard let kind = form.kind.flatMap(NotificationTarget.Kind.init(rawValue:)) else {
            return try await page(context, error: "Choose ntfy, Gotify, Discord or a webhook.", status: .unprocessableContent)
        }
        let made: (target: NotificationTarget, secret: String?)
        do {
            made = try await targets.add(profile: account.id, kind: kind, url: form.url ?? "", token: form.token, settings: Self.settings(form))
        } catch {
            return try await page(context, error: error.message, status: .unprocessableContent)
        }
        return try await page(context, notice: "\(made.target.name) added. Send a test to check it.", newSecret: made.secret)
    }

    func targetID(_ context: AppRequestContext) throws -> UUID {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw HTTPError(.notFound) }
        return id
    }

    func save(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let account = try await account(context) else { return try await page(context) }
        let id = try targetID(context)
        let form = try await FormInput.decode(Form.self, request, context)
        do {
            try await targets.save(profile: account.id, id: id, settings: Self.settings(form))
        } catch {
            return try await failure(error, context)
        }
        return .redirect(to: Route.notifications.link(query: ["done": "saved"]), type: .normal)
    }

    func test(_ context: AppRequestContext) async throws -> Response {
        guard let account = try await account(context) else { return try await page(context) }
        guard let target = try await targets.target(profile: account.id, id: try targetID(context)) else {
            return try await failure(.notFound, context)
        }
        let result = try await worker.sendTest(target)
        return try await page(context, report: .init(ok: result.ok, words: "Test to \(target.name): \(result.words)"))
    }

    func simple(
        _ context: AppRequestContext, done: String, _ act: (UUID, UUID) async throws(NotificationError) -> Void
    ) async throws -> Response {
        guard let account = try await account(context) else { return try await page(context) }
        do {
            try await act(account.id, try targetID(context))
        } catch let error as NotificationError {
            return try await failure(error, context)
        }
        return .redirect(to: Route.notifications.link(query: ["done": done]), type: .normal)
    }

    func failure(_ error: NotificationError, _ context: AppRequestContext) async throws -> Response {
        if error == .notFound { return try ErrorPages.notFound(renderer.for(context), error.message) }
        return try await page(context, error: error.message, status: .unprocessableContent)
    }
}
