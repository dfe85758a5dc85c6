import Foundation
import Hummingbird

/// `/posters?src=…&seed=…&title=…`: an allow-listed image through the disk cache, or a drawn SVG.
struct PosterController {
    let posters: PosterService

    func register(on router: RouterGroup<AppRequestContext>) {
        router.on(Route.poster) { request, _ in try await poster(request) }
    }

    func poster(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        let seed = query["seed"].flatMap { Int($0) } ?? 0
        let title = String((query["title"].map(String.init) ?? "").prefix(80))
        let image: PosterService.Image
        do {
            image = try await posters.poster(source: query["src"].map(String.init), seed: seed, title: title)
        } catch {
            throw HTTPError(.badRequest, message: "Posters are only fetched from Apple's and TVMaze's image hosts.")
        }
        var headers = HTTPFields()
        headers[.contentType] = image.contentType
        headers[.cacheControl] = image.isGenerated ? "public, max-age=600" : "public, max-age=31536000, immutable"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: image.body)))
    }
}
