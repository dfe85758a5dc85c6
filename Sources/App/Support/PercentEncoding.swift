import Foundation

enum PercentEncoding {
    /// Percent-encodes everything but ASCII letters, digits and `-._~/` (UTF-8 based; Foundation's
    /// CharacterSet version was a measurable part of rendering a list page).
    static func query(_ value: String) -> String {
        // Most values (ids, years, list names) need nothing: no copy.
        guard value.utf8.contains(where: { !isUnreserved($0) }) else { return value }
        let hex = Self.hexDigits
        var out: [UInt8] = []
        out.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
            true
        default: false
        }
    }
}
