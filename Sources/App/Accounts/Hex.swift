import Crypto

/// Lower-case hex of bytes (String(format:) per byte is slow on Linux and this runs per request:
/// a session's key, a visitor's id). Written straight into the string's storage.
enum Hex {
    static func string(_ bytes: some Sequence<UInt8>) -> String {
        let input = Array(bytes)
        return String(unsafeUninitializedCapacity: input.count * 2) { out in
            var index = 0
            for byte in input {
                out[index] = digit(byte >> 4)
                out[index + 1] = digit(byte & 0x0F)
                index += 2
            }
            return index
        }
    }

    private static func digit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}

/// SHA-256 of strings' UTF-8 bytes one after another, without a `Data` or a joined `String` in
/// between. Hashed per request (a session's key, a visitor's id, a form's token), making the `Data`
/// from a string cost more than hashing it: 1 % of a film page's CPU, and the hashes 1.1 % more
/// (`scripts/bench --only film --perf`).
enum TextDigest {
    static func sha256(_ parts: String...) -> SHA256.Digest { digest(parts) }

    /// Its lower-case hex.
    static func hex(_ parts: String...) -> String { digest(parts).withUnsafeBytes { Hex.string($0) } }

    private static func digest(_ parts: [String]) -> SHA256.Digest {
        var hasher = SHA256()
        for var part in parts {
            part.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        }
        return hasher.finalize()
    }
}
