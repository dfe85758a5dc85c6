import Foundation
import Hummingbird
import OpenAPIRuntime
import PopcornAPI

extension APIController {
    func adminRefusal<Output: AdminOperationOutput>(_: Output.Type) -> Output? {
        let refusal = APIScope.session.map(\.adminRefusal) ?? .forbidden
        guard let refusal else { return nil }
        let problem = Components.Schemas.Problem(refusal, APIRefusal.detail(refusal))
        if refusal == .unauthorized {
            // The runtime percent-encodes header values; APISessionMiddleware writes the challenge as is.
            return .unauthorized(.init(headers: .init(wwwAuthenticate: APIRefusal.challenge), body: .applicationProblemJson(problem)))
        }
        return .forbidden(.init(body: .applicationProblemJson(problem)))
    }

    func loadFailed(_ error: any Error) -> Components.Schemas.Problem {
        logger.error("admin API read failed", metadata: ["error": "\(error)"])
        return .init(.serviceUnavailable, ErrorTexts.fetchFailed)
    }

    /// The database failed while saving: the reason goes to the log, not to the caller.
    func saveFailed(_ what: String, _ error: any Error) -> Components.Schemas.Problem {
        logger.error("admin API save failed", metadata: ["what": "\(what)", "error": "\(error)"])
        return .init(.serviceUnavailable, "The \(what) could not be saved just now. Try again.")
    }
}

/// The generated outputs of the admin operations: each can answer 401 and 403.
protocol AdminOperationOutput {
    static func unauthorized(_ response: Components.Responses.Unauthorized) -> Self
    static func forbidden(_ response: Components.Responses.Forbidden) -> Self
}

extension Operations.ListAdvertisers.Output: AdminOperationOutput {}
extension Operations.CreateAdvertiser.Output: AdminOperationOutput {}
extension Operations.ListAdminOffers.Output: AdminOperationOutput {}
extension Operations.CreateOffer.Output: AdminOperationOutput {}
extension Operations.GetAdminOffer.Output: AdminOperationOutput {}
extension Operations.ReplaceOffer.Output: AdminOperationOutput {}
extension Operations.DeleteOffer.Output: AdminOperationOutput {}
extension Operations.GetOfferReport.Output: AdminOperationOutput {}
