import Foundation

/// One genre vocabulary for targeting: iTunes ("Action & Adventure", "Kids & Family") and TVMaze
/// ("Science-Fiction", "Children") name genres differently; offers target the canonical keys.
enum Genres {
    static let vocabulary: [(key: String, label: String)] = [
        ("action", "Action"), ("adventure", "Adventure"), ("animation", "Animation"), ("anime", "Anime"),
        ("comedy", "Comedy"), ("crime", "Crime"), ("documentary", "Documentary"), ("drama", "Drama"),
        ("family", "Family"), ("fantasy", "Fantasy"), ("food", "Food"), ("history", "History"),
        ("horror", "Horror"), ("independent", "Independent"), ("legal", "Legal"), ("music", "Music"),
        ("mystery", "Mystery"), ("nature", "Nature"), ("romance", "Romance"), ("sci-fi", "Sci-Fi"),
        ("sports", "Sports"), ("supernatural", "Supernatural"), ("thriller", "Thriller"), ("war", "War"),
        ("western", "Western"),
    ]
    static let keys = Set(vocabulary.map(\.key))

    private static let synonyms: [String: String] = [
        "science-fiction": "sci-fi", "science fiction": "sci-fi", "scifi": "sci-fi", "sci fi": "sci-fi",
        "kids": "family", "children": "family", "kids & family": "family",
        "musical": "music", "musicals": "music", "music documentaries": "music",
        "sport": "sports", "historical": "history", "animated": "animation", "romantic comedy": "romance",
    ]

    /// Canonical keys for upstream genre names: "Action & Adventure" → action, adventure.
    static func canonical(_ names: [String]) -> Set<String> {
        names.reduce(into: Set<String>()) { $0.formUnion(canonical($1)) }
    }

    private static func canonical(_ name: String) -> Set<String> {
        let whole = name.lowercased().trimmingCharacters(in: .whitespaces)
        if let key = synonyms[whole] ?? (Self.keys.contains(whole) ? whole : nil) { return [key] }
        var keys = Set<String>()
        for part in whole.split(whereSeparator: { $0 == "&" || $0 == "," || $0 == "/" }) {
            let word = part.trimmingCharacters(in: .whitespaces)
            if let key = synonyms[word] ?? (Self.keys.contains(word) ? word : nil) { keys.insert(key) }
        }
        return keys
    }

    static func label(_ key: String) -> String {
        vocabulary.first { $0.key == key }?.label ?? key
    }
}

/// Whole-word matching of offer keywords against a title's name and synopsis.
enum Keywords {
    /// Lower-case, accents removed, every run of non-letters/digits one space, padded with spaces,
    /// so " space " matches the word and not "spaceship".
    static func fold(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var out = " "
        var lastWasSpace = true
        for scalar in folded.unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) {
                out.unicodeScalars.append(scalar)
                lastWasSpace = false
            } else if !lastWasSpace {
                out.append(" ")
                lastWasSpace = true
            }
        }
        if !lastWasSpace { out.append(" ") }
        return out
    }

    static func matches(_ keyword: String, in folded: String) -> Bool {
        let needle = fold(keyword)
        return needle != " " && folded.contains(needle)
    }
}
