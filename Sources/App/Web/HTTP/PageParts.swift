import Hummingbird
import NIOCore

/// A rendered page cut at the holes each request fills in: the CSRF token of the browser asking
/// (`<!--ps:csrf-->`, in every form) and the sponsored cards of listing pages
/// (`<!--ps:sponsored-->`). The pieces in between can then be cached and shared. User text never
/// produces a marker: the escaper turns `<` into `&lt;`.
///
/// An answer is copied into one buffer: a page of 200 cards has 200 holes, and handing the channel
/// 400 small buffers cost 80 % of the Movies page's throughput (14.8k → 3.0k req/s); one copy of
/// the ~200 KiB costs little next to that.
struct PageParts: Sendable {
    enum Hole: Sendable, Equatable { case csrf, sponsored }

    static let csrfMarker = "<!--ps:csrf-->"
    static let sponsoredMarker = "<!--ps:sponsored-->"

    /// `holes.count + 1` pieces; hole `i` sits between piece `i` and piece `i + 1`.
    let pieces: [ByteBuffer]
    let holes: [Hole]
    /// The pieces' bytes together, to size an answer's buffer.
    let pieceBytes: Int
    /// A cached page's compressed answers (nil for a page rendered for one answer).
    private let compressed: CompressedAnswers?

    var sponsoredSlots: Int { holes.count { $0 == .sponsored } }

    /// `cached`: the page will answer many requests (a page cache keeps it), so its compressed
    /// answers are worth keeping.
    init(_ html: String, cached: Bool = false) {
        compressed = cached ? CompressedAnswers() : nil
        var pieces: [ByteBuffer] = []
        var holes: [Hole] = []
        let markers: [(bytes: [UInt8], hole: Hole)] = [(Array(Self.csrfMarker.utf8), .csrf), (Array(Self.sponsoredMarker.utf8), .sponsored)]
        let bytes = Array(html.utf8)
        var start = 0
        var index = 0
        // Both markers start with "<!--ps:": look at each "<" only.
        while let found = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            index = found + 1
            guard let match = markers.first(where: { bytes[found...].starts(with: $0.bytes) }) else { continue }
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

    /// The page for one request: its CSRF token in every form, one card per sponsored slot (slots
    /// without a card stay empty).
    func filled(csrf: String, cards: [String] = []) -> ByteBuffer {
        let extra = holes.count * csrf.utf8.count + cards.reduce(0) { $0 + $1.utf8.count }
        var out = ByteBufferAllocator().buffer(capacity: pieceBytes + extra)
        walk(csrf: csrf, cards: cards, piece: { out.writeImmutableBuffer($0) }, text: { out.writeString($0) })
        return out
    }

    /// The page's bytes in order: each piece, and between them what fills each hole.
    private func walk(
        csrf: String, cards: [String], piece: (ByteBuffer) throws -> Void, text: (String) throws -> Void
    ) rethrows {
        try piece(pieces[0])
        var nextCard = 0
        for (index, hole) in holes.enumerated() {
            switch hole {
            case .csrf:
                try text(csrf)
            case .sponsored:
                if nextCard < cards.count { try text(cards[nextCard]) }
                nextCard += 1
            }
            try piece(pieces[index + 1])
        }
    }

    /// The page as an HTML response, with the CSRF token of the request being answered, compressed
    /// when the client accepts gzip. A cached page's answer that can serve again (to a returning
    /// browser, whose token is in its cookie, or to anyone when the page has no form or a fixed token) is compressed
    /// once and kept (`CompressedAnswers`); any other is compressed from the pieces as they are.
    /// `csrf`: the token to fill in instead of the request's (a public page's, which carries none).
    func response(csrf: String? = nil, cards: [String] = [], status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        let token = csrf ?? (holes.contains(.csrf) ? RequestScope.csrfToken : "")
        let reusable = csrf != nil || RequestScope.tokenIsKept || !holes.contains(.csrf)
        let (buffer, gzipped) = body(csrf: token, cards: cards, reusable: reusable)
        var response = PageRenderer.htmlResponse(ResponseBody(byteBuffer: buffer), status: status)
        for field in headers { response.headers[field.name] = field.value }
        if gzipped { CompressionMiddleware.markCompressed(&response.headers) }
        return response
    }

    /// Whether this request's answer is compressed (the client accepts gzip and the page is worth it).
    var answersCompressed: Bool { RequestScope.acceptsGzip && pieceBytes >= CompressionMiddleware.minimumBytes }

    /// gzip when the request accepts it (and the page is worth it), else the page itself.
    private func body(csrf token: String, cards: [String], reusable: Bool) -> (buffer: ByteBuffer, gzip: Bool) {
        guard answersCompressed else {
            return (filled(csrf: token, cards: cards), false)
        }
        do {
            if let compressed, reusable {
                // Without a form the answer is one for every token.
                let key = holes.contains(.csrf) ? token : ""
                return (try compressed.answer(csrf: key, cards: cards) { try gzip(csrf: token, cards: cards) }, true)
            }
            if let compressed, let spliced = compressed.splicedAnswer(self, csrf: token, cards: cards) {
                return (spliced, true)
            }
            return (try gzip(csrf: token, cards: cards), true)
        } catch {
            return (filled(csrf: token, cards: cards), false)  // zlib out of memory: the page uncompressed
        }
    }

    /// `filled`'s bytes as one gzip stream, compressed piece by piece (the page is never copied whole).
    func gzip(csrf: String, cards: [String] = []) throws -> ByteBuffer {
        let gzip = try GzipWriter(expectedBytes: pieceBytes)
        try walk(csrf: csrf, cards: cards, piece: { try gzip.write($0) }, text: { try gzip.write($0) })
        return try gzip.finish()
    }
}

/// The page's CSRF token, set by `CSRFMiddleware` for the handlers below it.
extension RequestScope {
    @TaskLocal static var csrf: CSRFToken?
    /// The token this request's forms carry ("" outside the pages' group).
    static var csrfToken: String { csrf?.value ?? "" }
    /// The token is the browser's own, sent back in its cookie (not one made for this answer alone):
    /// a page's compressed pieces for it will serve its next visits.
    @TaskLocal static var tokenIsKept = false
}
