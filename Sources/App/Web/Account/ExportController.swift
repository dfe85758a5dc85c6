import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import NIOCore

/// Downloads of a person's own data, visitor or account: the JSON backup, the CSV Letterboxd
/// imports, one custom list as CSV (another person's list is a 404). Never stored by any cache.
struct ExportController {
    let exports: ExportService

    func register(on router: RouterGroup<AppRequestContext>) {
        router.on(Route.exportBackup) { _, context in
            let backup = try await exports.backup(profile: context.profileID)
            return Download.response(try Backup.encoder.encode(backup), type: Download.json, name: Download.name("backup", backup, "json"))
        }
        router.on(Route.exportLetterboxd) { _, context in
            let backup = try await exports.backup(profile: context.profileID)
            let csv = ExportFormats.letterboxdCSV(backup)
            return Download.response(Data(csv.utf8), type: Download.csv, name: Download.name("letterboxd", backup, "csv"))
        }
        router.on(Route.exportList) { _, context in
            guard let raw = context.parameters.get("id"), let id = UUID(uuidString: raw),
                let list = try await exports.listCSV(profile: context.profileID, id: id)
            else { throw ListsController.notFound }
            return Download.response(Data(list.csv.utf8), type: Download.csv, name: ExportFormats.slug(list.name) + ".csv")
        }
    }
}

/// A file to save: its type, `Content-Disposition: attachment` with a plain ASCII name, and
/// `Cache-Control: no-store` (it is one person's data).
enum Download {
    static let json = "application/json; charset=utf-8"
    static let csv = "text/csv; charset=utf-8"

    /// `popcornswirl-backup-2026-11-24.json`: what, and the UTC day it was made.
    static func name(_ what: String, _ backup: Backup, _ ext: String) -> String {
        "popcornswirl-\(what)-\(backup.exportedAt.formatted(UTCFormatters.dayStyle)).\(ext)"
    }

    static func disposition(_ name: String) -> String { "attachment; filename=\"\(name)\"" }

    static func response(_ bytes: Data, type: String, name: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.contentDisposition] = disposition(name)
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

/// Where a person downloads their data (the lists page and the account page link them).
struct ExportLinks {
    let backupURL = Route.exportBackup.path
    let letterboxdURL = Route.exportLetterboxd.path
    let importURL = Route.imports.path
}

extension ExportLinks: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "backupURL": backupURL
        case "letterboxdURL": letterboxdURL
        case "importURL": importURL
        default: nil
        }
    }
}
