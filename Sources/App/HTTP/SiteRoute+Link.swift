extension SiteRoute {
    /// The link with `:id` filled in and an optional query (already encoded pairs, nil values skipped).
    /// Built in one string (links are printed by the hundred on a page, and the list pages' cache
    /// keys are links).
    func link(_ id: (any CustomStringConvertible)? = nil, query: KeyValuePairs<String, String?> = [:]) -> String {
        var path = fullPattern
        if let id, let range = Self.idRange(in: path) { path.replaceSubrange(range, with: id.description) }
        var separator = "?"
        for (key, value) in query {
            guard let value else { continue }
            path += separator
            path += key
            path += "="
            path += Route.query(value)
            separator = "&"
        }
        return path
    }

    /// Where `:id` is in a pattern (ASCII, so the bytes are enough).
    private static func idRange(in path: String) -> Range<String.Index>? {
        let bytes = path.utf8
        var index = bytes.startIndex
        while let colon = bytes[index...].firstIndex(of: UInt8(ascii: ":")) {
            let end = bytes.index(colon, offsetBy: 3, limitedBy: bytes.endIndex) ?? bytes.endIndex
            if bytes[colon..<end].elementsEqual(":id".utf8) { return colon..<end }
            index = bytes.index(after: colon)
        }
        return nil
    }
}
