import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

enum FormInput {
    struct Invalid: Error {
        let message: String
    }

    static func decode<T: Decodable>(_ type: T.Type, _ request: Request, _ context: AppRequestContext) async throws -> T {
        let text = String(buffer: try await body(request, context))
        do {
            return try URLEncodedFormDecoder().decode(T.self, from: text)
        } catch {
            throw HTTPError(.badRequest, message: "The form could not be read. Reload the page and try again.")
        }
    }

    /// The request body up to the context's limit; past it a readable 413 (nothing is read or saved).
    static func body(_ request: Request, _ context: AppRequestContext) async throws -> ByteBuffer {
        var request = request
        do {
            return try await request.collectBody(upTo: context.maxUploadSize)
        } catch let error where error is NIOTooManyBytesError || (error as? HTTPError)?.status == .contentTooLarge {
            // Past the context's limit, or past `BodyLimitMiddleware`'s as the body streamed in (the same 64 KiB).
            let limit = context.maxUploadSize >= 1 << 20 ? "\(context.maxUploadSize >> 20) MiB" : "\(context.maxUploadSize / 1024) KB"
            throw HTTPError(.contentTooLarge, message: "The form is larger than \(limit), so nothing was saved.")
        }
    }

    /// "1"/"0" from the buttons; absent means unchanged.
    static func flag(_ value: String?, _ name: String) throws(Invalid) -> Bool? {
        switch value?.lowercased() {
        case nil: nil
        case "1", "true", "on": true
        case "0", "false", "off": false
        default: throw Invalid(message: "“\(name)” must be 1 or 0.")
        }
    }

    /// A rating from the rating picker: absent means unchanged, "" or "0" clears it, "1"–"10" are
    /// half stars (`Rating`).
    static func rating(_ value: String?) throws(Invalid) -> Int?? {
        guard let value else { return nil }
        if value.isEmpty || value == "0" { return .some(nil) }
        guard let number = Int(value), Rating.range.contains(number) else {
            throw Invalid(message: "“rating” must be a number from 0 (no rating) to 10 (5 stars).")
        }
        return .some(number)
    }

    /// The `page` query parameter of a paged page: 1 when absent, else 1…100,000.
    static func pageNumber(_ request: Request) throws(Invalid) -> Int {
        try pageNumber(request.uri.queryParameters["page"].map(String.init))
    }

    /// The same from a `page` value already read (nil: absent).
    static func pageNumber(_ value: String?) throws(Invalid) -> Int {
        let text = value ?? "1"
        guard let page = Int(text), page >= 1, page <= 100_000 else { throw Invalid(message: "“\(text.prefix(20))” is not a page number.") }
        return page
    }

    /// The query string as an HTML form sends it (`application/x-www-form-urlencoded`: `+` is a
    /// space, `%2B` a plus), decoded by the same decoder as form bodies. Hummingbird's
    /// `queryParameters` keeps `+`, so GET forms (the search fields) are read here.
    static func decodeQuery<T: Decodable>(_ type: T.Type, _ request: Request) throws -> T {
        do {
            return try URLEncodedFormDecoder().decode(T.self, from: request.uri.query ?? "")
        } catch {
            throw HTTPError(.badRequest, message: "The address could not be read. Search again from the form.")
        }
    }

    /// `decodeQuery([String: String].self, request)` without the decoder's node tree (it was 9 % of
    /// the CPU of a sorted, filtered My Lists page served from its cache): plain `name=value` pairs
    /// read here, with the decoder's rules (`+` is a space in a value, a malformed escape or a name
    /// given twice is a 400); anything else (a nested `a[b]` name, an empty one) goes to the decoder.
    static func queryFields(_ request: Request) throws -> [String: String] {
        guard let query = request.uri.query, !query.isEmpty else { return [:] }
        var fields: [String: String] = [:]
        // Split on the bytes: `String.split` walks grapheme clusters (1 % of the sorted list's CPU).
        for bytes in query.utf8.split(separator: UInt8(ascii: "&")) {
            let element = Substring(bytes)
            guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let rawName = element[..<equals]
            guard !rawName.isEmpty, !rawName.utf8.contains(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") }) else {
                return try decodeQuery([String: String].self, request)
            }
            // Whatever the decoder reads otherwise (a name with brackets once unescaped, bytes
            // that are not UTF-8, which it replaces) is left to it.
            guard let name = unescaped(rawName, plusIsSpace: false), !name.contains(where: { $0 == "[" || $0 == "]" }),
                let value = unescaped(element[element.utf8.index(after: equals)...], plusIsSpace: true)
            else { return try decodeQuery([String: String].self, request) }
            guard fields.updateValue(value, forKey: name) == nil else {
                throw HTTPError(.badRequest, message: "The address could not be read. Search again from the form.")
            }
        }
        return fields
    }

    private static func unescaped(_ text: Substring, plusIsSpace: Bool) -> String? {
        let plus = plusIsSpace && text.utf8.contains(UInt8(ascii: "+"))
        guard plus || text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        return (plus ? String(text.replacing("+", with: " ")) : String(text)).removingPercentEncoding
    }

    static let madeAtHeader = HTTPField.Name("Change-Made-At")!

    /// When a change sent later was made (`Change-Made-At`, ISO 8601: app.js sends it with a change
    /// kept while offline); nil without the header. A time that cannot be read is refused (400).
    static func madeAt(_ request: Request) throws -> Date? {
        guard let raw = request.headers[madeAtHeader] else { return nil }
        let value = raw.trimmingCharacters(in: .whitespaces)
        if let date = try? Date(value, strategy: .iso8601.year().month().day().time(includingFractionalSeconds: true)) { return date }
        if let date = try? Date(value, strategy: .iso8601) { return date }
        throw HTTPError(.badRequest, message: "Change-Made-At must be a moment in ISO 8601, such as 2026-11-25T08:30:00.000Z.")
    }

    static func wantsJSON(_ request: Request) -> Bool {
        request.headers[.accept]?.contains("application/json") == true
    }
}
