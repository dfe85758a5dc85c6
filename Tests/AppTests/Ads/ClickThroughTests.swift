import Foundation
import HummingbirdTesting
import PropertyBased
import Testing

@testable import App

@Suite("Click-through: a click always lands on the shop's own site, with our tracking parameters")
struct ClickThroughTests {
    static let hostile: [String] = [
        "//evil.com", "https://evil.com", "http://evil.com/x", "@evil.com", "movie:1@evil.com", "movie:1001@evil.com",
        "%2F%2Fevil.com", "%252F%252Fevil.com", "\r\nLocation: https://evil.com", "\r\n\r\n<script>", "\u{0}", "javascript:alert(1)",
        "movie:1001#@evil.com", "movie:1001?x=https://evil.com", "show:45499/../../evil.com", "movie:-1", "movie:0", "movie:99999999999999",
        "movie:１００１", "MOVIE:1001", "movie:1001:evil", "movie:1001&utm_source=evil", "utm_source=evil&store=XX", "\\\\evil.com",
        "é🍿千", "\u{202E}moc.live", " ", "", "&", "=", "#", "?", "%", "%zz", "+",
    ]
    static let fragments: [String] =
        hostile + [
            "movie:", "show:", "1001", "45499", "evil", ".com", "/", ":", "@", "\r", "\n", "\t", "%0D%0A", "%00", "&title=", "a", "Z",
        ]
    static let landings: [String] = [
        "https://shop.example.com/products/popcorn",
        "https://shop.example.com/products/popcorn?ref=abc&utm_source=x",
        "https://shop.example.com:8443/a/b/c?x=1&title_name=evil&store=XX#section",
        "https://store.example.org/?utm_campaign=old&utm%5Fmedium=old&keep=%20space",
        "https://deep.sub.example.net/p/%E2%9C%93?q=a%26b",
    ]

    /// Generated hostile text: pieces of known attacks, arbitrary scalars, and sometimes a very long run.
    static var hostileText: Generator<String, some SendableSequenceType> {
        zip(
            Gen<String?>.element(of: fragments).map { $0 ?? "" }.array(of: 0...8).map { $0.joined() },
            Gen<Character>.character(in: "\u{0}"..."\u{2FFF}").string(of: 0...12),
            Gen<Int>.int(in: 0...9)
        ).map { generated in
            let (pieces, scalars, roll) = generated
            return switch roll {
            case 0: String(repeating: pieces.isEmpty ? "a" : pieces, count: 3000 / max(pieces.count, 1) + 1)
            case 1: scalars
            case 2...4: pieces + scalars
            default: pieces
            }
        }
    }

    static var titleRef: Generator<TitleRef?, some SendableSequenceType> {
        zip(Gen<Bool>.bool, Gen<Int>.int(in: 1...Int(Int32.max)), Gen<Int>.int(in: 0...3)).map { generated in
            let (isMovie, id, roll) = generated
            return roll == 0 ? nil : TitleRef(kind: isMovie ? .movie : .show, id: id)
        }
    }

    /// The decoded values of every query parameter named `name`.
    static func values(_ name: String, in url: URL) -> [String] {
        (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).filter { $0.name == name }.compactMap(\.value)
    }

    /// Checks everything a shop and a visitor rely on about one redirect target.
    static func checkDestination(_ url: URL, landing: URL, offerID: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let landingParts = URLComponents(url: landing, resolvingAgainstBaseURL: false)!
        let parts = URLComponents(url: url, resolvingAgainstBaseURL: false)
        #expect(parts?.scheme == "https", "\(url)", sourceLocation: sourceLocation)
        #expect(parts?.host == landingParts.host, "\(url)", sourceLocation: sourceLocation)
        #expect(url.host == landing.host, "\(url)", sourceLocation: sourceLocation)
        #expect(parts?.port == landingParts.port, "\(url)", sourceLocation: sourceLocation)
        #expect(parts?.percentEncodedPath == landingParts.percentEncodedPath, "\(url)", sourceLocation: sourceLocation)
        #expect(parts?.user == nil && parts?.password == nil, "\(url)", sourceLocation: sourceLocation)
        #expect(parts?.fragment == nil, "\(url)", sourceLocation: sourceLocation)
        #expect(values("utm_source", in: url) == ["popcornswirl"], "\(url)", sourceLocation: sourceLocation)
        #expect(values("utm_medium", in: url) == ["offer"], "\(url)", sourceLocation: sourceLocation)
        #expect(values("utm_campaign", in: url) == [String(offerID)], "\(url)", sourceLocation: sourceLocation)
        #expect(values("store", in: url) == ["US"], "\(url)", sourceLocation: sourceLocation)
        #expect(!url.absoluteString.contains(where: { $0.isNewline || $0.isWhitespace || $0 == "\u{0}" }), "\(url)", sourceLocation: sourceLocation)
    }

    @Test("generated hostile titles and names never change the scheme, host, port or path, and come back intact as values")
    func destinationProperty() async {
        await propertyCheck(count: 3000, input: Gen<String?>.element(of: Self.landings).map { $0! }, Self.titleRef, Self.hostileText) {
            landing, title, name in
            let offer = OfferFixtures.offer(42, landing: landing)
            guard let url = ClickThrough.destination(offer: offer, title: title, titleName: name, store: "US") else {
                Issue.record("no destination for \(landing) \(String(describing: title)) \(name.debugDescription)")
                return
            }
            Self.checkDestination(url, landing: offer.landingURL, offerID: 42)
            #expect(Self.values("title_id", in: url) == (title.map { [$0.description] } ?? []))
            #expect(Self.values("title_name", in: url) == (name.isEmpty ? [] : [String(name.prefix(200))]), "\(url)")
        }
    }

