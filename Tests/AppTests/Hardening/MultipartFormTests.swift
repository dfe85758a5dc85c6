import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import App

/// The console's multipart forms (multipart-kit cuts the parts, `MultipartForm` reads them): what
/// they carry, and every body they cannot be read from refused with a readable 4xx.
@Suite("Multipart forms")
struct MultipartFormTests {
    static let boundary = "----PopcornFormBoundaryAbC123"
    static let contentType = "multipart/form-data; boundary=\(boundary)"

    static func part(_ name: String, _ value: String) -> String {
        "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
    }

    static func filePart(_ name: String, _ filename: String, _ data: String) -> String {
        "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n\(data)\r\n"
    }

    static func parse(_ body: String, contentType: String = contentType) throws -> MultipartForm {
        try MultipartForm.parse(ByteBuffer(string: body), contentType: contentType)
    }

    static func refusal(_ body: String, contentType: String = contentType) -> HTTPError? {
        do {
            _ = try parse(body, contentType: contentType)
            return nil
        } catch {
            return error as? HTTPError
        }
    }

    @Test("text fields (repeated ones in order, CRLF read as LF), files with their names, an empty file part as no file")
    func reads() throws {
        let body =
            "preamble to skip\r\n" + Self.part("genres", "horror") + Self.part("genres", "cartoons") + Self.part("note", "two\r\nlines")
            + Self.filePart("file", "diary=2026.csv", "Name,Year\r\n--not the boundary\r\nHeat,1995") + Self.filePart("logo", "", "")
            + "--\(Self.boundary)--\r\nan epilogue"
        let form = try Self.parse(body)
        #expect(form.values("genres") == ["horror", "cartoons"] && form.value("genres") == "horror")
        #expect(form.value("note") == "two\nlines" && form.value("missing") == "")
        let file = try #require(form.files["file"])
        #expect(file.filename == "diary=2026.csv" && String(decoding: file.data, as: UTF8.self) == "Name,Year\r\n--not the boundary\r\nHeat,1995")
        #expect(form.files["logo"] == nil, "no file chosen")
        // The boundary parameter may be quoted, and the media type in any case.
        let quoted = try Self.parse(
            Self.part("a", "b") + "--\(Self.boundary)--", contentType: "Multipart/Form-Data; charset=utf-8; boundary=\"\(Self.boundary)\"")
        #expect(quoted.value("a") == "b")
        #expect(MultipartForm.urlEncoded("a=1+2&a=%C3%A9&b").values("a") == ["1 2", "é"])
    }

    @Test("a body cut short, in another boundary, with a part without a name, or not multipart at all is a readable 4xx")
    func malformed() {
        let unreadable = "The form could not be read. Reload the page and try again."
        let bad: [(String, String)] = [
            (Self.part("csrf", "x"), "no closing delimiter"),
            (Self.part("csrf", "x") + "--\(Self.boundary)", "closing delimiter cut short"),
            (Self.part("csrf", "x") + "--\(Self.boundary)\r\nContent-Disposition: form-data; na", "a part's headers cut short"),
            (String(Self.part("csrf", "x").dropLast(2)), "a part's value cut short"),
            ("--elsewhere\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nb\r\n--elsewhere--", "another boundary"),
            ("--\(Self.boundary)\r\nContent-Type: text/plain\r\n\r\nb\r\n--\(Self.boundary)--", "no Content-Disposition"),
            ("--\(Self.boundary)\r\nBad Header\r\n\r\nb\r\n--\(Self.boundary)--", "a header line without a colon"),
            ("", "an empty body"),
        ]
        for (body, note) in bad {
            let error = Self.refusal(body)
            #expect(error?.status == .badRequest && error?.body == unreadable, "\(note)")
        }
        for contentType in [
            "multipart/form-data", "multipart/form-data; boundary=", "multipart/form-data; boundary=\(String(repeating: "b", count: 71))",
            "text/plain",
        ] {
            let error = Self.refusal(Self.part("a", "b") + "--\(Self.boundary)--", contentType: contentType)
            #expect(error?.status == .unsupportedMediaType && error?.body?.contains("multipart/form-data") == true, "\(contentType)")
        }
        let control = Self.refusal(Self.part("name", "Pixel\u{0}Shop") + "--\(Self.boundary)--")
        #expect(control?.status == .badRequest && control?.body == TextRules.controlMessage)
    }

    @Test("over HTTP: the token is read from a multipart body; a wrong one is 403, a malformed body 400, a file past 64 KiB 413")
    func overHTTP() async throws {
        try await TestApp.withOffers(.demo) { app, _ in
            try await app.test { client in
                let cookie = try await app.seedAdmin()
                let csrf = try await AdminConsoleTests.csrf(client, cookie)
                let fields = [("name", "Pixel Shop"), ("domains", "pixel.example"), ("website", "https://pixel.example")]
                let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
                let wrong = try await client.postMultipart(
                    "/admin/advertisers", [("csrf", csrf + "x")] + fields, file: ("logo", "logo.png", png), cookie: cookie)
                #expect(wrong.status == .forbidden && wrong.text.contains("This page has expired"))

                // The header carries the token (as app.js sends it), so the body reaches the form.
                var headers = HTTPFields()
                headers[.contentType] = Self.contentType
                headers[.cookie] = cookie
                headers[CSRFMiddleware.header] = csrf
                let cut = try await client.execute(
                    uri: "/admin/advertisers", method: .post, headers: headers, body: ByteBuffer(string: Self.part("name", "Pixel Shop")))
                #expect(cut.status == .badRequest && cut.text.contains("The form could not be read"))

                let big = png + Data(repeating: 7, count: 70 * 1024)
                let tooLarge = try await client.postMultipart(
                    "/admin/advertisers", [("csrf", csrf)] + fields, file: ("logo", "logo.png", big), cookie: cookie)
                #expect(tooLarge.status == .contentTooLarge && tooLarge.text.contains("larger than 64 KB"))
                let overImage = png + Data(repeating: 7, count: 50 * 1024)
                let refused = try await client.postMultipart(
                    "/admin/advertisers", [("csrf", csrf)] + fields, file: ("logo", "logo.png", overImage), cookie: cookie)
                #expect(refused.status == .unprocessableContent && refused.text.contains("at most \(UploadedImage.maxBytes / 1024) KB"))
                #expect(try await app.services.offerAdmin.advertisers().contains { $0.name == "Pixel Shop" } == false)
            }
        }
    }

    @Test("a header name with a byte past ASCII is refused, not parsed (multipart-kit 4.7.1 traps on it); a UTF-8 file name is read")
    func nonASCIIHeaderName() {
        let bad = ByteBuffer(bytes: Array("--b\r\nN\u{E4}me: x\r\n\r\nv\r\n--b--\r\n".utf8))
        #expect(MultipartForm.parts(bad, boundary: "b") == nil)
        let good = ByteBuffer(
            bytes: Array("--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"Film\u{E9}.csv\"\r\n\r\nv\r\n--b--\r\n".utf8))
        #expect(MultipartForm.parts(good, boundary: "b")?.count == 1)
    }
}
