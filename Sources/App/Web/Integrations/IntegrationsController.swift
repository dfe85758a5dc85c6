import Foundation
import Hummingbird

/// Account › Integrations: a media server's URL added (shown once), its settings saved, revoked,
/// and a waiting event's title chosen (Needs review), with a search for another title.
struct IntegrationsController {
    let accounts: AccountService
    let integrations: Integrations
    let worker: IntegrationWorker
    let publicURL: String?
    let renderer: PageRenderer

    func register(on router: RouterGroup<AppRequestContext>) {
        router.on(Route.integrations) { request, context in
            let notice: String? =
                switch request.uri.queryParameters["done"] {
                case "saved": "Saved."
                case "revoked": "Integration revoked: its URL no longer answers."
                case "chosen": "Chosen: the event is applied, and later events of that title from this server follow your choice."
                default: nil
                }
            var search: IntegrationsPage.Search?
            if let id = request.uri.queryParameters["review"].flatMap({ UUID(uuidString: String($0)) }),
                let text = request.uri.queryParameters["q"].map(String.init), !text.isEmpty
            {
                let query = String(text.prefix(200))
                search = .init(event: id, query: query, found: await worker.matcher.candidates(for: query))
            }
            return try await page(context, notice: notice, search: search)
        }
        router.on(Route.addIntegration) { request, context in try await add(request, context) }
        router.on(Route.saveIntegration) { request, context in try await save(request, context) }
        router.on(Route.revokeIntegration) { _, context in
            guard let account = try await account(context) else { return try await page(context) }
            guard try await integrations.revoke(profile: account.id, id: try id(context)) else {
                return try ErrorPages.notFound(renderer.for(context), IntegrationError.notFound.message)
            }
            return .redirect(to: Route.integrations.link(query: ["done": "revoked"]), type: .normal)
        }
        router.on(Route.chooseIntegrationTitle) { request, context in try await choose(request, context) }
    }

    func account(_ context: AppRequestContext) async throws -> AccountService.Account? { try await accounts.account(context.profileID) }

    func id(_ context: AppRequestContext) throws -> UUID {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw HTTPError(.notFound) }
        return id
    }

    func page(
        _ context: AppRequestContext, notice: String? = nil, error: String? = nil, search: IntegrationsPage.Search? = nil,
        newURL: (Integration, String)? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        guard let account = try await account(context) else {
            return .redirect(to: Route.signInForm.link(query: ["next": Route.integrations.path]), type: .normal)
        }
        let page = IntegrationsPage(
            integrations: try await integrations.list(profile: account.id), waiting: try await integrations.waiting(profile: account.id),
            events: try await integrations.events(profile: account.id), search: search, newURL: newURL, notice: notice, error: error)
        var response = try renderer.for(context).response(page, status: status)
        // A new URL is shown once: no cache keeps the page.
        response.headers[.cacheControl] = "no-store"
        return response
    }

    struct Form: Decodable {
        var kind: String?
        var threshold: String?
        var server_user: String?
        var unplayed_erases: String?
        var choice: String?
    }

    func add(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let account = try await account(context) else { return try await page(context) }
        let form = try await FormInput.decode(Form.self, request, context)
        guard let kind = form.kind.flatMap(IntegrationKind.init(rawValue:)) else {
            return try await page(context, error: "Choose Plex, Jellyfin, Emby, Kodi or another app.", status: .unprocessableContent)
        }
        let integration: Integration
        let token: String
        do { (integration, token) = try await integrations.create(profile: account.id, kind: kind) } catch {
            return try await page(context, error: error.message, status: .unprocessableContent)
        }
        let site = SiteAddress.of(publicURL: publicURL, request: request, secure: context.cookies.secure)
        let url = Route.integrationURL(base: site, kind: kind, token: token)
        return try await page(
            context, notice: "\(IntegrationsPage.label(kind)) added. Copy its URL into the server now.", newURL: (integration, url))
    }

    func save(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let account = try await account(context) else { return try await page(context) }
        let id = try id(context)
        let form = try await FormInput.decode(Form.self, request, context)
        let settings = IntegrationSettings(
            threshold: Int(form.threshold ?? "") ?? -1, serverUser: form.server_user, unplayedErases: form.unplayed_erases != nil)
        do {
            try await integrations.save(profile: account.id, id: id, settings: settings)
        } catch .notFound {
            return try ErrorPages.notFound(renderer.for(context), IntegrationError.notFound.message)
        } catch {
            return try await page(context, error: error.message, status: .unprocessableContent)
        }
        return .redirect(to: Route.integrations.link(query: ["done": "saved"]), type: .normal)
    }

    func choose(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let account = try await account(context) else { return try await page(context) }
        let id = try id(context)
        let form = try await FormInput.decode(Form.self, request, context)
        let parts = (form.choice ?? "").split(separator: ":")
        guard parts.count == 2, let kind = MediaKind(rawValue: String(parts[0])), let titleID = Int(parts[1]) else {
            return try await page(context, error: "Choose one of the titles listed, or search for another.", status: .unprocessableContent)
        }
        switch try await worker.choose(profile: account.id, event: id, kind: kind, titleID: titleID) {
        case .applied: return .redirect(to: Route.integrations.link(query: ["done": "chosen"]), type: .normal)
        case .notWaiting: return try await page(context, error: "That event is not waiting for a title any more.", status: .conflict)
        case .titleNotFound: return try await page(context, error: "That title is not in the catalogue any more.", status: .unprocessableContent)
        case .unavailable:
            return try await page(
                context, error: "That title’s details can’t be had just now. Try again in a minute.", status: .serviceUnavailable)
        }
    }
}
