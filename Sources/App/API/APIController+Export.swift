import Foundation
import OpenAPIRuntime
import PopcornAPI

/// Exports in JSON API v1: the same backup and CSV files as the pages' downloads.
extension APIController {
    func exportBackup(_ input: Operations.ExportBackup.Input) async throws -> Operations.ExportBackup.Output {
        guard let profile = APIScope.session?.existing else { return .unauthorized(APIRefusal.signInResponse) }
        let backup = try await exports.backup(profile: profile)
        // The document is defined once, by `Backup`; the generated type reads the same JSON.
        let body = try JSONDecoder().decode(Components.Schemas.Backup.self, from: try Backup.encoder.encode(backup))
        return .ok(.init(body: .json(body)))
    }

    func exportLetterboxd(_ input: Operations.ExportLetterboxd.Input) async throws -> Operations.ExportLetterboxd.Output {
        guard let profile = APIScope.session?.existing else { return .unauthorized(APIRefusal.signInResponse) }
        let backup = try await exports.backup(profile: profile)
        return .ok(.init(body: .csv(HTTPBody(ExportFormats.letterboxdCSV(backup)))))
    }

    func exportCustomList(_ input: Operations.ExportCustomList.Input) async throws -> Operations.ExportCustomList.Output {
        guard let profile = APIScope.session?.existing else { return .unauthorized(APIRefusal.signInResponse) }
        guard let id = UUID(uuidString: input.path.listId), let list = try await exports.listCSV(profile: profile, id: id) else {
            return .notFound(Self.listNotFound)
        }
        return .ok(.init(body: .csv(HTTPBody(list.csv))))
    }
}
