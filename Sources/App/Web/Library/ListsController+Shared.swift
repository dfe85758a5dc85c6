import Foundation
import HTTPTypes
import Hummingbird

/// A shared list's page: anyone with the link, no account and no cookie. It shows the list and
/// its titles only (no owner, no other list, no CSRF token: it has no forms of its own), asks
/// search engines to stay out (`noindex` in the page and `X-Robots-Tag`), and may be kept by any
/// cache (`public`) but is revalidated on every use (`no-cache` with an `ETag`), so a revoked
/// link stops working at once while an unchanged page costs a 304.
extension ListsController {
    func shared(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let token = context.parameters.get("id") else { throw Self.sharedNotFound }
        let number: Int
        do { number = try FormInput.pageNumber(request) } catch { throw HTTPError(.badRequest, message: error.message) }
        guard let list = try await lists.sharedPage(token: token, page: number) else { throw Self.sharedNotFound }
        let html = try renderer.html(SharedListPageView(list, token: token))
        let parts = PageParts(html)
        let etag = "\"" + Hex.string(TextDigest.sha256(html).prefix(16)) + "\""
        var headers = HTTPFields(Self.sharedFields)
        // The validator of the bytes this request gets: a 304 names the answer it stands for.
        let compressed = parts.answersCompressed
        let served = compressed ? CompressionMiddleware.gzipValidator(etag) : etag
        if compressed { CompressionMiddleware.addVary(&headers) }
        if request.headers.value(.ifNoneMatch)?.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == served }) == true {
            headers[.eTag] = served
            return Response(status: .notModified, headers: headers)
        }
        headers[.eTag] = etag
        // No token in its (layout's) forms.
        return parts.response(csrf: "", headers: headers)
    }

    static let sharedNotFound = HTTPError(.notFound, message: CustomListError.sharedNotFoundMessage)
    /// Every answer's fields, made once.
    static let sharedFields: [HTTPField] = [
        HTTPField(name: .cacheControl, value: "public, no-cache"), HTTPField(name: HTTPField.Name("X-Robots-Tag")!, value: "noindex, nofollow"),
    ]
}
