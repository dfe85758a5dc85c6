import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import App

/// A shared list: read-only through an unguessable link, for anyone without an account; nothing
/// of its owner on it; kept out of search engines; cacheable but revalidated, so a change shows
/// and a revoked link is dead at once.
@Suite("Library: shared lists")
struct SharedListTests {
    static func sharedPath(_ page: String) throws -> String {
        let start = try #require(page.range(of: #"<a href="/shared/lists/"#)).upperBound
        return "/shared/lists/" + String(page[start...].prefix { $0 != "\"" })
    }

    @Test("a shared list opens without an account or cookie, shows the list only, and is noindex and revalidated")
    func sharedPage() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let owner = try await app.signedIn("secretowner")
                let (list, cookie) = try await CustomListTests.make(client, "Rainy Sundays", cookie: owner.cookie)
                let id = String(list.dropFirst("/lists/".count))
                _ = try await client.postForm("/library/movies/1001/lists", [("list", id)], cookie: cookie)
                _ = try await client.postForm("/library/movies/1001", [("note", "private thoughts"), ("watched", "1")], cookie: cookie)
                #expect(try await client.get(list, cookie: cookie).text.contains("This list is private."))
                let shared = try await client.postForm(list + "/share", [], cookie: cookie)
                #expect(shared.status == .seeOther && shared.headers[.location] == list + "#share")
                let path = try Self.sharedPath(try await client.get(list, cookie: cookie).text)
                #expect(path.count == "/shared/lists/".count + 43, "a 256-bit token")

                let page = try await client.get(path, browser: false)
                #expect(page.status == .ok)
                let text = page.text
                #expect(text.contains("<h1>Rainy Sundays</h1>") && CustomListTests.order(text).count == 1)
                #expect(text.contains(#"<meta name="robots" content="noindex, nofollow">"#))
                #expect(page.headers[HTTPField.Name("X-Robots-Tag")!] == "noindex, nofollow")
                #expect(page.headers[.cacheControl] == "public, no-cache")
                #expect(page.headers[values: .setCookie].isEmpty, "a public page carries no cookie")
                #expect(!text.contains("secretowner") && !text.contains("private thoughts"), "nothing of the owner")
                #expect(!text.contains("/items/move") && !text.contains(#"name="csrf" value="c"#), "no forms of the owner, no token")

                let etag = try #require(page.headers[.eTag])
                let again = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: etag])
                #expect(again.status == .notModified && again.body.readableBytes == 0)

                // A change shows at once, under a new validator.
                _ = try await client.postForm("/library/shows/139/lists", [("list", id)], cookie: cookie)
                let changed = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: etag])
                #expect(changed.status == .ok && CustomListTests.order(changed.text).last == "Girls")

                // Revoked: the link is dead at once; shared again, a new link, the old one stays dead.
                _ = try await client.postForm(list + "/unshare", [], cookie: cookie)
                #expect(try await client.get(path).status == .notFound)
                _ = try await client.postForm(list + "/share", [], cookie: cookie)
                let newPath = try Self.sharedPath(try await client.get(list, cookie: cookie).text)
                let newStatus = try await client.get(newPath).status
                let oldStatus = try await client.get(path).status
                #expect(newPath != path && newStatus == .ok && oldStatus == .notFound)
            }
        }
    }

    @Test("a browser that accepts gzip gets the compressed page, and its validator back gets 304")
    func compressedRevalidation() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let owner = try await app.signedIn("gzipowner")
                let (list, cookie) = try await CustomListTests.make(client, "Long Weekends", cookie: owner.cookie)
                let id = String(list.dropFirst("/lists/".count))
                for film in ["1001", "1002", "1003", "1004", "1005"] {
                    _ = try await client.postForm("/library/movies/\(film)/lists", [("list", id)], cookie: cookie)
                }
                _ = try await client.postForm(list + "/share", [], cookie: cookie)
                let path = try Self.sharedPath(try await client.get(list, cookie: cookie).text)
                let plain = try await client.execute(uri: path, method: .get, headers: [:])
                let packed = try await client.execute(uri: path, method: .get, headers: [.acceptEncoding: "gzip"])
                #expect(packed.headers[.contentEncoding] == "gzip")
                #expect(try CompressionTests.gunzip(packed.body) == String(buffer: plain.body), "the same page once unpacked")
                let etag = try #require(packed.headers[.eTag])
                #expect(etag != plain.headers[.eTag], "other bytes, another validator")
                #expect(packed.headers[.cacheControl] == "public, no-cache" && packed.headers[values: .setCookie].isEmpty)
                // Before: the page compared the validator sent back with the plain page's only, so
                // every browser (they all accept gzip) got the whole page again.
                let again = try await client.execute(uri: path, method: .get, headers: [.acceptEncoding: "gzip", .ifNoneMatch: etag])
                #expect(again.status == .notModified && again.body.readableBytes == 0)
                #expect(
                    again.headers[.eTag] == etag && again.headers[values: .vary].contains { $0.contains("Accept-Encoding") },
                    "as the 200 it stands for")
                // A client that no longer accepts gzip does not have the plain page's bytes.
                let plainAgain = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: etag])
                #expect(plainAgain.status == .ok)
            }
        }
    }

    @Test("a made-up or malformed link is a plain 404")
    func unknownLinks() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                for token in [String(repeating: "a", count: 43), "short", "not%2Fa%2Ftoken"] {
                    let status = try await client.get("/shared/lists/" + token).status
                    #expect(status == .notFound, "\(token)")
                }
                let badPage = try await client.get("/shared/lists/" + String(repeating: "b", count: 43) + "?page=x").status
                #expect(badPage == .badRequest)
            }
        }
    }
}
