import Crypto
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
        #expect(values("ps_store", in: url) == ["popcornswirl"], "\(url)", sourceLocation: sourceLocation)
        #expect(values("ps_store_name", in: url) == ["PopcornSwirl"], "\(url)", sourceLocation: sourceLocation)
        #expect(values("ps_store_country", in: url) == ["US"], "\(url)", sourceLocation: sourceLocation)
        #expect(values("ps_offer", in: url) == [String(offerID)], "\(url)", sourceLocation: sourceLocation)
        #expect(values("ps_click", in: url).count == 1, "\(url)", sourceLocation: sourceLocation)
        #expect(!url.absoluteString.contains(where: { $0.isNewline || $0.isWhitespace || $0 == "\u{0}" }), "\(url)", sourceLocation: sourceLocation)
    }

    static let clickID = UUID(uuidString: "0F6E3A52-9B1C-4C0B-8E7A-2D4F5A6B7C8D")!

    /// A click's details as the click route builds them, at 2026-11-24T12:00:00Z.
    static func details(
        _ title: TitleRef?, name: String? = nil, year: Int? = nil, placement: Placement = .banner, listing: String? = nil
    ) -> ClickDetails {
        ClickDetails(
            clickID: clickID, placement: placement, listing: listing, title: title.map { ClickDetails.Title(ref: $0, name: name, year: year) },
            store: ReferringStore(), at: Date(timeIntervalSince1970: 1_795_521_600))
    }

    @Test("generated hostile titles and names never change the scheme, host, port or path, and come back intact as values")
    func destinationProperty() async {
        await propertyCheck(count: 3000, input: Gen<String?>.element(of: Self.landings).map { $0! }, Self.titleRef, Self.hostileText) {
            landing, title, name in
            let offer = OfferFixtures.offer(42, landing: landing)
            guard let url = ClickThrough.destination(offer: offer, Self.details(title, name: name), secret: "pss_test") else {
                Issue.record("no destination for \(landing) \(String(describing: title)) \(name.debugDescription)")
                return
            }
            Self.checkDestination(url, landing: offer.landingURL, offerID: 42)
            #expect(Self.values("ps_title_kind", in: url) == (title.map { [$0.kind.rawValue] } ?? []))
            #expect(Self.values("ps_title_id", in: url) == (title.map { [String($0.id)] } ?? []))
            let shown = String(ClickThrough.oneLine(name).prefix(200))
            #expect(Self.values("ps_title_name", in: url) == (title == nil || shown.isEmpty ? [] : [shown]), "\(url)")
            let sentName = Self.values("ps_title_name", in: url).first ?? ""
            #expect(!sentName.contains { $0.isNewline })
            // Whatever the name, the shop's check of the signature holds.
            #expect(Self.verify(url, secret: "pss_test"), "\(url)")
        }
    }

    /// The README's verification, step by step: every `ps_` parameter but `ps_sig`, sorted, `name=value` lines.
    static func verify(_ url: URL, secret: String) -> Bool {
        let items = (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? [])
        let signed = items.filter { $0.name.hasPrefix("ps_") && $0.name != "ps_sig" }.sorted { $0.name < $1.name }
            .map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "\n")
        guard let signature = items.first(where: { $0.name == "ps_sig" })?.value else { return false }
        let expected = HMAC<SHA256>.authenticationCode(for: Data(signed.utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return expected.map { String(format: "%02x", $0) }.joined() == signature
    }

    @Test("the landing URL's own parameters are kept, ours replace theirs, and its fragment is dropped")
    func existingQuery() throws {
        let offer = OfferFixtures.offer(7, landing: "https://shop.example.com/p?ref=abc&utm_source=x&utm%5Fcampaign=y#top")
        let url = try #require(
            ClickThrough.destination(
                offer: offer, Self.details(TitleRef(kind: .movie, id: 1001), name: "Middle Of The Year", year: 2026), secret: nil))
        #expect(
            url.absoluteString == "https://shop.example.com/p?ref=abc&utm_source=popcornswirl&utm_medium=offer&utm_campaign=7"
                + "&ps_click=0f6e3a52-9b1c-4c0b-8e7a-2d4f5a6b7c8d&ps_offer=7&ps_store=popcornswirl&ps_store_name=PopcornSwirl"
                + "&ps_store_country=US&ps_placement=banner&ps_title_kind=movie&ps_title_id=1001"
                + "&ps_title_name=Middle%20Of%20The%20Year&ps_title_year=2026&ps_ts=1795521600")
    }

    @Test("a signed click-through carries the signature a shop computes with Python's hmac (the README's recipe)")
    func signatureVector() throws {
        let offer = OfferFixtures.offer(7, landing: "https://shop.example.com/p?ps_sig=forged&ps_store=evil")
        let url = try #require(
            ClickThrough.destination(
                offer: offer,
                Self.details(TitleRef(kind: .show, id: 82), name: "Game of Thrones", year: 2011, placement: .sponsored, listing: "tv-favorites"),
                secret: "pss_example-key"))
        // The landing URL's own ps_ parameters are dropped: nothing but ours can be signed or read as ours.
        #expect(Self.values("ps_store", in: url) == ["popcornswirl"])
        #expect(Self.values("ps_listing", in: url) == ["tv-favorites"])
        #expect(Self.values("ps_placement", in: url) == ["sponsored"])
        // Computed independently with the README's Python verification (hmac.new(key, message, sha256).hexdigest()).
        #expect(Self.values("ps_sig", in: url) == ["47fb2659b46d41d1eb9139014380968f08e6a01ba18f9fe501ed15762c00ea5a"])
        #expect(Self.verify(url, secret: "pss_example-key"))
        #expect(!Self.verify(url, secret: "pss_other-key"))
    }

    @Test(
        "a title name is cut to 200 characters; an empty one is left out",
        arguments: [
            (String(repeating: "é", count: 500), String(repeating: "é", count: 200)),
            ("", nil),
            ("A/B & C?=#", "A/B & C?=#"),
        ] as [(String, String?)])
    func titleNameLimits(name: String, expected: String?) throws {
        let url = try #require(
            ClickThrough.destination(offer: OfferFixtures.offer(1), Self.details(TitleRef(kind: .movie, id: 5), name: name), secret: nil))
        #expect(Self.values("ps_title_name", in: url) == (expected.map { [$0] } ?? []))
        #expect(Self.values("ps_title_id", in: url) == ["5"])
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
        #expect(ClickThrough.destination(offer: offer, Self.details(nil), secret: nil) == nil)
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
                    // A control character no text may hold (NUL, escape…) is refused with 400: no redirect at all.
                    if TextRules.hasControlCharacter(input) {
                        #expect(response.status == .badRequest && response.headers[.location] == nil)
                        return
                    }
                    #expect(response.status == .seeOther, "\(input.debugDescription)")
                    let location = try #require(response.headers[.location].flatMap(URL.init(string:)), "\(input.debugDescription)")
                    Self.checkDestination(location, landing: URL(string: landing)!, offerID: id)
                    #expect(Self.values("ref", in: location) == ["abc"])
                    #expect(response.headers[.cacheControl] == "no-store")
                }
                for input in Self.hostile where !TextRules.hasControlCharacter(input) {
                    let response = try await client.get("/offers/\(id)/go?title=\(Self.encoded(input))")
                    #expect(response.status == .seeOther, "\(input.debugDescription)")
                    let location = try #require(response.headers[.location].flatMap(URL.init(string:)), "\(input.debugDescription)")
                    Self.checkDestination(location, landing: URL(string: landing)!, offerID: id)
                    // None of these is a title the catalogue knows: nothing about a title is passed on.
                    #expect(Self.values("ps_title_id", in: location).isEmpty, "\(input.debugDescription)")
                    #expect(Self.values("ps_title_name", in: location).isEmpty, "\(input.debugDescription)")
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
