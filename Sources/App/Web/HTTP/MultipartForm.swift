import Foundation
import Hummingbird

/// `multipart/form-data` bodies (the console's forms, which carry a logo or product image), and
/// URL-encoded ones read the same way (the CSRF check reads either).
/// Hummingbird has no parser for these and no listed package provides one; this reads the small,
/// size-capped bodies the console sends: text fields as UTF-8, files as bytes.
struct MultipartForm {
    struct File {
        let filename: String
        let data: Data
    }

    private(set) var fields: [String: [String]] = [:]
    private(set) var files: [String: File] = [:]

    func value(_ name: String) -> String { fields[name]?.first ?? "" }

    /// The uploaded image in field `name`: nil when none was chosen, a failure naming `label` when
    /// the file is not a PNG, JPEG or WebP within the size limit.
    func image(_ name: String, label: String) -> Result<UploadedImage?, ValidationFailure> {
        guard let file = files[name] else { return .success(nil) }
        guard let image = UploadedImage(bytes: file.data) else {
            return .failure(
                ValidationFailure(problems: [name: "\(label) must be a PNG, JPEG or WebP file of at most \(UploadedImage.maxBytes / 1024) KB."]))
        }
        return .success(image)
    }
    func values(_ name: String) -> [String] { fields[name] ?? [] }

    enum Failure: Error { case notMultipart, malformed }

    /// Reads the request body (up to the context's upload limit) as multipart or URL-encoded form data.
    static func read(_ request: Request, _ context: AppRequestContext) async throws -> MultipartForm {
        try parse(try await FormInput.body(request, context), contentType: request.headers[.contentType] ?? "")
    }

    /// A body already read, as multipart or URL-encoded form data.
    static func parse(_ buffer: ByteBuffer, contentType: String) throws -> MultipartForm {
        if contentType.lowercased().hasPrefix("application/x-www-form-urlencoded") {
            return urlEncoded(String(buffer: buffer))
        }
        guard let boundary = boundary(contentType) else {
            throw HTTPError(.unsupportedMediaType, message: "Send the form as multipart/form-data or application/x-www-form-urlencoded.")
        }
        guard let form = parse(Data(buffer: buffer), boundary: boundary) else {
            throw HTTPError(.badRequest, message: "The form could not be read. Reload the page and try again.")
        }
        // Its text fields follow the rules every text does (`TextInputMiddleware` checks the other bodies).
        if form.fields.values.contains(where: { $0.contains(where: TextRules.hasControlCharacter) }) {
            throw HTTPError(.badRequest, message: TextRules.controlMessage)
        }
        return form
    }

    static func boundary(_ contentType: String) -> String? {
        guard contentType.lowercased().hasPrefix("multipart/form-data") else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].lowercased() == "boundary" {
                let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                return (1...70).contains(value.count) ? value : nil
            }
        }
        return nil
    }

    static func urlEncoded(_ text: String) -> MultipartForm {
        var form = MultipartForm()
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String {
                part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            form.fields[decode(parts[0]), default: []].append(parts.count > 1 ? decode(parts[1]) : "")
        }
        return form
    }

    static func parse(_ body: Data, boundary: String) -> MultipartForm? {
        let delimiter = Data("--\(boundary)".utf8)
        let headerEnd = Data("\r\n\r\n".utf8)
        var form = MultipartForm()
        guard var cursor = body.range(of: delimiter)?.upperBound else { return nil }
        while true {
            // After a delimiter: "--" ends the body, CRLF starts a part.
            if body[cursor...].starts(with: Data("--".utf8)) { return form }
            guard body[cursor...].starts(with: Data("\r\n".utf8)) else { return nil }
            let partStart = cursor + 2
            guard let next = body.range(of: Data("\r\n".utf8) + delimiter, in: partStart..<body.endIndex),
                let headersEnd = body.range(of: headerEnd, in: partStart..<next.lowerBound)
            else { return nil }
            let headers = String(decoding: body[partStart..<headersEnd.lowerBound], as: UTF8.self)
            let content = Data(body[headersEnd.upperBound..<next.lowerBound])
            guard let disposition = headers.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-disposition:") }),
                let name = parameter("name", in: disposition)
            else { return nil }
            if let filename = parameter("filename", in: disposition) {
                if !content.isEmpty { form.files[name] = File(filename: filename, data: content) }
            } else {
                form.fields[name, default: []].append(String(decoding: content, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n"))
            }
            cursor = next.upperBound
        }
    }

    /// `name="value"` from a Content-Disposition line.
    private static func parameter(_ key: String, in line: Substring) -> String? {
        for piece in line.split(separator: ";").dropFirst() {
            let pair = piece.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].lowercased() == key {
                return String(pair[1]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }
}
