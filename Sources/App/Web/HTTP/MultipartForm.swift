import Foundation
import Hummingbird
import MultipartKit
import NIOCore

/// `multipart/form-data` bodies (the console's forms, which carry a logo or product image, and an
/// import's upload), and URL-encoded ones read the same way (the CSRF check reads either). The body
/// has already been read within its limit (`FormInput.body`, `UploadSlots.read`); multipart-kit's
/// `MultipartParser` cuts it into parts. This keeps what the callers rely on: text fields as UTF-8
/// with CRLF as LF, a file part's name and bytes (an empty one is no file), and a readable 400 for
/// a body multipart-kit cannot read, one that stops before its closing delimiter, or a part
/// without a name.
struct MultipartForm {
    struct File {
        let filename: String
        let data: Data
    }

    private(set) var fields: [String: [String]] = [:]
    /// The first file of each field; `fileLists` has every file of a field that takes several.
    private(set) var files: [String: File] = [:]
    private(set) var fileLists: [String: [File]] = [:]

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
        guard let parts = parts(buffer, boundary: boundary), let form = MultipartForm(parts) else {
            throw HTTPError(.badRequest, message: "The form could not be read. Reload the page and try again.")
        }
        // Its text fields follow the rules every text does (`TextInputMiddleware` checks the other bodies).
        if form.fields.values.contains(where: { $0.contains(where: TextRules.hasControlCharacter) }) {
            throw HTTPError(.badRequest, message: TextRules.controlMessage)
        }
        return form
    }

    /// The `boundary` parameter of a `multipart/form-data` media type (1 to 70 characters, RFC 2046).
    static func boundary(_ contentType: String) -> String? {
        guard contentType.lowercased().hasPrefix("multipart/form-data") else { return nil }
        let value = parameter("boundary", in: Substring(contentType))
        return value.flatMap { (1...70).contains($0.count) ? $0 : nil }
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

    private init() {}

    /// The form the parts make, or nil when a part has no `Content-Disposition` name.
    private init?(_ parts: [MultipartPart]) {
        for part in parts {
            guard let disposition = part.headers.first(name: "Content-Disposition"),
                let name = Self.parameter("name", in: Substring(disposition))
            else { return nil }
            if let filename = Self.parameter("filename", in: Substring(disposition)) {
                if part.body.readableBytes > 0 {
                    let file = File(filename: filename, data: Data(buffer: part.body))
                    if files[name] == nil { files[name] = file }
                    fileLists[name, default: []].append(file)
                }
            } else {
                fields[name, default: []].append(String(buffer: part.body).replacingOccurrences(of: "\r\n", with: "\n"))
            }
        }
    }

    /// The parts of a multipart body as multipart-kit reads them, or nil when it cannot, or when the
    /// body stops before its closing delimiter.
    static func parts(_ body: ByteBuffer, boundary: String) -> [MultipartPart]? {
        guard !hasNonASCIIHeaderName(body.readableBytesView, boundary: boundary) else { return nil }
        let parser = MultipartParser(boundary: boundary)
        var parts: [MultipartPart] = []
        var part = MultipartPart(body: ByteBuffer())
        var heard = false
        parser.onHeader = { name, value in
            part.headers.add(name: name, value: value)
            heard = true
        }
        parser.onBody = { bytes in
            part.body.writeBuffer(&bytes)
            heard = true
        }
        parser.onPartComplete = {
            parts.append(part)
            part = MultipartPart(body: ByteBuffer())
            heard = true
        }
        do {
            try parser.execute(body)
            // The parser does not say whether the closing delimiter came. Fed one more, it ignores it
            // only once the body has ended (its epilogue): anywhere else it fails, or hears a header,
            // body bytes or the end of a part.
            heard = false
            try parser.execute(ByteBuffer(string: "\r\n--\(boundary)--"))
        } catch {
            return nil
        }
        return heard ? nil : parts
    }

    /// `key="value"` (or `key=value`) from a header's parameters, after its first `;`.
    static func parameter(_ key: String, in header: Substring) -> String? {
        for piece in header.split(separator: ";").dropFirst() {
            let pair = piece.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].lowercased() == key {
                return String(pair[1]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }

    /// Whether a header name of any part (a line's bytes before its colon, after a delimiter and
    /// before the part's empty line) has a byte past ASCII: multipart-kit 4.7.1 reads such a byte
    /// from a table of 128 entries and traps (the attack sweep's malformed bodies brought the server
    /// down), so such a body is refused before it is parsed. Values (a file's UTF-8 name) may.
    static func hasNonASCIIHeaderName(_ bytes: ByteBufferView, boundary: String) -> Bool {
        // Read in place: an import's body is up to 32 MiB, and a copy of it would double that.
        let delimiter = Array(("--" + boundary).utf8)
        let start = bytes.startIndex
        var index = start
        while index + delimiter.count <= bytes.endIndex {
            guard bytes[index] == delimiter[0], bytes[index..<index + delimiter.count].elementsEqual(delimiter) else {
                index += 1
                continue
            }
            index += delimiter.count
            var inName = false  // the delimiter's own line first
            while index < bytes.endIndex {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\n") {
                    // An empty line ends the headers: the part's body follows.
                    if index - start >= 3, bytes[index - 3] == UInt8(ascii: "\r"), bytes[index - 2] == UInt8(ascii: "\n") { break }
                    inName = true
                } else if byte == UInt8(ascii: ":") {
                    inName = false
                } else if inName, byte >= 0x80 {
                    return true
                }
                index += 1
            }
        }
        return false
    }
}
