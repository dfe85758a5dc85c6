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
