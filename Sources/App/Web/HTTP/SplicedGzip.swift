import NIOCore
import PSZlib
import Synchronization

/// A cached page's gzip answer for a browser seen for the first time, spliced from pieces
/// compressed once instead of compressing the whole page again: such a browser's form token is
/// made for this answer alone, so its answer is never kept (`CompressedAnswers`), and zlib was 29 %
/// of the anonymous film page's CPU and most of the anonymous Movies page's.
///
/// The pieces are compressed once as one raw deflate stream, each flushed to a byte boundary (a
/// sync flush). A form token's place is held by NUL bytes of the token's length: the pieces' own
/// back-references can never reach them (a page has no NUL byte; a page that has one is not
/// spliced), and the distances across them stay right once the token takes their place. Before a
/// sponsored card, whose length varies, the stream is fully flushed: nothing after it refers back.
/// Each answer is then the pieces' segments with, in each hole, the token (stored once, then a
/// fixed-Huffman copy of the previous one: about 10 bytes) or the card (compressed on its own and
/// kept), a final empty block, and the CRC-32 combined from the pieces' own.
struct SplicedGzip: Sendable {
    /// A form token's length (base64url of 32 bytes).
    static let tokenLength = 43
    private static let tokenOp = ps_crc32_combine_gen(tokenLength)
    static let header: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]

    private let segments: [[UInt8]]
    private let crcs: [UInt]
    private let ops: [UInt]
    private let lengths: [Int]
    private let holes: [PageParts.Hole]
    private let segmentBytes: Int

    /// Nil when zlib fails or a piece holds a NUL byte.
    init?(pieces: [ByteBuffer], holes: [PageParts.Hole]) {
        guard let deflater = RawDeflater(level: 1) else { return nil }
        let placeholder = [UInt8](repeating: 0, count: Self.tokenLength)
        var segments: [[UInt8]] = []
        var crcs: [UInt] = []
        var ops: [UInt] = []
        var lengths: [Int] = []
        for (index, piece) in pieces.enumerated() {
            let bytes = Array(piece.readableBytesView)
            if bytes.contains(0) { return nil }
            let hole = index < holes.count ? holes[index] : nil
            segments.append(deflater.segment(bytes, flush: hole == .sponsored ? Z_FULL_FLUSH : Z_SYNC_FLUSH))
            crcs.append(Self.crc(bytes))
            ops.append(ps_crc32_combine_gen(bytes.count))
            lengths.append(bytes.count)
            if hole == .csrf { _ = deflater.segment(placeholder, flush: Z_SYNC_FLUSH) }
        }
        self.segments = segments
        self.crcs = crcs
        self.ops = ops
        self.lengths = lengths
        self.holes = holes
        segmentBytes = segments.reduce(0) { $0 + $1.count }
    }

    /// The page with `token` in its forms and `cards` in its sponsored slots, as one gzip stream;
    /// nil when the token is not a form token's length (the caller compresses the page itself).
    func answer(token: String, cards: [String]) -> ByteBuffer? {
        let tokenBytes = Array(token.utf8)
        guard tokenBytes.count == Self.tokenLength || !holes.contains(.csrf) else { return nil }
        let tokenCRC = Self.crc(tokenBytes)
        var out = ByteBufferAllocator().buffer(capacity: segmentBytes + holes.count * 12 + cards.count * 256 + 64)
        out.writeBytes(Self.header)
        out.writeBytes(segments[0])
        var crc = crcs[0]
        var total = lengths[0]
        var lastToken: Int?
        var nextCard = 0
        for (index, hole) in holes.enumerated() {
            switch hole {
            case .csrf:
                if let last = lastToken, total - last <= 32_768 {
                    out.writeBytes(Self.copyBlock(length: Self.tokenLength, distance: total - last))
                } else {
                    out.writeBytes(Self.storedBlock(tokenBytes))
                }
                lastToken = total
                crc = ps_crc32_combine_op(crc, tokenCRC, Self.tokenOp)
                total += Self.tokenLength
            case .sponsored:
                if nextCard < cards.count {
                    let card = CardSegments.shared.segment(cards[nextCard])
                    out.writeBytes(card.segment)
                    crc = ps_crc32_combine(crc, card.crc, card.length)
                    total += card.length
                }
                nextCard += 1
            }
            out.writeBytes(segments[index + 1])
            crc = ps_crc32_combine_op(crc, crcs[index + 1], ops[index + 1])
            total += lengths[index + 1]
        }
        out.writeBytes([0x03, 0x00])  // a final, empty block
        out.writeInteger(UInt32(truncatingIfNeeded: crc), endianness: .little)
        out.writeInteger(UInt32(truncatingIfNeeded: total), endianness: .little)
        return out
    }

    static func crc(_ bytes: [UInt8]) -> UInt {
        bytes.withUnsafeBufferPointer { ps_crc32(0, $0.baseAddress, UInt32($0.count)) }
    }

    /// A stored (uncompressed) block of at most 65,535 bytes, from a byte boundary to the next.
    static func storedBlock(_ bytes: [UInt8]) -> [UInt8] {
        let length = UInt16(bytes.count)
        return [0, UInt8(length & 0xff), UInt8(length >> 8), UInt8(~length & 0xff), UInt8(~length >> 8)] + bytes
    }

    /// A fixed-Huffman block copying `length` (43–50) bytes from `distance` back, then an empty
    /// stored block to come back to a byte boundary (what a sync flush writes).
    static func copyBlock(length: Int, distance: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.write(0, count: 1)  // not the last block
        bits.write(1, count: 2)  // fixed Huffman codes
        bits.writeCode(274 - 256, count: 7)  // lengths 43–50: code 274, 3 extra bits
        bits.write(UInt32(length - 43), count: 3)
        let (code, extraCount, extra) = distanceCode(distance)
        bits.writeCode(code, count: 5)
        bits.write(extra, count: extraCount)
        bits.writeCode(0, count: 7)  // end of block (256)
        bits.write(0, count: 3)  // a stored block's header, then the byte boundary
        return bits.finish() + [0, 0, 0xff, 0xff]
    }

    /// RFC 1951's distance code for 1…32,768: the code, its extra bits' count and their value.
    static func distanceCode(_ distance: Int) -> (code: UInt32, extraCount: Int, extra: UInt32) {
        if distance <= 4 { return (UInt32(distance - 1), 0, 0) }
        let less = UInt32(distance - 1)
        let extraCount = (32 - less.leadingZeroBitCount) - 2
        let code = UInt32(2 * extraCount + 2) + ((less >> extraCount) & 1)
        return (code, extraCount, less & ((1 << extraCount) - 1))
    }
}

