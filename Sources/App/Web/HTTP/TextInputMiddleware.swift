import Hummingbird
import NIOCore

/// Refuses, before any handler reads them, texts no person means to send and the databases do not
/// take alike: a control character other than tab and line breaks in the address's query or in a
/// JSON or form body (`openapi.yaml` says so with a pattern on every plain string), and a JSON object giving one name twice (`JSONTextCheck`). 400 with
/// a readable message (problem+json on the API); nothing is read further or saved. A multipart
/// form's fields are checked as they are parsed (`MultipartForm`); an import's file is read row by
/// row, and a row holding one is skipped and reported.
struct TextInputMiddleware: RouterMiddleware {
    func handle(
        _ request: Request, context: AppRequestContext,
        next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        // The query's texts are read as text (a search is stored in the history); a path's parts are
        // ids, parsed strictly by their routes (a 404 for anything else).
        if Self.hasEncodedControl(request.uri.query ?? "") {
            return try Self.refusal(request, TextRules.controlMessage)
        }
        guard ![.get, .head, .options].contains(request.method) else { return try await next(request, context) }
        // A media server's event: what is kept of it is cleaned as it is read (`MediaEventFormats.event`);
        // a control character in an overview it also sends must not refuse the watch.
        if Route.integrationEvent.matches(Substring(request.uri.path)) { return try await next(request, context) }
        let mediaType = (request.headers[.contentType] ?? "").lowercased()
        let isJSON = mediaType.hasPrefix("application/json") || mediaType.hasPrefix("application/merge-patch+json")
        let isForm = mediaType.hasPrefix("application/x-www-form-urlencoded")
        guard isJSON || isForm else { return try await next(request, context) }
        var request = request
        let body = try await FormInput.body(request, context)
        if isJSON, let problem = JSONTextCheck.problem(in: body.readableBytesView) { return try Self.refusal(request, problem.message) }
        if isForm, Self.hasEncodedControl(String(buffer: body)) { return try Self.refusal(request, TextRules.controlMessage) }
        request.body = RequestBody(buffer: body)
        return try await next(request, context)
    }

    /// 400: problem+json on the API (or for `app.js`), else the error page.
    static func refusal(_ request: Request, _ message: String) throws -> Response {
        if request.uri.path.hasPrefix(APIRoute.prefix) || FormInput.wantsJSON(request) { return try JSONAnswer.error(.badRequest, message) }
        throw HTTPError(.badRequest, message: message)
    }

    /// A raw control character, or one percent-encoded (`%00`–`%1F` but `%09`, `%0A`, `%0D`), in
    /// an address or a URL-encoded form.
    static func hasEncodedControl(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D { return true }
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2]) {
                let value = high << 4 | low
                if value < 0x20, value != 0x09, value != 0x0A, value != 0x0D { return true }
                index += 3
                continue
            }
            index += 1
        }
        return false
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
