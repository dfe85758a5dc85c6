import CompressNIO
import NIOCore

/// One gzip stream written piece by piece, at zlib's fastest level (as nginx's default
/// `gzip_comp_level 1`), into an output buffer that grows as the compressed bytes need.
///
/// A page is compressed from its pieces as they are (the page parts) and a body as it is written
/// (`CompressionMiddleware`): nothing holds the whole uncompressed answer a second time, and the
/// output is not allocated at zlib's worst-case bound (the size of the input and more). With 64
/// requests in flight for the 216 KiB Movies page, those two copies were 34 MB of the server's
/// peak memory.
final class GzipWriter {
    private let zlib: ZlibCompressor
    private var output: ByteBuffer

    /// `expectedBytes`: the uncompressed size, when known, to size the output (pages compress to
    /// about a tenth).
    init(expectedBytes: Int = 16 * 1024) throws {
        zlib = try ZlibCompressor(algorithm: .gzip, configuration: .init(compressionLevel: .fastestCompression))
        output = ByteBufferAllocator().buffer(capacity: max(1024, expectedBytes / 8))
    }

    func write(_ buffer: ByteBuffer) throws {
        var input = buffer
        while input.readableBytes > 0 {
            growIfFull()
            try zlib.deflate(from: &input, to: &output, flush: .no)
        }
    }

    func write(_ text: String) throws {
        try write(ByteBuffer(string: text))
    }

    /// The whole stream, its trailer (CRC and length) written. Called once, last.
    func finish() throws -> ByteBuffer {
        var empty = ByteBuffer()
        while true {
            growIfFull()
            do {
                try zlib.deflate(from: &empty, to: &output, flush: .finish)
                return output
            } catch let error as CompressNIOError where error == .bufferOverflow {
                continue  // out of room before the end: more room, and go on
            }
        }
    }

    private func growIfFull() {
        if output.writableBytes < 512 { output.reserveCapacity(minimumWritableBytes: max(4096, output.capacity)) }
    }
}
