import Foundation
import Testing

@testable import App

/// The poster proxy: one file per poster however its address is spelled, HTTPS only, nothing
/// outside a host's folder, the size cap applied while the image streams in.
@Suite("Poster proxy hardening")
struct PosterHardeningTests {
    static let base = "https://is1-ssl.mzstatic.com/image/thumb/Video/v4/aa/poster.jpg"
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 64))

    @Test("?v=N, #N, :443 and letter-case variants are one address; http, escapes and dot segments are refused")
    func canonical() {
        for variant in [
            Self.base, Self.base + "?v=2", Self.base + "#3", "https://is1-ssl.mzstatic.com:443/image/thumb/Video/v4/aa/poster.jpg",
            "HTTPS://IS1-SSL.MZSTATIC.COM/image/thumb/Video/v4/aa/poster.jpg",
        ] {
            #expect(PosterService.canonical(variant) == Self.base, "\(variant)")
        }
        for refused in [
            "http://is1-ssl.mzstatic.com/image/poster.jpg", "https://is1-ssl.mzstatic.com/image/../../etc/passwd",
            "https://is1-ssl.mzstatic.com/image/%2e%2e/%2e%2e/etc/passwd", "https://is1-ssl.mzstatic.com/image/%252e%252e/x.jpg",
            "https://is1-ssl.mzstatic.com:8443/x.jpg", "https://user@is1-ssl.mzstatic.com/x.jpg", "https://evil.example/x.jpg",
        ] {
            #expect(PosterService.canonical(refused) == nil, "\(refused)")
        }
    }

    @Test("five spellings of one poster make one upstream fetch and one file")
    func oneFetch() async throws {
        try await TestApp.with { app in
            app.upstream.respond { _ throws(UpstreamError) in UpstreamResponse(status: 200, contentType: "image/png", body: Self.png) }
            for variant in [
                Self.base, Self.base + "?v=1", Self.base + "?v=2", Self.base + "#x",
                "https://IS1-SSL.mzstatic.com:443/image/thumb/Video/v4/aa/poster.jpg",
            ] {
                let image = try await app.services.posters.poster(source: variant, seed: 1, title: "X")
                #expect(!image.isGenerated)
            }
            #expect(app.upstream.calls() == 1)
            let files = try FileManager.default.contentsOfDirectory(atPath: app.services.config.posterCacheDirectory)
            #expect(files.count == 1)
            await #expect(throws: PosterService.PosterError.self) {
                _ = try await app.services.posters.poster(source: "http://is1-ssl.mzstatic.com/image/poster.jpg", seed: 1, title: "X")
            }
        }
    }

    @Test("an image over 5 MiB is drawn instead and not stored")
    func overCap() async throws {
        try await TestApp.with { app in
            let big = Self.png + Data(count: PosterService.maxImageBytes)
            app.upstream.respond { _ throws(UpstreamError) in UpstreamResponse(status: 200, contentType: "image/png", body: big) }
            let image = try await app.services.posters.poster(source: Self.base, seed: 1, title: "X")
            #expect(image.isGenerated)
            let files = (try? FileManager.default.contentsOfDirectory(atPath: app.services.config.posterCacheDirectory)) ?? []
            #expect(files.isEmpty)
        }
    }
}
