import Foundation

/// 43 URL-safe base64 characters: the format of every random token this server hands out.
enum RandomToken {
    /// Unpadded base64url (RFC 4648 §5): 32 bytes become 43 characters. Runs on most requests (the
    /// CSRF token, a first visit's id), so the alphabet is swapped byte by byte: Foundation's
    /// `replacingOccurrences` here cost a fifth of a small page's CPU (perf, /healthz under wrk).
    static func base64URL(_ bytes: some Sequence<UInt8>) -> String {
        let encoded = Data(bytes).base64EncodedData()
        var out: [UInt8] = []
        out.reserveCapacity(encoded.count)
        for byte in encoded {
            switch byte {
            case UInt8(ascii: "+"): out.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): out.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): continue
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func isWellFormed(_ value: String) -> Bool {
        value.utf8.count == 43
            && value.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x5F
            }
    }
}
