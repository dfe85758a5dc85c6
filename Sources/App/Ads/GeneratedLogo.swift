import Foundation

/// A monogram tile in the shop's colour: the logo of demo shops and of shops added without one.
enum GeneratedLogo {
    static func svg(monogram: String, color: String) -> Data {
        let letters = String(monogram.uppercased().filter { $0.isASCII && $0.isLetter }.prefix(3))
        let fill = isHexColor(color) ? color : "#1b1030"
        let size = letters.count > 2 ? 36 : 44
        return Data(
            """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 120" width="120" height="120">\
            <rect width="120" height="120" rx="24" fill="\(fill)"/>\
            <text x="60" y="\(60 + size / 3)" font-family="Helvetica, Arial, sans-serif" font-size="\(size)" font-weight="700" \
            fill="#ffffff" text-anchor="middle">\(letters)</text></svg>
            """.utf8)
    }

    /// Initials of the first words: "Reel Snacks" → "RS".
    static func monogram(for name: String) -> String {
        let words = name.split(whereSeparator: { !$0.isLetter }).filter { $0.first?.isASCII == true }
        return String(words.prefix(2).compactMap(\.first)).uppercased()
    }

    /// A stable, dark-enough colour from the name.
    static func color(for name: String) -> String {
        let palette = ["#a93226", "#1f3a5f", "#5b2c6f", "#145a32", "#7e5109", "#1b1030", "#0e6251", "#6e2c00"]
        let sum = name.unicodeScalars.reduce(0) { ($0 &* 31 &+ Int($1.value)) & 0xFFFF }
        return palette[sum % palette.count]
    }

    static func isHexColor(_ text: String) -> Bool {
        text.count == 7 && text.first == "#" && text.dropFirst().allSatisfy(\.isHexDigit)
    }
}
