import Foundation
import Hummingbird

/// The recent searches of a visitor without a profile, kept in their browser (`ps_recent_searches`)
/// so a search, a GET, never creates rows: newest first, `<unix seconds> <query>` a line, at most
/// `limit` searches and `maxBytes` encoded (the oldest go first). Each has an id made from its
/// query, so the page's Remove works as for a profile's.
enum VisitorSearches {
    static let limit = 10
    static let maxBytes = 2_000
    static let maxAge = 30 * 86_400

    /// The searches the request's cookie holds (an unreadable line is skipped).
    static func read(_ request: Request, _ context: AppRequestContext) -> [SearchHistoryEntry] {
        guard let value = context.cookies.value(CookieJar.recentSearches, in: request)?.removingPercentEncoding else { return [] }
        return value.split(separator: "\n").prefix(limit).compactMap { line in
            guard let space = line.firstIndex(of: " "), let seconds = Int(line[..<space]),
                let query = try? SearchQuery(String(line[line.index(after: space)...]))
            else { return nil }
            return SearchHistoryEntry(id: id(query), query: query.text, searchedAt: Date(timeIntervalSince1970: TimeInterval(seconds)))
        }
    }

    /// `query` on top of `entries`, the same query (letter case aside) no longer below it.
    static func adding(_ query: SearchQuery, at time: Date, to entries: [SearchHistoryEntry]) -> [SearchHistoryEntry] {
        [SearchHistoryEntry(id: id(query), query: query.text, searchedAt: time)] + entries.filter { $0.query.lowercased() != query.key }
    }

    /// The cookie holding `entries` (cut to the limits).
    static func cookie(_ entries: [SearchHistoryEntry], _ context: AppRequestContext) -> Cookie {
        var lines: [String] = []
        var bytes = 0
        for entry in entries.prefix(limit) {
            let line = PercentEncoding.query("\(Int(entry.searchedAt.timeIntervalSince1970)) \(entry.query)")
            guard bytes + line.utf8.count + 3 <= maxBytes else { break }
            bytes += line.utf8.count + 3
            lines.append(line)
        }
        return context.cookies.make(CookieJar.recentSearches, lines.joined(separator: "%0A"), maxAge: maxAge)
    }

    /// A search's id: the same query always has the same one.
    static func id(_ query: SearchQuery) -> UUID {
        let digest = Array(TextDigest.sha256("recent-search", query.key))
        return UUID(
            uuid: (
                digest[0], digest[1], digest[2], digest[3], digest[4], digest[5], digest[6], digest[7], digest[8], digest[9], digest[10],
                digest[11], digest[12], digest[13], digest[14], digest[15]
            ))
    }
}
