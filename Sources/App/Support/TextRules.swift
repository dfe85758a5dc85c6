/// What any text a person gives PopcornSwirl may hold, alike on both databases.
public enum TextRules {
    /// The message for a text holding a control character.
    public static let controlMessage =
        "Text can’t hold control characters such as U+0000 (NUL); only tabs and line breaks are allowed. Nothing was saved."

    /// A C0 control character other than tab, line feed and carriage return. PostgreSQL refuses
    /// U+0000 in text (it answered 503 "try again", which never succeeds) where SQLite stored it.
    public static func isForbiddenControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r"
    }

    public static func hasControlCharacter(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.contains(where: isForbiddenControl)
    }

    /// The text without them: for what PopcornSwirl writes itself from what it read (a file's name
    /// in a ZIP, a reason quoting a cell), where refusing is not the answer.
    public static func withoutControls(_ text: String) -> String {
        guard hasControlCharacter(text) else { return text }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.unicodeScalars.filter { !isForbiddenControl($0) })
        return String(scalars)
    }

    /// Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): in a name
    /// they make it read as something else ("gpj.exe" shown as "exe.jpg").
    public static func hasBidiControl(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) }
    }

    /// A text's length as limits count it: Unicode scalars, as OpenAPI's `maxLength` does. Counting
    /// characters let "a" and 10,000 combining marks (20 KB) pass as one.
    public static func length(_ text: some StringProtocol) -> Int { text.unicodeScalars.count }
}
