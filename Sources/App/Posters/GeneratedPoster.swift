/// A poster drawn from the title on two colours derived from the id, used whenever artwork is missing.
enum GeneratedPoster {
    static func svg(seed: Int, title: String) -> String {
        // Neighbouring ids (consecutive in a catalogue) should not get neighbouring colours.
        let hue = Int((UInt64(bitPattern: Int64(seed)) &* 2_654_435_761) % 360)
        let hue2 = (hue + 40) % 360
        let lines = wrap(String(title.prefix(80)), width: 14).prefix(5)
        let startY = 225 - (lines.count - 1) * 19
        let text = lines.enumerated().map { index, line in
            "<text x=\"150\" y=\"\(startY + index * 38)\">\(escape(line))</text>"
        }.joined()
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 450" width="300" height="450" role="img" aria-label="\(escape(title))">\
            <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1">\
            <stop offset="0" stop-color="hsl(\(hue),55%,38%)"/><stop offset="1" stop-color="hsl(\(hue2),60%,18%)"/></linearGradient></defs>\
            <rect width="300" height="450" fill="url(#g)"/>\
            <g fill="#fff" font-family="system-ui,sans-serif" font-size="30" font-weight="700" text-anchor="middle">\(text)</g>\
            <text x="150" y="420" fill="rgba(255,255,255,.6)" font-family="system-ui,sans-serif" font-size="16" text-anchor="middle">PopcornSwirl</text>\
            </svg>
            """
    }

    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines.isEmpty ? [" "] : lines
    }

    /// HTML escaping, minus the control characters XML does not allow.
    static func escape(_ text: String) -> String {
        UTF8HTMLEscaping.escape(String(text.unicodeScalars.filter { $0.value >= 0x20 || $0 == "\t" }.map(Character.init)))
    }
}