    @Test("the landing URL's own parameters are kept, ours replace theirs, and its fragment is dropped")
    func existingQuery() throws {
        let offer = OfferFixtures.offer(7, landing: "https://shop.example.com/p?ref=abc&utm_source=x&utm%5Fcampaign=y#top")
        let url = try #require(
            ClickThrough.destination(offer: offer, title: TitleRef(kind: .movie, id: 1001), titleName: "Middle Of The Year", store: "US"))
        #expect(
            url.absoluteString == "https://shop.example.com/p?ref=abc&utm_source=popcornswirl&utm_medium=offer&utm_campaign=7"
                + "&title_id=movie%3A1001&title_name=Middle%20Of%20The%20Year&store=US")
    }

    @Test(
        "a title name is cut to 200 characters; an empty one is left out",
        arguments: [
            (String(repeating: "é", count: 500), String(repeating: "é", count: 200)),
            ("", nil),
            ("A/B & C?=#", "A/B & C?=#"),
        ] as [(String, String?)])
    func titleNameLimits(name: String, expected: String?) throws {
        let url = try #require(ClickThrough.destination(offer: OfferFixtures.offer(1), title: nil, titleName: name, store: "US"))
        #expect(Self.values("title_name", in: url) == (expected.map { [$0] } ?? []))
        #expect(Self.values("title_id", in: url).isEmpty)
    }

    @Test(
        "a stored landing URL that is not https with a host gives no destination",
        arguments: [
            "http://shop.example.com/p", "javascript:alert(1)", "https:///no-host", "ftp://shop.example.com/", "/relative/path",
        ])
    func unsafeLanding(landing: String) {
        guard let url = URL(string: landing) else { return }
        var offer = OfferFixtures.offer(1)
        offer.landingURL = url
        #expect(ClickThrough.destination(offer: offer, title: nil, titleName: "x", store: "US") == nil)
    }

    // MARK: Through the route

    /// Percent-encodes everything but unreserved characters (RFC 3986), independently of the app's encoder.
    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(
            withAllowedCharacters: CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")) ?? ""
    }

    @Test("GET /offers/{id}/go with generated hostile title parameters always answers 303 to the stored shop")
    func routeProperty() async throws {
        try await TestApp.withOffers { app, shop in
            let landing = "https://shop.example.com/products/popcorn?ref=abc&utm_source=x"
            let id = try await app.addOffer(advertiser: shop, headline: "Popcorn", landingURL: landing)
            try await app.test { client in
                await propertyCheck(count: 30, input: Self.hostileText) { input in
                    let query = "title=\(Self.encoded(input))"
                    let response = try await client.get("/offers/\(id)/go?\(query)")
                    // An address past the server's query limit is refused outright: no redirect at all.
                    if query.utf8.count > RequestLimitsMiddleware<AppRequestContext>.maxQueryBytes {
                        #expect(response.status == .uriTooLong && response.headers[.location] == nil)
                        return
                    }
                    #expect(response.status == .seeOther, "\(input.debugDescription)")
                    let location = try #require(response.headers[.location].flatMap(URL.init(string:)), "\(input.debugDescription)")
                    Self.checkDestination(location, landing: URL(string: landing)!, offerID: id)
                    #expect(Self.values("ref", in: location) == ["abc"])
                    #expect(response.headers[.cacheControl] == "no-store")
                }
                for input in Self.hostile {
                    let response = try await client.get("/offers/\(id)/go?title=\(Self.encoded(input))")
                    #expect(response.status == .seeOther, "\(input.debugDescription)")
                    let location = try #require(response.headers[.location].flatMap(URL.init(string:)), "\(input.debugDescription)")
                    Self.checkDestination(location, landing: URL(string: landing)!, offerID: id)
                    // None of these is a title the catalogue knows: nothing about a title is passed on.
                    #expect(Self.values("title_id", in: location).isEmpty, "\(input.debugDescription)")
                    #expect(Self.values("title_name", in: location).isEmpty, "\(input.debugDescription)")
                }
            }
        }
    }

    @Test(
        "unencoded hostile title parameters and extra parameters cannot steer the redirect either",
        arguments: [
            "?title=//evil.com", "?title=https://evil.com", "?title=@evil.com", "?title=movie:1@evil.com", "?title=movie:1001&title=https://evil.com",
            "?title=movie:1001&utm_source=evil&store=XX&redirect=https://evil.com", "?url=https://evil.com&next=//evil.com",
            "?title=movie:1001@evil.com/",
        ])
    func rawParameters(query: String) async throws {
        try await TestApp.withOffers { app, shop in
            let landing = "https://shop.example.com/products/popcorn"
            let id = try await app.addOffer(advertiser: shop, headline: "Popcorn", landingURL: landing)
            try await app.test { client in
                let response = try await client.get("/offers/\(id)/go\(query)")
                #expect(response.status == .seeOther)
                let location = try #require(response.headers[.location].flatMap(URL.init(string:)))
                Self.checkDestination(location, landing: URL(string: landing)!, offerID: id)
                #expect(location.absoluteString.hasPrefix(landing + "?utm_source=popcornswirl&utm_medium=offer&utm_campaign=\(id)&"))
            }
        }
    }
}
