import Hummingbird
import NIOCore

/// A rendered page cut at the holes each request fills in: the form token of the browser asking
/// (`<!--ps:csrf-->`, in every form), who is signed in (`<!--ps:account-->`, the header's account
/// link) and the sponsored cards of listing pages (`<!--ps:sponsored-->`). The pieces in between
/// can then be kept and shared (`Caches.sharedPages`). User text never produces a marker: the
/// escaper turns `<` into `&lt;`.
///
/// An answer is copied into one buffer: a page of 200 cards has 200 holes, and handing the channel
/// 400 small buffers cost 80 % of the Movies page's throughput (14.8k → 3.0k req/s); one copy of
/// the ~200 KiB costs little next to that. Compression is the middleware's (`CompressionMiddleware`).
struct PageParts: Sendable {
    enum Hole: Sendable, Equatable { case csrf, account, sponsored }

    static let csrfMarker = "<!--ps:csrf-->"
    static let accountMarker = "<!--ps:account-->"
    static let sponsoredMarker = "<!--ps:sponsored-->"
    private static let markers: [(bytes: [UInt8], hole: Hole)] = [
        (Array(csrfMarker.utf8), .csrf), (Array(accountMarker.utf8), .account), (Array(sponsoredMarker.utf8), .sponsored),
    ]

    /// `holes.count + 1` pieces; hole `i` sits between piece `i` and piece `i + 1`.
    let pieces: [ByteBuffer]
    let holes: [Hole]
    /// The pieces' bytes together, to size an answer's buffer.
    let pieceBytes: Int

    var sponsoredSlots: Int { holes.count { $0 == .sponsored } }

    init(_ html: String) {
        var pieces: [ByteBuffer] = []
        var holes: [Hole] = []
        let bytes = Array(html.utf8)
        var start = 0
        var index = 0
        // Every marker starts with "<!--ps:": look at each "<" only.
        while let found = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            index = found + 1
            guard let match = Self.markers.first(where: { bytes[found...].starts(with: $0.bytes) }) else { continue }
            pieces.append(ByteBuffer(bytes: bytes[start..<found]))
            holes.append(match.hole)
            start = found + match.bytes.count
            index = start
        }
        pieces.append(ByteBuffer(bytes: bytes[start...]))
        self.pieces = pieces
        self.holes = holes
        pieceBytes = pieces.reduce(0) { $0 + $1.readableBytes }
    }

    /// The page for one visitor: their form token in every form, their name in the header, one
    /// card per sponsored slot (slots without a card stay empty).
    func filled(for visitor: PageVisitor, cards: [String] = []) -> ByteBuffer {
        let token = holes.contains(.csrf) ? visitor.csrf?.value ?? "" : ""
        let account = Self.accountLink(visitor.signedInAs)
        let extra = holes.count * max(token.utf8.count, account.utf8.count) + cards.reduce(0) { $0 + $1.utf8.count }
        var out = ByteBufferAllocator().buffer(capacity: pieceBytes + extra)
        out.writeImmutableBuffer(pieces[0])
        var nextCard = 0
        for (index, hole) in holes.enumerated() {
            switch hole {
            case .csrf: out.writeString(token)
            case .account: out.writeString(account)
            case .sponsored:
                if nextCard < cards.count { out.writeString(cards[nextCard]) }
                nextCard += 1
            }
            out.writeImmutableBuffer(pieces[index + 1])
        }
        return out
    }

    /// The header's account link text: "Sign in", or the signed-in name (escaped) after words only
    /// a screen reader says.
    static func accountLink(_ name: String?) -> String {
        guard let name else { return "Sign in" }
        return "<span class=\"sr-only\">Signed in as </span>" + UTF8HTMLEscaping.escape(name)
    }

    /// The page as an HTML response for `visitor`.
    func response(for visitor: PageVisitor, cards: [String] = [], status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var response = PageRenderer.htmlResponse(ResponseBody(byteBuffer: filled(for: visitor, cards: cards)), status: status)
        for field in headers { response.headers[field.name] = field.value }
        return response
    }
}
