/// Third-party HTML (TVMaze summaries) made safe to embed: only `p b strong i em br` survive, never
/// with attributes; script-like elements are dropped with their content; comments, other tags and
/// malformed markup are dropped or escaped as text. Output tags are balanced. No sanitiser library
/// is available to this project, so this is ours and is tested with generated hostile input.
public enum HTMLSanitizer {
    static let allowed: Set<String> = ["p", "b", "strong", "i", "em", "br"]
    /// Elements whose content is never text a person should see (or is executable).
    static let droppedWithContent: Set<String> = [
        "script", "style", "iframe", "object", "embed", "template", "noscript", "title", "textarea", "xmp",
        "svg", "math", "noembed", "noframes", "frameset", "plaintext", "select", "applet",
    ]

    /// The text a person reads in `html`, without markup (a calendar event's description):
    /// paragraphs and line breaks become newlines, entities their characters.
    public static func plainText(_ html: String) -> String {
        var text = sanitize(html)
        for (tag, with) in [("</p>", "\n"), ("<br>", "\n"), ("<br/>", "\n"), ("<br />", "\n")] {
            text = text.replacingOccurrences(of: tag, with: with)
        }
        var out = ""
        var inTag = false
        for character in text {
            if character == "<" { inTag = true } else if character == ">" && inTag { inTag = false } else if !inTag { out.append(character) }
        }
        return decodeEntities(out).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#39;`, `&nbsp;` and numeric entities as characters.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[amp...]
            guard let semi = after.prefix(12).firstIndex(of: ";") else {
                out += "&"
                rest = rest[rest.index(after: amp)...]
                continue
            }
            let name = after[after.index(after: amp)..<semi]
            let named: [Substring: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " "]
            var decoded: String? = named[name]
            if decoded == nil, name.hasPrefix("#") {
                let digits = name.dropFirst()
                let value = digits.hasPrefix("x") || digits.hasPrefix("X") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
                decoded = value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            }
            if let decoded {
                out += decoded
                rest = rest[rest.index(after: semi)...]
            } else {
                out += "&"
                rest = rest[rest.index(after: amp)...]
            }
        }
        return out + rest
    }

    public static func sanitize(_ html: String) -> String {
        let input = Array(html.unicodeScalars)
        var out = String.UnicodeScalarView()
        var open: [String] = []
        var index = 0

        func emitText(_ scalar: Unicode.Scalar) {
            switch scalar {
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
            case "'": out.append(contentsOf: "&#39;".unicodeScalars)
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "\u{0}": break
            default: out.append(scalar)
            }
        }

        while index < input.count {
            let scalar = input[index]
            if scalar == "&", let end = entityEnd(input, from: index) {
                out.append(contentsOf: input[index..<end])
                index = end
                continue
            }
            guard scalar == "<" else {
                emitText(scalar)
                index += 1
                continue
            }
            if starts(input, at: index, with: "<!--") {
                index = find(input, "-->", from: index + 4).map { $0 + 3 } ?? input.count
                continue
            }
            if index + 1 < input.count, input[index + 1] == "!" || input[index + 1] == "?" {
                // Doctype, CDATA, processing instruction: dropped up to the next '>'.
                index = find(input, ">", from: index + 2).map { $0 + 1 } ?? input.count
                continue
            }
            guard let tag = parseTag(input, at: index) else {
                emitText(scalar)
                index += 1
                continue
            }
            index = tag.end
            if droppedWithContent.contains(tag.name) {
                if !tag.isClosing, !tag.selfClosing {
                    index = closingTagEnd(input, name: tag.name, from: index) ?? input.count
                }
                continue
            }
            guard allowed.contains(tag.name) else { continue }
            if tag.name == "br" {
                if !tag.isClosing { out.append(contentsOf: "<br>".unicodeScalars) }
            } else if tag.isClosing {
                if let position = open.lastIndex(of: tag.name) {
                    for name in open[position...].reversed() { out.append(contentsOf: "</\(name)>".unicodeScalars) }
                    open.removeSubrange(position...)
                }
            } else if !tag.selfClosing {
                out.append(contentsOf: "<\(tag.name)>".unicodeScalars)
                open.append(tag.name)
            }
        }
        for name in open.reversed() { out.append(contentsOf: "</\(name)>".unicodeScalars) }
        return String(out)
    }

    struct Tag {
        var name: String
        var isClosing: Bool
        var selfClosing: Bool
        var end: Int
    }

    /// `<name …>` or `</name …>` with quoted attribute values honoured; nil when it is not a well-formed tag.
    static func parseTag(_ input: [Unicode.Scalar], at start: Int) -> Tag? {
        var index = start + 1
        var isClosing = false
        if index < input.count, input[index] == "/" {
            isClosing = true
            index += 1
        }
        guard index < input.count, isASCIILetter(input[index]) else { return nil }
        var name = ""
        while index < input.count, isASCIILetter(input[index]) || isASCIIDigit(input[index]) {
            name.unicodeScalars.append(input[index])
            index += 1
        }
        var quote: Unicode.Scalar?
        var lastNonSpace: Unicode.Scalar = " "
        while index < input.count {
            let c = input[index]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == ">" {
                return Tag(name: name.lowercased(), isClosing: isClosing, selfClosing: lastNonSpace == "/", end: index + 1)
            } else if c == "<" {
                return nil
            }
            if !c.properties.isWhitespace { lastNonSpace = c }
            index += 1
        }
        return nil
    }

    static func isASCIILetter(_ c: Unicode.Scalar) -> Bool { ("a"..."z").contains(c) || ("A"..."Z").contains(c) }
    static func isASCIIDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }

    /// The end of `&name;`, `&#123;` or `&#x1F;` starting at `start`, if it is one.
    static func entityEnd(_ input: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start + 1
        var count = 0
        if index < input.count, input[index] == "#" {
            index += 1
            let hex = index < input.count && (input[index] == "x" || input[index] == "X")
            if hex { index += 1 }
            while index < input.count, count < 7,
                hex ? input[index].properties.isASCIIHexDigit : isASCIIDigit(input[index])
            {
                index += 1
                count += 1
            }
        } else {
            while index < input.count, count < 32, isASCIILetter(input[index]) || isASCIIDigit(input[index]) {
                index += 1
                count += 1
            }
        }
        guard count > 0, index < input.count, input[index] == ";" else { return nil }
        return index + 1
    }

    static func starts(_ input: [Unicode.Scalar], at index: Int, with text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard index + scalars.count <= input.count else { return false }
        return zip(input[index..<index + scalars.count], scalars).allSatisfy { $0 == $1 }
    }

    static func find(_ input: [Unicode.Scalar], _ text: String, from start: Int) -> Int? {
        guard start < input.count else { return nil }
        var index = start
        while index < input.count {
            if starts(input, at: index, with: text) { return index }
            index += 1
        }
        return nil
    }

    /// After a dropped element's content: the end of its closing tag (case-insensitive), if any.
    static func closingTagEnd(_ input: [Unicode.Scalar], name: String, from start: Int) -> Int? {
        var index = start
        while let lt = find(input, "</", from: index) {
            if let tag = parseTag(input, at: lt), tag.isClosing, tag.name == name { return tag.end }
            index = lt + 2
        }
        return nil
    }
}
