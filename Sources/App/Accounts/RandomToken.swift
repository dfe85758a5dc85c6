import Foundation

/// 43 URL-safe base64 characters: the format of every random token this server hands out.
enum RandomToken {
    /// Unpadded base64url (RFC 4648 §5): 32 bytes become 43 characters. Runs on most requests (the
    /// CSRF token, a first visit's id), so it is written straight into the string's storage: through
    /// Foundation's base64 and a swap of the alphabet it was 1.5 % of a cached page's CPU.
    static func base64URL(_ bytes: some Sequence<UInt8>) -> String {
        let input = Array(bytes)
        return String(unsafeUninitializedCapacity: (input.count * 4 + 2) / 3) { out in
            var written = 0
            func put(_ group: UInt32, _ characters: Int) {
                for position in 0..<characters {
                    out[written] = character(UInt8(truncatingIfNeeded: group >> UInt32(18 - 6 * position)) & 63)
                    written += 1
                }
            }
            var index = 0
            while index + 3 <= input.count {
                put(UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2]), 4)
                index += 3
            }
            switch input.count - index {
            case 1: put(UInt32(input[index]) << 16, 2)
            case 2: put(UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8, 3)
            default: break
            }
            return written
        }
    }

    private static func character(_ value: UInt8) -> UInt8 {
        switch value {
        case 0..<26: UInt8(ascii: "A") + value
        case 26..<52: UInt8(ascii: "a") + value - 26
        case 52..<62: UInt8(ascii: "0") + value - 52
        case 62: UInt8(ascii: "-")
        default: UInt8(ascii: "_")
        }
    }

    static func isWellFormed(_ value: String) -> Bool {
        value.utf8.count == 43
            && value.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x5F
            }
    }
}
