import CompressNIO
import NIOCore
import Synchronization

/// A cached page's gzip answers, kept with the page: the 200-film Movies page cost 0.4 ms of zlib
/// per answer, more than everything else its cached answer does. An answer is the page with one
/// browser's form token and the sponsored cards of one view, so it is kept under both; a browser
/// coming back to an unchanged page (and the same cards: after three views an offer makes way,
/// see `FrequencyCap`) gets the bytes compressed before.
///
/// At most `maxAnswers` per page (then the table starts over), each about a fifteenth of the page.
final class CompressedAnswers: Sendable {
    static let maxAnswers = 4
    private let answers = Mutex<[String: ByteBuffer]>([:])
    /// The page's pieces compressed once, for answers never kept (`SplicedGzip`); made on first use.
    private let splicing = Mutex<(made: Bool, spliced: SplicedGzip?)>((false, nil))

    /// The answer for a browser whose token is made for this answer alone, spliced from the pieces
    /// compressed once; nil when the page cannot be spliced.
    func splicedAnswer(_ parts: PageParts, csrf: String, cards: [String]) -> ByteBuffer? {
        let spliced = splicing.withLock { state in
            if !state.made { state = (true, SplicedGzip(pieces: parts.pieces, holes: parts.holes)) }
            return state.spliced
        }
        return spliced?.answer(token: csrf, cards: cards)
    }

    func answer(csrf: String, cards: [String], make: () throws -> ByteBuffer) rethrows -> ByteBuffer {
        // "\u{0}" is never in a token or a card (the renderer escapes text; there is no NUL in markup).
        let key = ([csrf] + cards).joined(separator: "\u{0}")
        if let found = answers.withLock({ $0[key] }) { return found }
        let made = try make()
        answers.withLock { table in
            if table.count >= Self.maxAnswers { table.removeAll(keepingCapacity: true) }
            table[key] = made
        }
        return made
    }
}
