import Foundation
import OpenAPIRuntime
import PopcornAPI

/// Media-server integrations made, listed and revoked, over the same service as the
/// Integrations page.
extension APIController {
    func listIntegrations(_ input: Operations.ListIntegrations.Input) async throws -> Operations.ListIntegrations.Output {
        guard let profile = APIScope.session?.existing else { return .unauthorized(APIRefusal.signInResponse) }
        guard try await accounts.account(profile) != nil else { return .forbidden(.integrationsNeedAccount) }
        let items = try await integrations.list(profile: profile).map(Components.Schemas.Integration.init)
        return .ok(.init(body: .json(.init(items: items))))
    }

    func createIntegration(_ input: Operations.CreateIntegration.Input) async throws -> Operations.CreateIntegration.Output {
        guard let profile = APIScope.session?.existing else { return .unauthorized(APIRefusal.signInResponse) }
        guard try await accounts.account(profile) != nil else { return .forbidden(.integrationsNeedAccount) }
        guard case .json(let body) = input.body, let kind = IntegrationKind(rawValue: body.kind.rawValue) else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("kind must be plex, jellyfin, emby, kodi or generic."))))
        }
        let integration: App.Integration
        let token: String
        do { (integration, token) = try await integrations.create(profile: profile, kind: kind) } catch {
            return .conflict(.init(body: .applicationProblemJson(.init(status: 409, detail: error.message))))
        }
        return .created(
            .init(
                body: .json(
                    .init(
                        id: integration.id.uuidString.lowercased(), kind: body.kind,
                        url: Route.integrationURL(base: APIScope.site, kind: kind, token: token)))))
    }

    func revokeIntegration(_ input: Operations.RevokeIntegration.Input) async throws -> Operations.RevokeIntegration.Output {
        guard let profile = APIScope.session?.existing else { return .unauthorized(APIRefusal.signInResponse) }
        guard try await accounts.account(profile) != nil else { return .forbidden(.integrationsNeedAccount) }
        guard let id = UUID(uuidString: input.path.id), try await integrations.revoke(profile: profile, id: id) else {
            return .notFound(.init(body: .applicationProblemJson(.notFound("You have no integration with id \(input.path.id.prefix(40))."))))
        }
        return .noContent(.init())
    }
}

extension Components.Responses.Forbidden {
    static let integrationsNeedAccount = Self(body: .applicationProblemJson(.init(status: 403, detail: IntegrationError.needsAccount.message)))
}

extension Components.Schemas.Integration {
    init(_ integration: App.Integration) {
        self.init(
            id: integration.id.uuidString.lowercased(), kind: .init(rawValue: integration.kind.rawValue) ?? .generic,
            threshold: integration.settings.threshold, serverUser: integration.settings.serverUser,
            unplayedErases: integration.settings.unplayedErases, createdAt: integration.createdAt, lastEventAt: integration.lastEventAt)
    }
}