/// Deflate's bit order: values least significant bit first, Huffman codes most significant first.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var pending: UInt32 = 0
    private var pendingCount = 0

    mutating func write(_ value: UInt32, count: Int) {
        pending |= value << pendingCount
        pendingCount += count
        while pendingCount >= 8 {
            bytes.append(UInt8(pending & 0xff))
            pending >>= 8
            pendingCount -= 8
        }
    }

    mutating func writeCode(_ code: UInt32, count: Int) {
        var reversed: UInt32 = 0
        for bit in 0..<count { reversed |= ((code >> bit) & 1) << (count - 1 - bit) }
        write(reversed, count: count)
    }

    /// The bytes, the last one padded with zero bits.
    mutating func finish() -> [UInt8] {
        if pendingCount > 0 { bytes.append(UInt8(pending & 0xff)) }
        pending = 0
        pendingCount = 0
        return bytes
    }
}

/// A raw deflate stream (no header, no trailer) written in segments, each flushed to a byte boundary.
final class RawDeflater {
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)

    init?(level: Int32, windowBits: Int32 = 15, memLevel: Int32 = 8, strategy: Int32 = Z_DEFAULT_STRATEGY) {
        stream.initialize(to: z_stream())
        guard ps_deflate_init_raw(stream, level, windowBits, memLevel, strategy) == Z_OK else {
            stream.deallocate()
            return nil
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    /// `bytes` compressed, flushed with `flush` (`Z_SYNC_FLUSH` or `Z_FULL_FLUSH`).
    func segment(_ bytes: [UInt8], flush: Int32) -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: max(512, bytes.count / 2))
        bytes.withUnsafeBufferPointer { input in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.pointee.avail_in = UInt32(input.count)
            var full = true
            while full {
                chunk.withUnsafeMutableBufferPointer { output in
                    stream.pointee.next_out = output.baseAddress
                    stream.pointee.avail_out = UInt32(output.count)
                    _ = deflate(stream, flush)
                    out.append(contentsOf: output[0..<(output.count - Int(stream.pointee.avail_out))])
                    // Out of room: more may be waiting (zlib asks to be called again).
                    full = stream.pointee.avail_out == 0
                }
            }
        }
        return out
    }
}

/// Sponsored cards compressed on their own, kept: the same few cards fill the slots of many answers.
final class CardSegments: Sendable {
    static let shared = CardSegments()
    static let capacity = 512
    private let table = Mutex<[String: (segment: [UInt8], crc: UInt, length: Int)]>([:])

    func segment(_ card: String) -> (segment: [UInt8], crc: UInt, length: Int) {
        if let kept = table.withLock({ $0[card] }) { return kept }
        let bytes = Array(card.utf8)
        let segment = RawDeflater(level: 1, windowBits: 12, memLevel: 4)?.segment(bytes, flush: Z_SYNC_FLUSH)
        let made = (segment ?? Self.stored(bytes), SplicedGzip.crc(bytes), bytes.count)
        table.withLock { table in
            if table.count >= Self.capacity { table.removeAll(keepingCapacity: true) }
            table[card] = made
        }
        return made
    }

    /// Stored blocks of at most 65,535 bytes each (zlib could not be set up).
    static func stored(_ bytes: [UInt8]) -> [UInt8] {
        stride(from: 0, to: max(bytes.count, 1), by: 65_535).flatMap { start in
            SplicedGzip.storedBlock(Array(bytes[start..<min(start + 65_535, bytes.count)]))
        }
    }
}
